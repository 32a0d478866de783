//! template/create, update, get and read.

use serde_json::{Value, json};

use crate::Scenario;
use crate::support::{Backend, Env};

pub const SCENARIOS: &[Scenario] = &[
    (
        "template_create_fills_missing_members_with_zero",
        create_fills_missing_members,
    ),
    (
        "template_lists_refuse_unknown_members_bad_values_and_asking_nothing",
        lists_are_checked,
    ),
    (
        "template_update_keeps_missing_members_and_may_rename",
        update_keeps_missing_members,
    ),
    (
        "template_get_and_read_find_only_the_merchants_templates",
        get_and_read_are_per_merchant,
    ),
];

pub const FEATURES: [&str; 22] = [
    "driver_licence_upload",
    "passport_upload",
    "other_id_upload",
    "selfie_upload",
    "bank_statement_upload",
    "receipt_upload",
    "utility_bill_upload",
    "void_check_upload",
    "address_submit",
    "mobile_phone_submit",
    "email_address_submit",
    "date_of_birth_submit",
    "ssn_submit",
    "canadian_bank_validation",
    "usa_canadian_bank_validation",
    "agreement_sign",
    "google_login",
    "facebook_login",
    "device_finger_print",
    "custom_application",
    "canadian_bank_statement",
    "utility_statement",
];

/// Creates a template and returns its id.
pub fn create_template(env: &Env, name: &str, list: Value) -> String {
    let reply = env.client().call(
        "template/create",
        &json!({"template_name": name, "list": list}),
    );
    reply.assert_status(201)["template_id"]
        .as_str()
        .expect("template_id")
        .to_owned()
}

fn create_fills_missing_members(backend: Backend) {
    let env = Env::start(backend);
    let reply = env.client().call(
        "template/create",
        &json!({
            "template_name": "Standard KYC", "list": {"passport_upload": 1, "selfie_upload": 2}
        }),
    );
    let out = reply.assert_status(201);
    let keys: Vec<&str> = out
        .as_object()
        .expect("object")
        .keys()
        .skip(4)
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "template_id",
            "template_name",
            "list",
            "created_at",
            "updated_at"
        ]
    );
    assert_eq!(out["template_name"], "Standard KYC");
    let list = out["list"].as_object().expect("list object");
    assert_eq!(
        list.keys().map(String::as_str).collect::<Vec<_>>(),
        FEATURES
    );
    assert_eq!(list["passport_upload"], 1);
    assert_eq!(list["selfie_upload"], 2);
    assert_eq!(list.values().filter(|v| **v == 0).count(), 20);
    assert!(
        out["template_id"]
            .as_str()
            .is_some_and(|id| !id.is_empty() && id.len() <= 32)
    );
}

fn lists_are_checked(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let create = |list: Value| {
        c.call(
            "template/create",
            &json!({"template_name": "T", "list": list}),
        )
    };
    create(json!({"passport_upload": 0})).assert_error(400, &["FEATURE_REQUIRED"]);
    create(json!({})).assert_error(400, &["FEATURE_REQUIRED"]);
    create(json!({"passport_upload": 3})).assert_error(400, &["LIST_INVALID"]);
    create(json!({"passport_upload": -1})).assert_error(400, &["LIST_INVALID"]);
    create(json!({"passport_upload": "1"})).assert_error(400, &["LIST_INVALID"]);
    create(json!({"passport": 1})).assert_error(400, &["LIST_INVALID"]);
    create(json!([1, 2])).assert_error(400, &["LIST_INVALID"]);
    c.call("template/create", &json!({}))
        .assert_error(400, &["TEMPLATE_NAME_REQUIRED", "LIST_REQUIRED"]);
    c.call(
        "template/create",
        &json!({"template_name": "x".repeat(101), "list": {"ssn_submit": 1}}),
    )
    .assert_error(400, &["TEMPLATE_NAME_INVALID"]);
    // A NUL (which PostgreSQL cannot store: it was a 500 there), another control
    // character, a bidirectional control.
    for name in ["a\u{0}b", "a\u{1e}b", "Basic\u{202e}cipsaB"] {
        c.call(
            "template/create",
            &json!({"template_name": name, "list": {"ssn_submit": 1}}),
        )
        .assert_error(400, &["TEMPLATE_NAME_INVALID"]);
    }
    let read = c.call("template/read", &json!({"offset": 0, "limit": 10}));
    assert_eq!(read.assert_status(200)["total_count"], 0, "nothing stored");
}

