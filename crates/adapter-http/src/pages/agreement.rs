use actix_web::HttpResponse;
use domain::profile::ShortText;
use serde::Deserialize;
use serde_json::Value;

use super::form_post::FormPost;
use super::respond::{DocumentMade, api_error};
use crate::error::ApiError;
use crate::fields::{Check, Sent};

/// `full_name` typed as signature, and `consent`.
#[derive(Debug, Default, Deserialize)]
pub(super) struct AgreementForm {
    #[serde(default)]
    full_name: Sent,
    #[serde(default)]
    consent: Sent,
}

impl TryFrom<AgreementForm> for (ShortText, bool) {
    type Error = ApiError;

    fn try_from(form: AgreementForm) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let name = c.required("full_name", &form.full_name, ShortText::parse_plain);
        c.finish(|| Some((name?, consented(form.consent.value()))))
    }
}

/// A checkbox's or a JSON body's "yes".
fn consented(value: Option<&Value>) -> bool {
    match value {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => matches!(
            s.trim().to_ascii_lowercase().as_str(),
            "yes" | "on" | "true" | "1"
        ),
        Some(Value::Number(n)) => n.as_i64() == Some(1),
        _ => false,
    }
}

/// `POST /quiz/{token}/agreement`: `full_name` typed as signature, and `consent`.
pub async fn handle(post: FormPost<AgreementForm>) -> Result<HttpResponse, ApiError> {
    post.submit(async |state, link, (name, consent)| {
        let made = state.client.sign_agreement(link, name, consent).await;
        made.map(|d| DocumentMade::of(&d)).map_err(api_error)
    })
    .await
}
