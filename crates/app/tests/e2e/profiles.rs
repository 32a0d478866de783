//! profile/create, update, get, read, update-status and delete.

use serde_json::{Value, json};

use crate::Scenario;
use crate::support::{Backend, Env, profile, with};

pub const SCENARIOS: &[Scenario] = &[
    (
        "profile_create_answers_201_with_the_profile_and_no_status",
        create_answers_201_with_the_profile,
    ),
    (
        "profile_create_reports_every_missing_required_field_at_once",
        create_reports_every_missing_field,
    ),
    (
        "profile_fields_are_checked_for_format_and_length",
        fields_are_checked_for_format_and_length,
    ),
    (
        "profile_fields_accept_their_longest_valid_values",
        fields_accept_their_longest_valid_values,
    ),
    (
        "profile_exist_for_the_pair_the_email_alone_and_the_mobile_alone",
        profile_exist_for_each_half,
    ),
    (
        "the_same_pair_under_two_merchants_is_two_profiles",
        same_pair_under_two_merchants,
    ),
    (
        "a_merchant_never_reaches_another_merchants_profiles",
        merchants_are_isolated,
    ),
    (
        "profile_update_keeps_absent_fields_and_clears_null_ones",
        update_keeps_absent_and_clears_null,
    ),
    (
        "profile_update_of_an_unknown_pair_is_profile_not_found",
        update_unknown_is_not_found,
    ),
    (
        "profile_get_shows_status_and_submitted_fields_and_ignores_email_case",
        get_shows_status_and_submitted_fields,
    ),
    ("profile_read_pages_newest_first", read_pages_newest_first),
    (
        "profile_read_requires_valid_offset_and_limit",
        read_requires_valid_paging,
    ),
    (
        "profile_update_status_sets_any_status_in_canonical_spelling",
        update_status_sets_canonical_status,
    ),
    (
        "profile_update_status_refuses_unknown_statuses",
        update_status_refuses_unknown,
    ),
    (
        "profile_delete_erases_the_profile_and_frees_the_pair",
        delete_erases_and_frees_the_pair,
    ),
    (
        "amount_is_returned_as_a_two_decimal_string",
        amount_is_a_two_decimal_string,
    ),
];

const EMAIL: &str = "ada@example.com";
const MOBILE: &str = "4165550123";

fn key() -> Value {
    json!({"email_address": EMAIL, "mobile_number": MOBILE})
}

fn with_key(extra: Value) -> Value {
    let mut body = key();
    for (k, v) in extra.as_object().expect("object") {
        body[k] = v.clone();
    }
    body
}

fn create_answers_201_with_the_profile(backend: Backend) {
    let env = Env::start(backend);
    let body = json!({
        "merchant_reference": "ref-1", "customer_id": "c-9",
        "email_address": EMAIL, "mobile_number": MOBILE,
        "first_name": "Ada", "middle_name": "King", "last_name": "Lovelace",
        "date_of_birth": "1990-12-10", "home_phone_number": "6135550188", "ip_address": "203.0.113.7",
        "address_line_1": "1 Main St", "address_line_2": "Apt 2", "city": "Toronto", "state": "ON",
        "postal": "M5V 2T6", "country": "CA", "driver_licence_id": "L1234", "ssn": "123456789",
        "amount": "125.5", "unknown_field": "ignored"
    });
    let reply = env.client().call("profile/create", &body);
    let out = reply.assert_status(201);
    assert!(
        out["response_time"]
            .as_str()
            .is_some_and(|t| t.len() >= 4 && t.contains('.')),
        "{out}"
    );
    let p = &out["profile"];
    let keys: Vec<&str> = p
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "merchant_reference",
            "customer_id",
            "email_address",
            "mobile_number",
            "first_name",
            "middle_name",
            "last_name",
            "date_of_birth",
            "home_phone_number",
            "ip_address",
            "address_line_1",
            "address_line_2",
            "city",
            "state",
            "postal",
            "country",
            "driver_licence_id",
            "ssn",
            "amount",
            "created_at",
            "updated_at",
        ]
    );
    for field in [
        "merchant_reference",
        "first_name",
        "middle_name",
        "date_of_birth",
        "city",
        "postal",
        "ssn",
    ] {
        assert_eq!(p[field], body[field], "{field}");
    }
    assert_eq!(p["amount"], "125.50");
    assert_eq!(p.get("unknown_field"), None);
    assert_eq!(p["created_at"], p["updated_at"]);
    assert!(
        p["created_at"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z') && t.len() == 20),
        "{p}"
    );
}

