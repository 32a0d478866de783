use actix_web::HttpResponse;
use domain::validation::Invalid;
use serde::Deserialize;

use super::form_post::FormPost;
use super::respond::{DocumentMade, api_error};
use crate::error::ApiError;
use crate::fields::{Check, Sent};

/// The hash the page computed.
#[derive(Debug, Default, Deserialize)]
pub(super) struct FingerprintForm {
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
pub async fn handle(post: FormPost<FingerprintForm>) -> Result<HttpResponse, ApiError> {
    post.submit::<String, _>(async |state, link, fingerprint| {
        let made = state.client.fingerprint(link, fingerprint).await;
        made.map(|d| DocumentMade::of(&d)).map_err(api_error)
    })
    .await
}
