//! Api-Key and Signature: every way a request can fail to prove who sent it.

use base64::Engine;
use ring::hmac;
use serde_json::json;

use crate::Scenario;
use crate::support::client::unix_now;
use crate::support::{Backend, Env, sign_v1};

pub const SCENARIOS: &[Scenario] = &[
    (
        "a_missing_or_unknown_api_key_is_refused",
        missing_or_unknown_key,
    ),
    (
        "a_missing_or_wrong_signature_is_refused",
        missing_or_wrong_signature,
    ),
    (
        "a_signature_made_for_another_path_is_refused",
        signature_for_another_path,
    ),
    (
        "a_signature_older_than_300_seconds_is_expired",
        old_signature_is_expired,
    ),
    (
        "a_signature_under_another_merchants_secret_is_refused",
        another_merchants_secret,
    ),
    (
        "a_disabled_key_is_refused_and_a_second_key_works",
        disabled_key,
    ),
    (
        "a_key_in_use_disabled_by_the_cli_is_refused_within_a_second",
        disabled_while_cached,
    ),
    (
        "the_compatibility_scheme_works_only_for_keys_that_enable_it",
        compatibility_scheme,
    ),
    ("merchant_list_shows_every_merchant", merchant_list),
];

const PATH: &str = "/api/v1/merchant/settings/get";

fn missing_or_unknown_key(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let sig = sign_v1(&env.merchant.api_secret, unix_now(), PATH, b"{}");
    c.send("POST", PATH, &[("Signature", &sig)], b"{}")
        .assert_error(401, &["API_KEY_REQUIRED"]);
    c.send(
        "POST",
        PATH,
        &[("Api-Key", "key-doesnotexist"), ("Signature", &sig)],
        b"{}",
    )
    .assert_error(401, &["API_KEY_INVALID"]);
}

fn missing_or_wrong_signature(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let key = env.merchant.api_key.as_str();
    c.send("POST", PATH, &[("Api-Key", key)], b"{}")
        .assert_error(401, &["SIGNATURE_REQUIRED"]);
    let wrong = sign_v1("sec-wrong", unix_now(), PATH, b"{}");
    c.send(
        "POST",
        PATH,
        &[("Api-Key", key), ("Signature", &wrong)],
        b"{}",
    )
    .assert_error(401, &["SIGNATURE_INVALID"]);
    // Signed for one body, sent with another.
    let sig = sign_v1(&env.merchant.api_secret, unix_now(), PATH, b"{}");
    c.send(
        "POST",
        PATH,
        &[("Api-Key", key), ("Signature", &sig)],
        b"{\"x\":1}",
    )
    .assert_error(401, &["SIGNATURE_INVALID"]);
    c.send(
        "POST",
        PATH,
        &[("Api-Key", key), ("Signature", "garbage")],
        b"{}",
    )
    .assert_error(401, &["SIGNATURE_INVALID"]);
    c.send(
        "POST",
        PATH,
        &[("Api-Key", key), ("Signature", &sig)],
        b"{}",
    )
    .assert_status(200);
}

fn signature_for_another_path(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let body = br#"{"email_address":"ada@example.com","mobile_number":"4165550123"}"#;
    let sig = sign_v1(
        &env.merchant.api_secret,
        unix_now(),
        "/api/v1/profile/get",
        body,
    );
    c.send(
        "POST",
        "/api/v1/profile/delete",
        &[("Api-Key", &env.merchant.api_key), ("Signature", &sig)],
        body,
    )
    .assert_error(401, &["SIGNATURE_INVALID"]);
}

fn old_signature_is_expired(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let key = env.merchant.api_key.as_str();
    for t in [unix_now() - 301, unix_now() + 400] {
        let sig = sign_v1(&env.merchant.api_secret, t, PATH, b"{}");
        c.send(
            "POST",
            PATH,
            &[("Api-Key", key), ("Signature", &sig)],
            b"{}",
        )
        .assert_error(401, &["SIGNATURE_EXPIRED"]);
    }
    let recent = sign_v1(&env.merchant.api_secret, unix_now() - 250, PATH, b"{}");
    c.send(
        "POST",
        PATH,
        &[("Api-Key", key), ("Signature", &recent)],
        b"{}",
    )
    .assert_status(200);
}