fn create_reports_every_missing_field(backend: Backend) {
    let env = Env::start(backend);
    env.client()
        .call(
            "profile/create",
            &json!({"first_name": "", "last_name": null}),
        )
        .assert_error(
            400,
            &[
                "EMAIL_ADDRESS_REQUIRED",
                "MOBILE_NUMBER_REQUIRED",
                "FIRST_NAME_REQUIRED",
                "LAST_NAME_REQUIRED",
            ],
        );
}

fn fields_are_checked_for_format_and_length(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    let cases: &[(&str, Value)] = &[
        (
            "email_address",
            json!(format!("{}@example.com", "a".repeat(34))),
        ),
        ("email_address", json!("not-an-email")),
        ("mobile_number", json!("1165550123")),
        ("mobile_number", json!("41655501")),
        ("mobile_number", json!(4165550123u64)),
        ("first_name", json!("x".repeat(46))),
        ("middle_name", json!("x".repeat(46))),
        ("last_name", json!(["Lovelace"])),
        ("merchant_reference", json!("r".repeat(101))),
        ("customer_id", json!("c".repeat(101))),
        ("date_of_birth", json!("1990-02-30")),
        ("date_of_birth", json!("2999-01-01")),
        ("date_of_birth", json!("10/12/1990")),
        ("home_phone_number", json!("555")),
        ("ip_address", json!("300.1.1.1")),
        ("address_line_1", json!("a".repeat(101))),
        ("address_line_2", json!("a".repeat(101))),
        ("city", json!("c".repeat(46))),
        ("state", json!("Ontario")),
        ("country", json!("XX")),
        ("postal", json!("12345678901")),
        ("driver_licence_id", json!("d".repeat(101))),
        ("ssn", json!("12345678")),
        ("ssn", json!("12345678x")),
        ("amount", json!(-1)),
        ("amount", json!("1.234")),
        ("amount", json!(true)),
    ];
    for (field, value) in cases {
        let body = with(profile(EMAIL, MOBILE), field, value.clone());
        let code = format!("{}_INVALID", field.to_uppercase());
        client
            .call("profile/create", &body)
            .assert_error(400, &[code.as_str()]);
    }
    // A state must belong to the country where we know its subdivisions.
    let body = with(
        with(profile(EMAIL, MOBILE), "country", json!("US")),
        "state",
        json!("ON"),
    );
    client
        .call("profile/create", &body)
        .assert_error(400, &["STATE_INVALID"]);
    // Nothing was stored by any refused request.
    let read = client.call("profile/read", &json!({"offset": 0, "limit": 10}));
    assert_eq!(read.assert_status(200)["total_count"], 0);
}

fn fields_accept_their_longest_valid_values(backend: Backend) {
    let env = Env::start(backend);
    let email = format!("{}@example.com", "a".repeat(33));
    let body = json!({
        "email_address": email, "mobile_number": MOBILE,
        "first_name": "f".repeat(45), "last_name": "l".repeat(45), "middle_name": "m".repeat(45),
        "merchant_reference": "r".repeat(100), "address_line_1": "a".repeat(100),
        "postal": "12345-6789", "ip_address": "2001:db8::1", "country": "us", "state": "ny",
        "amount": 0,
    });
    let reply = env.client().call("profile/create", &body);
    let p = &reply.assert_status(201)["profile"];
    assert_eq!(p["email_address"], email);
    assert_eq!(p["country"], "US");
    assert_eq!(p["state"], "NY");
    assert_eq!(p["amount"], "0.00");
}

fn profile_exist_for_each_half(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    client
        .call("profile/create", &profile(EMAIL, MOBILE))
        .assert_status(201);
    for (email, mobile) in [
        (EMAIL, MOBILE),
        ("ADA@Example.com", "4165550999"),
        ("bob@example.com", MOBILE),
    ] {
        client
            .call("profile/create", &profile(email, mobile))
            .assert_error(400, &["PROFILE_EXIST"]);
    }
    let read = client.call("profile/read", &json!({"offset": 0, "limit": 10}));
    assert_eq!(read.assert_status(200)["total_count"], 1);
}

fn same_pair_under_two_merchants(backend: Backend) {
    let env = Env::start(backend);
    let other = env.server.client(&env.server.create_merchant("Other"));
    env.client()
        .call("profile/create", &profile(EMAIL, MOBILE))
        .assert_status(201);
    let body = with(profile(EMAIL, MOBILE), "first_name", json!("Augusta"));
    other.call("profile/create", &body).assert_status(201);
    let mine = env.client().call("profile/get", &key());
    assert_eq!(mine.assert_status(200)["profile"]["first_name"], "Ada");
    let theirs = other.call("profile/get", &key());
    assert_eq!(
        theirs.assert_status(200)["profile"]["first_name"],
        "Augusta"
    );
}

