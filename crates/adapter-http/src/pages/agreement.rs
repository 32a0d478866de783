use actix_web::{HttpRequest, HttpResponse, web};
use domain::profile::ShortText;
use serde::Deserialize;
use serde_json::Value;

use super::form_post;
use super::respond::{DocumentMade, after_post, api_error};
use crate::error::ApiError;
use crate::fields::{self, Check, Sent};
use crate::state::State;

/// `full_name` typed as signature, and `consent`.
#[derive(Debug, Default, Deserialize)]
struct AgreementForm {
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
    let result = match fields::parse::<AgreementForm, _>(&map) {
        Ok((name, consent)) => state
            .client
            .sign_agreement(&link, name, consent)
            .await
            .map_err(api_error)
            .map(|d| DocumentMade::of(&d)),
        Err(e) => Err(e),
    };
    after_post(&state, &req, &link, result).await
}
