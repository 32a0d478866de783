use actix_web::{HttpRequest, HttpResponse, web};
use domain::validation::Invalid;

use super::form_post;
use super::respond::{DocumentMade, after_post, api_error};
use crate::error::ApiError;
use crate::fields::Fields;
use crate::state::State;

/// `POST /quiz/{token}/fingerprint`: the hash the page computed (`fingerprint`).
pub async fn handle(
    state: State,
    req: HttpRequest,
    token: web::Path<String>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (link, map) = match form_post(&state, &req, token, payload).await {
        Ok(posted) => posted,
        Err(answer) => return answer,
    };
    let mut f = Fields::new(&map);
    let fingerprint = f.required("fingerprint", |s| Ok::<_, Invalid>(s.trim().to_owned()));
    let result = match f.finish(|| fingerprint) {
        Ok(fingerprint) => state
            .client
            .fingerprint(&link, fingerprint)
            .await
            .map_err(api_error)
            .map(|d| DocumentMade::of(&d)),
        Err(e) => Err(e),
    };
    after_post(&state, &req, &link, result).await
}
