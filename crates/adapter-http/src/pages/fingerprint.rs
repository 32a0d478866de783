use actix_web::{HttpRequest, HttpResponse, web};
use domain::validation::Invalid;
use serde::Deserialize;

use super::form_post;
use super::respond::{DocumentMade, after_post, api_error};
use crate::error::ApiError;
use crate::fields::{self, Check, Sent};
use crate::state::State;

/// The hash the page computed.
#[derive(Debug, Default, Deserialize)]
struct FingerprintForm {
    #[serde(default)]
    fingerprint: Sent,
}

impl TryFrom<FingerprintForm> for String {
    type Error = ApiError;

    fn try_from(form: FingerprintForm) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let fingerprint = c.required("fingerprint", &form.fingerprint, |s| {
            Ok::<_, Invalid>(s.trim().to_owned())
        });
        c.finish(|| fingerprint)
    }
}

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
    let result = match fields::parse::<FingerprintForm, _>(&map) {
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
