//! merchant/settings/get and update.

use serde_json::json;

use crate::Scenario;
use crate::dashboard::{admin_of, audit_trail, csrf_of, page, post_form, signed_in};
use crate::support::{Backend, Env};

pub const SCENARIOS: &[Scenario] = &[
    (
        "merchant_settings_default_to_five_days_and_can_be_changed",
        defaults_and_update,
    ),
    (
        "merchant_settings_refuse_days_outside_one_to_thirty",
        refuse_out_of_range,
    ),
    (
        "verification_settings_default_to_18_the_contracts_policy_and_no_auto_decision_and_change_alone",
        verification_settings,
    ),
    (
        "settings_changed_through_the_api_or_the_dashboard_are_in_the_audit_trail",
        settings_audited,
    ),
];

fn settings_audited(backend: Backend) {
    let env = Env::start(backend);
    env.client()
        .call(
            "merchant/settings/update",
            &json!({"minimum_age": 21, "auto_decision": true}),
        )
        .assert_status(200);
    let admin = admin_of(&env.server, &env.merchant.id, "boss@example.com");
    let cookie = signed_in(&env, "boss@example.com", admin);
    let csrf = csrf_of(&page(&env, "/dashboard/settings", &cookie));
    let saved = post_form(
        &env,
        "/dashboard/settings",
        &cookie,
        &format!("csrf_token={csrf}&quiz_expiry_days=9&default_language=fr"),
    );
    assert_eq!(saved.status, 303, "{}", saved.text());

    let trail = audit_trail(&env);
    let changed: Vec<(&str, &str, &str)> = trail
        .iter()
        .filter(|e| e["action"] == "settings_changed")
        .map(|e| {
            let field = |k: &str| e[k].as_str().unwrap_or_default();
            (field("actor"), field("subject"), field("address"))
        })
        .collect();
    let key = format!("api_key:{}", env.merchant.api_key);
    assert_eq!(
        changed,
        [
            (key.as_str(), "minimum_age,auto_decision", "127.0.0.1"),
            (
                "boss@example.com",
                "quiz_expiry_days,default_language",
                "127.0.0.1"
            ),
        ],
        "{trail:?}"
    );
}

fn defaults_and_update(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    let got = client.call("merchant/settings/get", &json!({}));
    assert_eq!(got.assert_status(200)["quiz_expiry_days"], 5);
    let updated = client.call("merchant/settings/update", &json!({"quiz_expiry_days": 30}));
    assert_eq!(updated.assert_status(200)["quiz_expiry_days"], 30);
    let got = client.call("merchant/settings/get", &json!({}));
    assert_eq!(got.assert_status(200)["quiz_expiry_days"], 30);
    let other = env.server.client(&env.server.create_merchant("Other"));
    let theirs = other.call("merchant/settings/get", &json!({}));
    assert_eq!(
        theirs.assert_status(200)["quiz_expiry_days"],
        5,
        "settings are per merchant"
    );
}

fn refuse_out_of_range(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    for days in [json!(0), json!(31), json!("abc"), json!(2.5)] {
        client
            .call(
                "merchant/settings/update",
                &json!({"quiz_expiry_days": days}),
            )
            .assert_error(400, &["QUIZ_EXPIRY_DAYS_INVALID"]);
    }
    client
        .call("merchant/settings/update", &json!({}))
        .assert_error(400, &["QUIZ_EXPIRY_DAYS_REQUIRED"]);
    let got = client.call("merchant/settings/get", &json!({}));
    assert_eq!(got.assert_status(200)["quiz_expiry_days"], 5, "unchanged");
}

fn verification_settings(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    let got = client.call("merchant/settings/get", &json!({}));
    let got = got.assert_status(200);
    assert_eq!(got["minimum_age"], 18);
    assert_eq!(got["auto_decision"], 0);
    let policy = got["policy"].as_object().expect("every reason");
    assert_eq!(policy.len(), 37, "every failure reason: {policy:?}");
    for reason in ["document_expired", "minimum_age_not_met", "ssn_invalid"] {
        assert_eq!(policy[reason], "decline", "{reason}");
    }
    assert_eq!(policy["name_mismatch"], "review");
    assert_eq!(
        policy["poa_pdf_modified"], "review",
        "every poa_* reason to review"
    );
    assert_eq!(got["proof_of_address_max_age_days"], 90);
    assert!(!policy.contains_key("no_ssn"), "only failures are decided");

    // Each setting changes alone; what is not sent is kept.
    let updated = client.call(
        "merchant/settings/update",
        &json!({"minimum_age": 21, "policy": {"name_mismatch": "decline", "ssn_invalid": "review"}}),
    );
    let updated = updated.assert_status(200);
    assert_eq!(updated["minimum_age"], 21);
    assert_eq!(updated["quiz_expiry_days"], 5, "kept");
    assert_eq!(updated["policy"]["name_mismatch"], "decline");
    assert_eq!(updated["policy"]["ssn_invalid"], "review");
    assert_eq!(
        updated["policy"]["document_expired"], "decline",
        "default kept"
    );
    client
        .call("merchant/settings/update", &json!({"auto_decision": 1}))
        .assert_status(200);
    let got = client.call("merchant/settings/get", &json!({}));
    let got = got.assert_status(200);
    assert_eq!(
        (got["minimum_age"].clone(), got["auto_decision"].clone()),
        (json!(21), json!(1))
    );
    assert_eq!(got["policy"]["name_mismatch"], "decline", "stored");

    // Bad values are refused together, and nothing changes.
    client
        .call(
            "merchant/settings/update",
            &json!({"minimum_age": 0, "policy": {"no_ssn": "decline"}, "auto_decision": 2,
                    "proof_of_address_max_age_days": 366}),
        )
        .assert_error(
            400,
            &[
                "MINIMUM_AGE_INVALID",
                "POLICY_INVALID",
                "AUTO_DECISION_INVALID",
                "PROOF_OF_ADDRESS_MAX_AGE_DAYS_INVALID",
            ],
        );
    for policy in [
        json!({"name_mismatch": "approve"}),
        json!({"nothing": "review"}),
        json!(["name_mismatch"]),
    ] {
        client
            .call("merchant/settings/update", &json!({"policy": policy}))
            .assert_error(400, &["POLICY_INVALID"]);
    }
    // An empty policy is the default again.
    let reset = client.call("merchant/settings/update", &json!({"policy": {}}));
    assert_eq!(
        reset.assert_status(200)["policy"]["name_mismatch"],
        "review"
    );
    let other = env.server.client(&env.server.create_merchant("Other"));
    let theirs = other.call("merchant/settings/get", &json!({}));
    assert_eq!(theirs.assert_status(200)["minimum_age"], 18, "per merchant");
}