fn merchants_are_isolated(backend: Backend) {
    let env = Env::start(backend);
    let other = env.server.client(&env.server.create_merchant("Other"));
    env.client()
        .call("profile/create", &profile(EMAIL, MOBILE))
        .assert_status(201);

    other
        .call("profile/get", &key())
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
    other
        .call("profile/update", &profile(EMAIL, MOBILE))
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
    other
        .call(
            "profile/update-status",
            &with_key(json!({"status": "Declined"})),
        )
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
    other
        .call("event/read", &key())
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
    other
        .call("profile/delete", &key())
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
    let listed = other.call("profile/read", &json!({"offset": 0, "limit": 50}));
    assert_eq!(listed.assert_status(200)["total_count"], 0);
    assert_eq!(listed.body["profiles"], json!([]));

    let mine = env.client().call("profile/get", &key());
    let p = &mine.assert_status(200)["profile"];
    assert_eq!(p["status"], "Pending", "untouched by the other merchant");
    assert_eq!(p["first_name"], "Ada");
}

fn update_keeps_absent_and_clears_null(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    let created = with(
        with(profile(EMAIL, MOBILE), "city", json!("Toronto")),
        "ssn",
        json!("123456789"),
    );
    client.call("profile/create", &created).assert_status(201);

    let update = json!({"email_address": "Ada@Example.com", "mobile_number": MOBILE,
        "first_name": "Augusta", "last_name": "King", "ssn": null, "postal": "K1A 0B1"});
    let reply = client.call("profile/update", &update);
    let out = reply.assert_status(200);
    assert!(
        out["response_time"].is_string(),
        "two-decimal string in update too"
    );
    let p = &out["profile"];
    assert_eq!(p["first_name"], "Augusta");
    assert_eq!(p["city"], "Toronto", "absent: unchanged");
    assert_eq!(p["ssn"], Value::Null, "null: cleared");
    assert_eq!(p["postal"], "K1A 0B1");
    assert_eq!(
        p["email_address"], EMAIL,
        "the pair is not changed by update"
    );
    assert_eq!(p.get("status"), None);

    let got = client.call("profile/get", &key());
    assert_eq!(got.assert_status(200)["profile"]["ssn"], Value::Null);
    assert_eq!(got.body["profile"]["city"], "Toronto");

    client
        .call("profile/update", &key())
        .assert_error(400, &["FIRST_NAME_REQUIRED", "LAST_NAME_REQUIRED"]);
    client
        .call(
            "profile/update",
            &with(profile(EMAIL, MOBILE), "ssn", json!("1")),
        )
        .assert_error(400, &["SSN_INVALID"]);
}

fn update_unknown_is_not_found(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    client
        .call("profile/create", &profile(EMAIL, MOBILE))
        .assert_status(201);
    // Each half alone matches, the pair does not.
    client
        .call("profile/update", &profile(EMAIL, "4165550999"))
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
    client
        .call(
            "profile/get",
            &json!({"email_address": "eve@example.com", "mobile_number": MOBILE}),
        )
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
    client
        .call("profile/get", &json!({}))
        .assert_error(400, &["EMAIL_ADDRESS_REQUIRED", "MOBILE_NUMBER_REQUIRED"]);
}

fn get_shows_status_and_submitted_fields(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    client
        .call("profile/create", &profile(EMAIL, MOBILE))
        .assert_status(201);
    let reply = client.call(
        "profile/get",
        &json!({"email_address": "ADA@EXAMPLE.COM", "mobile_number": MOBILE}),
    );
    let p = &reply.assert_status(200)["profile"];
    assert_eq!(p["status"], "Pending");
    let submitted = p["customer_submitted_form_fields"]
        .as_object()
        .expect("an object");
    let keys: Vec<&str> = submitted.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "email_address",
            "mobile_number",
            "address",
            "date_of_birth",
            "ssn",
            "created_at",
            "updated_at"
        ]
    );
    assert!(
        submitted.values().all(Value::is_null),
        "nothing submitted yet"
    );
}

