use actix_web::HttpResponse;
use actix_web::http::StatusCode;

use crate::error::ApiError;

/// Any path no route serves.
pub async fn not_found() -> Result<HttpResponse, ApiError> {
    Err(ApiError::new(
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
        "No operation at this path.",
    ))
}

/// A known API path called with another method than POST.
pub async fn method_not_allowed() -> Result<HttpResponse, ApiError> {
    Err(ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "HTTP_METHOD_INVALID",
        "Every API operation is called with POST.",
    ))
}
