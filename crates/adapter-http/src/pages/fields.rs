use actix_web::http::header::CONTENT_TYPE;
use actix_web::{HttpRequest, HttpResponse, web};
use domain::profile::{
    Address, Country, DateOfBirth, Email, LongText, PhoneNumber, Postal, ShortText, Ssn,
    State as Region,
};
use domain::services::FieldsInput;
use serde_json::{Map, Value};

use super::form_post;
use super::respond::{StepsDone, after_post, api_error};
use crate::error::ApiError;
use crate::fields::Fields;
use crate::state::State;

const ADDRESS_FIELDS: [&str; 6] = [
    "address_line_1",
    "address_line_2",
    "city",
    "state",
    "postal",
    "country",
];

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

fn read_address(f: &mut Fields<'_>, body: &Map<String, Value>) -> Option<Address> {
    let sent = ADDRESS_FIELDS.iter().any(|name| {
        body.get(*name)
            .and_then(Value::as_str)
            .is_some_and(|v| !v.trim().is_empty())
    });
    if !sent {
        return None;
    }
    // Typed by the client, read later by a reviewer: no markup.
    let line_1 = f.required("address_line_1", LongText::parse_plain);
    let line_2 = f.optional("address_line_2", LongText::parse_plain);
    let city = f.required("city", ShortText::parse_plain);
    let state = f.optional("state", Region::parse);
    let postal = f.required("postal", Postal::parse);
    let country = f.required("country", Country::parse);
    match Address::new(line_1?, line_2, city?, state, postal?, country?) {
        Ok(address) => Some(address),
        Err(violations) => {
            for v in violations.iter() {
                f.refuse(&v.field, v.reason.clone());
            }
            None
        }
    }
}

/// `POST /quiz/{token}/fields`: the form steps.
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
    let input = FieldsInput {
        address: read_address(&mut f, &map),
        mobile_number: f.optional("mobile_number", PhoneNumber::parse),
        email_address: f.optional("email_address", Email::parse),
        date_of_birth: f.optional("date_of_birth", DateOfBirth::parse),
        ssn: f.optional("ssn", Ssn::parse),
    };
    let result = match f.finish(|| Some(())) {
        Ok(()) => state
            .client
            .submit_fields(&link, input)
            .await
            .map_err(api_error)
            // What is done, never what was stored: a link is no way to read an SSN.
            .map(|view| StepsDone::of(&view.quiz)),
        Err(e) => Err(e),
    };
    after_post(&state, &req, &link, result).await
}
