use domain::profile::{
    Amount, AttributesPatch, Country, DateOfBirth, Email, IpAddress, LongText, PhoneNumber, Postal,
    Profile, ProfileChanges, ProfileKey, ShortText, Ssn, State, SubmittedFormFields,
};
use serde_json::{Map, Value};

use super::opt;
use crate::fields::Fields;
use crate::object;
use crate::timefmt::rfc3339;

/// `email_address` and `mobile_number`, both required.
pub fn read_key(f: &mut Fields<'_>) -> Option<ProfileKey> {
    let email = f.required("email_address", Email::parse);
    let mobile = f.required("mobile_number", PhoneNumber::parse);
    Some(ProfileKey {
        email: email?,
        mobile: mobile?,
    })
}

/// The profile fields of interface §2.2 other than the identifying pair.
pub fn read_changes(f: &mut Fields<'_>) -> Option<ProfileChanges> {
    let first_name = f.required("first_name", ShortText::parse);
    let last_name = f.required("last_name", ShortText::parse);
    let attributes = AttributesPatch {
        merchant_reference: f.patch("merchant_reference", LongText::parse),
        customer_id: f.patch("customer_id", LongText::parse),
        middle_name: f.patch("middle_name", ShortText::parse),
        date_of_birth: f.patch("date_of_birth", DateOfBirth::parse),
        home_phone_number: f.patch("home_phone_number", PhoneNumber::parse),
        ip_address: f.patch("ip_address", IpAddress::parse),
        address_line_1: f.patch("address_line_1", LongText::parse),
        address_line_2: f.patch("address_line_2", LongText::parse),
        city: f.patch("city", ShortText::parse),
        state: f.patch("state", State::parse),
        postal: f.patch("postal", Postal::parse),
        country: f.patch("country", Country::parse),
        driver_licence_id: f.patch("driver_licence_id", LongText::parse),
        ssn: f.patch("ssn", Ssn::parse),
        amount: f.numeric_patch("amount", Amount::parse),
    };
    Some(ProfileChanges {
        first_name: first_name?,
        last_name: last_name?,
        attributes,
    })
}

fn text<T>(value: &Option<T>, as_str: impl Fn(&T) -> &str) -> Value {
    opt(value.as_ref().map(as_str))
}

/// The profile as profile create and update show it (no status).
pub fn profile_json(p: &Profile) -> Map<String, Value> {
    let mut out = attribute_fields(p);
    out.extend(timestamps(p));
    out
}

/// The profile as profile get and read show it: with `status` and what the client
/// submitted through the quiz.
pub fn reviewed_profile_json(p: &Profile) -> Value {
    let mut out = attribute_fields(p);
    out.insert("status".into(), p.status.as_str().into());
    out.extend(timestamps(p));
    out.insert(
        "customer_submitted_form_fields".into(),
        submitted_json(p.submitted.as_ref()),
    );
    Value::Object(out)
}

fn timestamps(p: &Profile) -> Map<String, Value> {
    object! {
        "created_at": rfc3339(p.created_at),
        "updated_at": rfc3339(p.updated_at),
    }
}

fn attribute_fields(p: &Profile) -> Map<String, Value> {
    let a = &p.attributes;
    object! {
        "merchant_reference": text(&a.merchant_reference, LongText::as_str),
        "customer_id": text(&a.customer_id, LongText::as_str),
        "email_address": p.key.email.as_str(),
        "mobile_number": p.key.mobile.as_str(),
        "first_name": p.first_name.as_str(),
        "middle_name": text(&a.middle_name, ShortText::as_str),
        "last_name": p.last_name.as_str(),
        "date_of_birth": opt(a.date_of_birth),
        "home_phone_number": text(&a.home_phone_number, PhoneNumber::as_str),
        "ip_address": opt(a.ip_address.as_ref()),
        "address_line_1": text(&a.address_line_1, LongText::as_str),
        "address_line_2": text(&a.address_line_2, LongText::as_str),
        "city": text(&a.city, ShortText::as_str),
        "state": text(&a.state, State::as_str),
        "postal": text(&a.postal, Postal::as_str),
        "country": text(&a.country, Country::as_str),
        "driver_licence_id": text(&a.driver_licence_id, LongText::as_str),
        "ssn": text(&a.ssn, Ssn::as_str),
        "amount": opt(a.amount),
    }
}

/// Always an object, with `null` members before the client has submitted anything.
fn submitted_json(s: Option<&SubmittedFormFields>) -> Value {
    let field =
        |get: fn(&SubmittedFormFields) -> &Option<String>| opt(s.and_then(|s| get(s).clone()));
    Value::Object(object! {
        "email_address": field(|s| &s.email_address),
        "mobile_number": field(|s| &s.mobile_number),
        "address": field(|s| &s.address),
        "date_of_birth": field(|s| &s.date_of_birth),
        "ssn": field(|s| &s.ssn),
        "created_at": opt(s.map(|s| rfc3339(s.created_at))),
        "updated_at": opt(s.map(|s| rfc3339(s.updated_at))),
    })
}
