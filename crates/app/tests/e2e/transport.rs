//! What every request goes through before an operation: method, path, content type,
//! size, JSON; and the envelope every answer carries.

use serde_json::json;

use crate::Scenario;
use crate::support::client::unix_now;
use crate::support::{Backend, Env, sign_v1};

pub const SCENARIOS: &[Scenario] = &[
    (
        "malformed_json_and_non_object_bodies_are_request_body_invalid",
        malformed_bodies,
    ),
    ("a_body_over_64_kib_is_request_too_large", oversize_body),
    (
        "get_on_an_api_path_is_http_method_invalid",
        get_is_method_invalid,
    ),
    ("an_unknown_path_is_a_json_not_found", unknown_path),
    (
        "a_non_json_content_type_is_refused_and_none_is_accepted",
        content_types,
    ),
    (
        "every_answer_carries_the_envelope_and_the_reference_header",
        envelope_everywhere,
    ),
    ("health_and_readiness_answer", health_and_readiness),
];

const PATH: &str = "/api/v1/profile/get";

fn signed_send(env: &Env, body: &[u8], content_type: Option<&str>) -> crate::support::Reply {
    let sig = sign_v1(&env.merchant.api_secret, unix_now(), PATH, body);
    let mut headers = vec![
        ("Api-Key", env.merchant.api_key.as_str()),
        ("Signature", sig.as_str()),
    ];
    if let Some(ct) = content_type {
        headers.push(("Content-Type", ct));
    }
    env.client().send("POST", PATH, &headers, body)
}

fn malformed_bodies(backend: Backend) {
    let env = Env::start(backend);
    for body in [
        &b"{\"email_address\": "[..],
        b"[1,2]",
        b"\"text\"",
        b"",
        b"null",
    ] {
        signed_send(&env, body, Some("application/json"))
            .assert_error(400, &["REQUEST_BODY_INVALID"]);
    }
}

fn oversize_body(backend: Backend) {
    let env = Env::start(backend);
    let big = format!("{{\"note\":\"{}\"}}", "x".repeat(64 * 1024));
    signed_send(&env, big.as_bytes(), Some("application/json"))
        .assert_error(413, &["REQUEST_TOO_LARGE"]);
    let just_fits = format!("{{\"x\":\"{}\"}}", "x".repeat(64 * 1024 - 8));
    assert_eq!(just_fits.len(), 64 * 1024);
    signed_send(&env, just_fits.as_bytes(), None)
        .assert_error(400, &["EMAIL_ADDRESS_REQUIRED", "MOBILE_NUMBER_REQUIRED"]);
}

fn get_is_method_invalid(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    for (method, path) in [("GET", PATH), ("PUT", "/api/v1/profile/create")] {
        let reply = c.send(method, path, &[], b"{}");
        reply.assert_error(405, &["HTTP_METHOD_INVALID"]);
        // RFC 9110: a 405 names the methods the address takes.
        assert_eq!(reply.header("Allow"), Some("POST"), "{method} {path}");
        assert!(reply.content_type.starts_with("application/json"));
        let fields: Vec<&str> = reply
            .body
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            fields.len(),
            5,
            "the envelope's four fields and errors: {}",
            reply.body
        );
        assert_eq!(
            reply.body["errors"],
            json!([{
                "code": "HTTP_METHOD_INVALID",
                "description": "Every API operation is called with POST.",
            }])
        );
    }
}

fn unknown_path(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    c.send("POST", "/api/v1/profile/nothing", &[], b"{}")
        .assert_error(404, &["NOT_FOUND"]);
    c.call("unknown/op", &json!({}))
        .assert_error(404, &["NOT_FOUND"]);
}

fn content_types(backend: Backend) {
    let env = Env::start(backend);
    signed_send(&env, b"{}", Some("text/plain")).assert_error(415, &["CONTENT_TYPE_INVALID"]);
    signed_send(&env, b"{}", Some("application/x-www-form-urlencoded"))
        .assert_error(415, &["CONTENT_TYPE_INVALID"]);
    signed_send(&env, b"{}", None)
        .assert_error(400, &["EMAIL_ADDRESS_REQUIRED", "MOBILE_NUMBER_REQUIRED"]);
    signed_send(&env, b"{}", Some("application/json; charset=utf-8"))
        .assert_error(400, &["EMAIL_ADDRESS_REQUIRED", "MOBILE_NUMBER_REQUIRED"]);
}

fn envelope_everywhere(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let answers = [
        c.call("merchant/settings/get", &json!({})),
        c.call("profile/get", &json!({})),
        c.send("GET", PATH, &[], b""),
        c.send("POST", "/nowhere", &[], b""),
        c.send("POST", PATH, &[], b"{}"),
    ];
    let mut ids = Vec::new();
    for reply in &answers {
        let b = &reply.body;
        let keys: Vec<&str> = b
            .as_object()
            .expect("JSON object")
            .keys()
            .take(4)
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "http_status_code",
                "query_reference_id",
                "response_time",
                "query_at"
            ],
            "{b}"
        );
        assert_eq!(b["http_status_code"], reply.status);
        assert!(b["response_time"].is_number(), "{b}");
        assert!(b["query_at"].as_str().is_some_and(|t| t.ends_with('Z')));
        let id = b["query_reference_id"].as_str().expect("id").to_owned();
        assert_eq!(reply.reference_header.as_deref(), Some(id.as_str()));
        assert!(reply.content_type.starts_with("application/json"));
        ids.push(id);
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), answers.len(), "a fresh id per request");
}

fn health_and_readiness(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    assert_eq!(
        c.send("GET", "/healthz", &[], b"").assert_status(200)["status"],
        "ok"
    );
    assert_eq!(
        c.send("GET", "/readyz", &[], b"").assert_status(200)["status"],
        "ready"
    );
}