fn update_keeps_missing_members(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let id = create_template(&env, "KYC", json!({"passport_upload": 1, "ssn_submit": 2}));
    let reply = c.call(
        "template/update",
        &json!({"template_id": id, "list": {"ssn_submit": 0, "selfie_upload": 1}}),
    );
    let out = reply.assert_status(200);
    assert_eq!(out["template_name"], "KYC", "name kept when not given");
    assert_eq!(out["list"]["passport_upload"], 1, "kept");
    assert_eq!(out["list"]["ssn_submit"], 0);
    assert_eq!(out["list"]["selfie_upload"], 1);
    let renamed = c.call(
        "template/update",
        &json!({"template_id": id, "template_name": "KYC v2", "list": {}}),
    );
    assert_eq!(renamed.assert_status(200)["template_name"], "KYC v2");
    let got = c.call("template/get", &json!({"template_id": id}));
    let out = got.assert_status(200);
    assert_eq!(out["template_name"], "KYC v2");
    assert_eq!(out["list"]["selfie_upload"], 1);
    c.call(
        "template/update",
        &json!({"template_id": id, "list": {"passport_upload": 0, "selfie_upload": 0}}),
    )
    .assert_error(400, &["FEATURE_REQUIRED"]);
    c.call("template/update", &json!({"list": {"ssn_submit": 1}}))
        .assert_error(400, &["TEMPLATE_ID_REQUIRED"]);
    c.call(
        "template/update",
        &json!({"template_id": "01NOSUCHTEMPLATE", "list": {"ssn_submit": 1}}),
    )
    .assert_error(400, &["TEMPLATE_NOT_FOUND"]);
}

fn get_and_read_are_per_merchant(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let ids: Vec<String> = (0..3)
        .map(|i| create_template(&env, &format!("T{i}"), json!({"ssn_submit": 1})))
        .collect();
    let read = c.call("template/read", &json!({"offset": 0, "limit": 2}));
    let out = read.assert_status(200);
    assert_eq!(out["total_count"], 3);
    let names: Vec<&str> = out["templates"]
        .as_array()
        .expect("array")
        .iter()
        .map(|t| t["template_name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, ["T2", "T1"], "newest first");
    c.call("template/read", &json!({"offset": 0}))
        .assert_error(400, &["LIMIT_REQUIRED"]);
    c.call("template/get", &json!({}))
        .assert_error(400, &["TEMPLATE_ID_REQUIRED"]);
    c.call("template/get", &json!({"template_id": 12345}))
        .assert_error(400, &["TEMPLATE_NOT_FOUND"]);
    c.call("template/get", &json!({"template_id": "../etc"}))
        .assert_error(400, &["TEMPLATE_ID_INVALID"]);

    let other = env.server.client(&env.server.create_merchant("Other"));
    other
        .call("template/get", &json!({"template_id": ids[0]}))
        .assert_error(400, &["TEMPLATE_NOT_FOUND"]);
    other
        .call(
            "template/update",
            &json!({"template_id": ids[0], "template_name": "Mine", "list": {}}),
        )
        .assert_error(400, &["TEMPLATE_NOT_FOUND"]);
    let theirs = other.call("template/read", &json!({"offset": 0, "limit": 50}));
    assert_eq!(theirs.assert_status(200)["total_count"], 0);
    let mine = c.call("template/get", &json!({"template_id": ids[0]}));
    assert_eq!(mine.assert_status(200)["template_name"], "T0", "untouched");
}
