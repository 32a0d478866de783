use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::http::header::{ALLOW, HeaderValue};

use crate::error::ApiError;

/// Any path no route serves.
pub async fn not_found() -> Result<HttpResponse, ApiError> {
    Err(ApiError::new(
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
        "No operation at this path.",
    ))
}

/// A known API path called with another method than POST. `Allow` names the one it takes
/// (RFC 9110 §15.5.6): the envelope keeps the headers of the error it wraps.
pub async fn method_not_allowed() -> HttpResponse {
    let error = ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "HTTP_METHOD_INVALID",
        "Every API operation is called with POST.",
    );
    let mut answer = HttpResponse::from_error(error);
    answer
        .headers_mut()
        .insert(ALLOW, HeaderValue::from_static("POST"));
    answer
}
