use domain::document::{Document, Evidence};
use domain::profile::{Country, LongText, Profile, ShortText, Ssn, State};
use serde_json::{Map, Value, json};

use super::opt;
use crate::fields::Fields;
use crate::object;
use crate::timefmt::rfc3339;

pub fn read_document_id(f: &mut Fields<'_>) -> Option<String> {
    f.required_id("document_id", domain::validation::parse_object_id)
}

/// A document of interface §2.5.
pub fn document_json(d: &Document) -> Value {
    let data: Vec<Value> = match &d.evidence {
        Evidence::Files(files) => files
            .iter()
            .map(|f| {
                json!({
                    "file_id": f.file_id,
                    "file_name": f.file_name,
                    "content_type": f.file_type.mime(),
                    "size_bytes": f.size_bytes,
                    "sha256": f.sha256,
                })
            })
            .collect(),
        Evidence::Agreement {
            signed_name,
            signed_at,
        } => {
            vec![
                json!({"signed_name": signed_name, "consent": true, "signed_at": rfc3339(*signed_at)}),
            ]
        }
        Evidence::Fingerprint { fingerprint } => vec![json!({ "fingerprint": fingerprint })],
    };
    Value::Object(object! {
        "id": d.id,
        "name": d.name,
        "status": d.status.as_str(),
        "data": data,
        "created_at": rfc3339(d.created_at),
        "updated_at": rfc3339(d.updated_at),
    })
}

/// The profile as document get and read show it: its own layout, quirks included
/// (`address_lin_2`, `postal_code`, and `email`/`mobile`/`full_address` in the
/// submitted fields).
pub fn document_profile_json(p: &Profile) -> Value {
    let a = &p.attributes;
    let long = |t: &Option<LongText>| opt(t.as_ref().map(LongText::as_str));
    let short = |t: &Option<ShortText>| opt(t.as_ref().map(ShortText::as_str));
    let s = p.submitted.as_ref();
    let submitted = |get: fn(&domain::profile::SubmittedFormFields) -> &Option<String>| {
        opt(s.and_then(|s| get(s).clone()))
    };
    let submitted_fields: Map<String, Value> = object! {
        "email": submitted(|s| &s.email_address),
        "mobile": submitted(|s| &s.mobile_number),
        "date_of_birth": submitted(|s| &s.date_of_birth),
        "ssn": submitted(|s| &s.ssn),
        "full_address": submitted(|s| &s.address),
        "created_at": opt(s.map(|s| rfc3339(s.created_at))),
        "updated_at": opt(s.map(|s| rfc3339(s.updated_at))),
    };
    Value::Object(object! {
        "merchant_reference": long(&a.merchant_reference),
        "customer_id": long(&a.customer_id),
        "first_name": p.first_name.as_str(),
        "middle_name": short(&a.middle_name),
        "last_name": p.last_name.as_str(),
        "address_line_1": long(&a.address_line_1),
        "address_lin_2": long(&a.address_line_2),
        "city": short(&a.city),
        "state": opt(a.state.as_ref().map(State::as_str)),
        "country": opt(a.country.as_ref().map(Country::as_str)),
        "postal_code": opt(a.postal.as_ref().map(|p| p.as_str())),
        "date_of_birth": opt(a.date_of_birth),
        "driver_licence_id": long(&a.driver_licence_id),
        "ssn": opt(a.ssn.as_ref().map(Ssn::as_str)),
        "status": p.status.as_str(),
        "created_at": rfc3339(p.created_at),
        "updated_at": rfc3339(p.updated_at),
        "customer_submitted_form_fields": submitted_fields,
    })
}
