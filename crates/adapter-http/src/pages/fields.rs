use actix_web::http::header::CONTENT_TYPE;
use actix_web::{HttpRequest, HttpResponse};
use domain::profile::{
    Address, Country, DateOfBirth, Email, LongText, PhoneNumber, Postal, ShortText, Ssn,
    State as Region,
};
use domain::services::FieldsInput;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::form_post::FormPost;
use super::respond::{StepsDone, api_error};
use crate::error::ApiError;
use crate::fields::{Check, Sent};

/// A form-encoded or JSON body as one JSON object.
pub fn form_or_json(req: &HttpRequest, body: &[u8]) -> Result<Map<String, Value>, ApiError> {
    let is_form = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/x-www-form-urlencoded"));
    let invalid = |what: &str| {
        ApiError::bad_request("REQUEST_BODY_INVALID", format!("The body is not {what}."))
    };
    if is_form {
        let pairs: Vec<(String, String)> =
            serde_urlencoded::from_bytes(body).map_err(|_| invalid("a valid form"))?;
        return Ok(pairs
            .into_iter()
            .map(|(k, v)| (k, Value::String(v)))
            .collect());
    }
    match serde_json::from_slice(body) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(invalid("a JSON object or a form")),
    }
}

/// The form steps' fields; each step posts its own, so every one may be absent.
#[derive(Debug, Default, Deserialize)]
pub(super) struct FieldsForm {
    #[serde(default)]
    address_line_1: Sent,
    #[serde(default)]
    address_line_2: Sent,
    #[serde(default)]
    city: Sent,
    #[serde(default)]
    state: Sent,
    #[serde(default)]
    postal: Sent,
    #[serde(default)]
    country: Sent,
    #[serde(default)]
    mobile_number: Sent,
    #[serde(default)]
    email_address: Sent,
    #[serde(default)]
    date_of_birth: Sent,
    #[serde(default)]
    ssn: Sent,
}

impl FieldsForm {
    /// The address, when any of its fields was filled in.
    fn address(&self, c: &mut Check) -> Option<Address> {
        let filled = [
            &self.address_line_1,
            &self.address_line_2,
            &self.city,
            &self.state,
            &self.postal,
            &self.country,
        ]
        .iter()
        .any(|field| field.has_text());
        if !filled {
            return None;
        }
        // Typed by the client, read later by a reviewer: no markup.
        let line_1 = c.required(
            "address_line_1",
            &self.address_line_1,
            LongText::parse_plain,
        );
        let line_2 = c.optional(
            "address_line_2",
            &self.address_line_2,
            LongText::parse_plain,
        );
        let city = c.required("city", &self.city, ShortText::parse_plain);
        let state = c.optional("state", &self.state, Region::parse);
        let postal = c.required("postal", &self.postal, Postal::parse);
        let country = c.required("country", &self.country, Country::parse);
        match Address::new(line_1?, line_2, city?, state, postal?, country?) {
            Ok(address) => Some(address),
            Err(violations) => {
                for v in violations.iter() {
                    c.refuse(&v.field, v.reason.clone());
                }
                None
            }
        }
    }
}

impl TryFrom<FieldsForm> for FieldsInput {
    type Error = ApiError;

    fn try_from(form: FieldsForm) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let input = FieldsInput {
            address: form.address(&mut c),
            mobile_number: c.optional("mobile_number", &form.mobile_number, PhoneNumber::parse),
            email_address: c.optional("email_address", &form.email_address, Email::parse),
            date_of_birth: c.optional("date_of_birth", &form.date_of_birth, DateOfBirth::parse),
            ssn: c.optional("ssn", &form.ssn, Ssn::parse),
        };
        c.finish(|| Some(input))
    }
}

/// `POST /quiz/{token}/fields`: the form steps.
pub async fn handle(post: FormPost<FieldsForm>) -> Result<HttpResponse, ApiError> {
    post.submit::<FieldsInput, _>(async |state, link, input| {
        let view = state.client.submit_fields(link, input).await;
        // What is done, never what was stored: a link is no way to read an SSN.
        view.map(|view| StepsDone::of(&view.quiz))
            .map_err(api_error)
    })
    .await
}