fn another_merchants_secret(backend: Backend) {
    let env = Env::start(backend);
    let other = env.server.create_merchant("Other");
    let c = env.client();
    let sig = sign_v1(&other.api_secret, unix_now(), PATH, b"{}");
    c.send(
        "POST",
        PATH,
        &[("Api-Key", &env.merchant.api_key), ("Signature", &sig)],
        b"{}",
    )
    .assert_error(401, &["SIGNATURE_INVALID"]);
}

fn disabled_key(backend: Backend) {
    let env = Env::start(backend);
    let second = env.server.create_key(&env.merchant, false);
    assert_eq!(second.id, env.merchant.id);
    assert_ne!(second.api_key, env.merchant.api_key);
    env.server
        .run(&["merchant", "key", "disable", "--key", &env.merchant.api_key]);
    env.client()
        .call("merchant/settings/get", &json!({}))
        .assert_error(401, &["API_KEY_DISABLED"]);
    env.server
        .client(&second)
        .call("merchant/settings/get", &json!({}))
        .assert_status(200);
}

fn disabled_while_cached(backend: Backend) {
    let env = Env::start(backend);
    // In use: the server holds the key in memory now.
    env.client()
        .call("merchant/settings/get", &json!({}))
        .assert_status(200);
    env.server
        .run(&["merchant", "key", "disable", "--key", &env.merchant.api_key]);
    let disabled = std::time::Instant::now();
    loop {
        let reply = env.client().call("merchant/settings/get", &json!({}));
        if reply.status == 401 {
            reply.assert_error(401, &["API_KEY_DISABLED"]);
            break;
        }
        // The contract's bound is 1 s; the margin covers this loop's own requests.
        assert!(
            disabled.elapsed() < std::time::Duration::from_millis(1500),
            "still accepted {:?} after the key was disabled",
            disabled.elapsed()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

pub fn compat_signature(secret: &str, query: &str) -> String {
    let key = hmac::Key::new(hmac::HMAC_SHA256, secret.as_bytes());
    base64::engine::general_purpose::STANDARD.encode(hmac::sign(&key, query.as_bytes()).as_ref())
}

fn compatibility_scheme(backend: Backend) {
    let env = Env::start(backend);
    let compat = env.server.create_key(&env.merchant, true);
    let c = env.client();
    let body = br#"{"email_address":"ada lovelace@example.com","mobile_number":"4165550123","template":{"list":{"passport_upload":1}}}"#;
    let query = "email_address=ada+lovelace%40example.com&mobile_number=4165550123&template%5Blist%5D%5Bpassport_upload%5D=1";
    let path = "/api/v1/profile/get";
    let sig = compat_signature(&compat.api_secret, query);
    let reply = c.send(
        "POST",
        path,
        &[("Api-Key", &compat.api_key), ("Signature", &sig)],
        body,
    );
    reply.assert_error(400, &["EMAIL_ADDRESS_INVALID"]);
    let plain = compat_signature(&env.merchant.api_secret, query);
    c.send(
        "POST",
        path,
        &[("Api-Key", &env.merchant.api_key), ("Signature", &plain)],
        body,
    )
    .assert_error(401, &["SIGNATURE_INVALID"]);
}

fn merchant_list(backend: Backend) {
    let env = Env::start(backend);
    let other = env.server.create_merchant("Other Co");
    let out = env.server.run(&["merchant", "list", "--json"]);
    let list: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON");
    let mut pairs: Vec<(String, String)> = list
        .as_array()
        .expect("array")
        .iter()
        .map(|m| {
            (
                m["merchant_id"].as_str().expect("id").to_owned(),
                m["name"].as_str().expect("name").to_owned(),
            )
        })
        .collect();
    pairs.sort();
    let mut expected = vec![
        (env.merchant.id.clone(), "Acme".to_owned()),
        (other.id, "Other Co".to_owned()),
    ];
    expected.sort();
    assert_eq!(pairs, expected);
    let text = env.server.run(&["merchant", "list"]);
    assert!(
        text.contains("Other Co") && !text.contains("sec-"),
        "no secrets listed: {text}"
    );
}