fn read_pages_newest_first(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    for i in 0..7 {
        let email = format!("client{i}@example.com");
        let mobile = format!("41655501{i:02}");
        client
            .call("profile/create", &profile(&email, &mobile))
            .assert_status(201);
    }
    let first = client.call("profile/read", &json!({"offset": 0, "limit": 3}));
    let out = first.assert_status(200);
    assert_eq!(
        (
            out["total_count"].clone(),
            out["filtered"].clone(),
            out["offset"].clone(),
            out["limit"].clone()
        ),
        (json!(7), json!(7), json!(0), json!(3))
    );
    let emails = |v: &Value| -> Vec<String> {
        v["profiles"]
            .as_array()
            .expect("array")
            .iter()
            .map(|p| p["email_address"].as_str().expect("email").to_owned())
            .collect()
    };
    assert_eq!(
        emails(out),
        [
            "client6@example.com",
            "client5@example.com",
            "client4@example.com"
        ]
    );
    let last = client.call("profile/read", &json!({"offset": 6, "limit": 50}));
    assert_eq!(emails(last.assert_status(200)), ["client0@example.com"]);
    assert_eq!(last.body["profiles"][0]["status"], "Pending");
    let beyond = client.call("profile/read", &json!({"offset": 7, "limit": 5}));
    assert_eq!(beyond.assert_status(200)["profiles"], json!([]));
}

fn read_requires_valid_paging(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    client
        .call("profile/read", &json!({}))
        .assert_error(400, &["OFFSET_REQUIRED", "LIMIT_REQUIRED"]);
    client
        .call("profile/read", &json!({"offset": -1, "limit": 0}))
        .assert_error(400, &["OFFSET_INVALID", "LIMIT_INVALID"]);
    client
        .call("profile/read", &json!({"offset": 0, "limit": 51}))
        .assert_error(400, &["LIMIT_INVALID"]);
    client
        .call("profile/read", &json!({"offset": "0", "limit": 1.5}))
        .assert_error(400, &["OFFSET_INVALID", "LIMIT_INVALID"]);
}

fn update_status_sets_canonical_status(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    client
        .call("profile/create", &profile(EMAIL, MOBILE))
        .assert_status(201);
    for (sent, stored) in [
        ("approved", "Approved"),
        ("DECLINED", "Declined"),
        ("Pending", "Pending"),
        ("Approved", "Approved"),
    ] {
        let reply = client.call("profile/update-status", &with_key(json!({"status": sent})));
        let out = reply.assert_status(200);
        let keys: Vec<&str> = out
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "http_status_code",
                "query_reference_id",
                "response_time",
                "query_at",
                "email_address",
                "mobile_number",
                "status",
                "updated_at"
            ]
        );
        assert_eq!(out["status"], stored);
        let got = client.call("profile/get", &key());
        assert_eq!(got.assert_status(200)["profile"]["status"], stored);
    }
}

fn update_status_refuses_unknown(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    client
        .call("profile/create", &profile(EMAIL, MOBILE))
        .assert_status(201);
    client
        .call(
            "profile/update-status",
            &with_key(json!({"status": "Reviewed"})),
        )
        .assert_error(400, &["STATUS_INVALID"]);
    client
        .call("profile/update-status", &key())
        .assert_error(400, &["STATUS_REQUIRED"]);
    client
        .call("profile/update-status", &json!({"status": "Approved"}))
        .assert_error(400, &["EMAIL_ADDRESS_REQUIRED", "MOBILE_NUMBER_REQUIRED"]);
}

fn delete_erases_and_frees_the_pair(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    client
        .call("profile/create", &profile(EMAIL, MOBILE))
        .assert_status(201);
    client
        .call(
            "profile/update-status",
            &with_key(json!({"status": "Approved"})),
        )
        .assert_status(200);
    let reply = client.call("profile/delete", &key());
    let out = reply.assert_status(200);
    assert_eq!(out["deleted"], 1);
    assert_eq!(out["email_address"], EMAIL);
    assert!(out["deleted_at"].as_str().is_some_and(|t| t.ends_with('Z')));
    client
        .call("profile/get", &key())
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
    client
        .call("profile/delete", &key())
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
    client
        .call("event/read", &key())
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
    client
        .call("profile/create", &profile(EMAIL, MOBILE))
        .assert_status(201);
    let events = client.call("event/read", &key());
    let list = events.assert_status(200)["events"]
        .as_array()
        .expect("array")
        .clone();
    assert_eq!(
        list.len(),
        1,
        "the old history went with the old profile: {list:?}"
    );
    assert_eq!(list[0]["activity"], "profile_created");
}

fn amount_is_a_two_decimal_string(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    let reply = client.call(
        "profile/create",
        &with(profile(EMAIL, MOBILE), "amount", json!(19.9)),
    );
    assert_eq!(reply.assert_status(201)["profile"]["amount"], "19.90");
    let reply = client.call(
        "profile/update",
        &with(profile(EMAIL, MOBILE), "amount", json!("1000000.05")),
    );
    assert_eq!(reply.assert_status(200)["profile"]["amount"], "1000000.05");
    let got = client.call("profile/get", &key());
    assert_eq!(got.assert_status(200)["profile"]["amount"], "1000000.05");
}
