//! quiz/create, get, read, expire and delete.

use std::thread;

use serde_json::{Value, json};

use crate::Scenario;
use crate::support::{Backend, Env, profile, with};
use crate::templates::create_template;

pub const SCENARIOS: &[Scenario] = &[
    (
        "quiz_create_with_a_stored_template_answers_its_id_and_no_list",
        create_with_stored_template,
    ),
    (
        "quiz_create_with_a_list_answers_the_list_and_no_template_id",
        create_with_list,
    ),
    (
        "quiz_create_refuses_no_template_an_unknown_one_or_an_empty_list",
        create_refuses_bad_templates,
    ),
    (
        "quiz_expiry_days_outside_one_to_thirty_fall_back_to_the_default",
        expiry_days_fall_back,
    ),
    (
        "quiz_create_updates_the_known_client_or_creates_a_new_one",
        create_upserts_the_profile,
    ),
    (
        "quiz_get_finds_a_quiz_by_either_address",
        get_by_either_address,
    ),
    (
        "quiz_read_lists_quizzes_newest_first_under_the_key_quiz",
        read_lists_quizzes,
    ),
    ("quiz_expire_ends_a_quiz_once", expire_ends_a_quiz_once),
    (
        "quiz_delete_makes_the_quiz_not_found_everywhere",
        delete_makes_not_found,
    ),
    (
        "quiz_url_is_required_and_must_be_a_quiz_address",
        url_is_checked,
    ),
    (
        "another_merchants_template_and_quiz_are_unreachable",
        other_merchants_unreachable,
    ),
    (
        "a_quiz_keeps_its_template_when_the_template_changes",
        snapshot_survives_template_update,
    ),
    (
        "ten_concurrent_quiz_creates_for_a_new_client_leave_one_profile",
        concurrent_creates_one_profile,
    ),
    (
        "quiz_events_name_the_template_and_the_short_address",
        quiz_events,
    ),
];

const EMAIL: &str = "ada@example.com";
const MOBILE: &str = "4165550123";

fn quiz_body(template: Value) -> Value {
    with(profile(EMAIL, MOBILE), "template", template)
}

fn custom() -> Value {
    json!({"list": {"selfie_upload": 1, "address_submit": 2}})
}

/// Creates a quiz from a temporary template; returns the create answer.
fn create_quiz(env: &Env, body: &Value) -> Value {
    env.client()
        .call("quiz/create", body)
        .assert_status(201)
        .clone()
}

fn keys(v: &Value) -> Vec<String> {
    v.as_object().expect("object").keys().cloned().collect()
}

fn create_with_stored_template(backend: Backend) {
    let env = Env::start(backend);
    let id = create_template(&env, "KYC", json!({"passport_upload": 1}));
    let out = create_quiz(
        &env,
        &quiz_body(json!({"template_id": id, "list": {"selfie_upload": 1}})),
    );
    assert_eq!(
        keys(&out)[4..],
        [
            "email_address",
            "mobile_number",
            "tiny_url",
            "long_url",
            "quiz_expiry_days",
            "expires_at",
            "created_at",
            "template_name",
            "template_id",
            "redirect_url"
        ]
    );
    assert_eq!(out["template_id"], id.as_str());
    assert_eq!(out["template_name"], "KYC");
    assert_eq!(out["email_address"], EMAIL);
    let base = &env.server.base_url;
    assert!(
        out["long_url"].as_str().is_some_and(
            |u| u.starts_with(&format!("{base}/quiz/")) && u.len() > base.len() + 6 + 40
        ),
        "{out}"
    );
    assert!(out["tiny_url"].as_str().is_some_and(|u| u.starts_with(&format!("{base}/q/")) && u.len() == base.len() + 3 + 10), "{out}");
    // The template's list is the one used, not the request's.
    let got = env
        .client()
        .call("quiz/get", &json!({"url": out["tiny_url"]}));
    let t = &got.assert_status(200)["quiz"]["template"];
    assert_eq!(t["list"]["passport_upload"], 1);
    assert_eq!(t["list"]["selfie_upload"], 0);
    assert_eq!(t["is_custom"], 0);
    assert_eq!(t["template_id"], id.as_str());
}

fn create_with_list(backend: Backend) {
    let env = Env::start(backend);
    let out = create_quiz(&env, &quiz_body(custom()));
    assert_eq!(out.get("template_id"), None);
    assert_eq!(out["template_name"], "Custom");
    assert_eq!(out["list"]["selfie_upload"], 1);
    assert_eq!(out["list"]["address_submit"], 2);
    assert_eq!(out["list"].as_object().map(|l| l.len()), Some(22));
    let named = create_quiz(
        &env,
        &quiz_body(json!({"template_name": "Quick check", "list": {"ssn_submit": 1}})),
    );
    assert_eq!(named["template_name"], "Quick check");
    // An unknown template_id with a list: the list is used.
    let fallback = create_quiz(
        &env,
        &quiz_body(json!({"template_id": "01UNKNOWN", "list": {"ssn_submit": 1}})),
    );
    assert_eq!(fallback["list"]["ssn_submit"], 1);
    let got = env
        .client()
        .call("quiz/get", &json!({"url": out["long_url"]}));
    let t = &got.assert_status(200)["quiz"]["template"];
    assert_eq!(t["is_custom"], 1);
    assert_eq!(t.get("template_id"), None);
}

fn create_refuses_bad_templates(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    c.call("quiz/create", &profile(EMAIL, MOBILE))
        .assert_error(400, &["TEMPLATE_REQUIRED"]);
    c.call("quiz/create", &quiz_body(json!({})))
        .assert_error(400, &["TEMPLATE_REQUIRED"]);
    c.call(
        "quiz/create",
        &quiz_body(json!({"template_id": "01UNKNOWN"})),
    )
    .assert_error(400, &["TEMPLATE_NOT_FOUND"]);
    c.call(
        "quiz/create",
        &quiz_body(json!({"list": {"ssn_submit": 0}})),
    )
    .assert_error(400, &["FEATURE_REQUIRED"]);
    c.call(
        "quiz/create",
        &quiz_body(json!({"list": {"ssn_submit": 5}})),
    )
    .assert_error(400, &["LIST_INVALID"]);
    c.call("quiz/create", &quiz_body(json!("KYC")))
        .assert_error(400, &["TEMPLATE_INVALID"]);
    c.call("quiz/create", &json!({"template": custom()}))
        .assert_error(
            400,
            &[
                "EMAIL_ADDRESS_REQUIRED",
                "MOBILE_NUMBER_REQUIRED",
                "FIRST_NAME_REQUIRED",
                "LAST_NAME_REQUIRED",
            ],
        );
    let read = c.call("quiz/read", &json!({"offset": 0, "limit": 10}));
    assert_eq!(read.assert_status(200)["total_count"], 0, "no quiz stored");
    c.call(
        "profile/get",
        &json!({"email_address": EMAIL, "mobile_number": MOBILE}),
    )
    .assert_error(400, &["PROFILE_NOT_FOUND"]);
}

fn days_between(out: &Value) -> i64 {
    let secs = |field: &str| {
        let t = out[field].as_str().expect("timestamp");
        time::OffsetDateTime::parse(t, &time::format_description::well_known::Rfc3339)
            .expect("RFC 3339")
            .unix_timestamp()
    };
    (secs("expires_at") - secs("created_at")) / 86_400
}

fn expiry_days_fall_back(backend: Backend) {
    let env = Env::start(backend);
    let cases = [
        (json!(1), 1),
        (json!(30), 30),
        (json!(0), 5),
        (json!(31), 5),
        (json!("abc"), 5),
        (Value::Null, 5),
        (json!(2.5), 5),
        (json!(-3), 5),
    ];
    for (sent, used) in cases {
        let out = create_quiz(
            &env,
            &with(quiz_body(custom()), "quiz_expiry_days", sent.clone()),
        );
        assert_eq!(out["quiz_expiry_days"], used, "sent {sent}");
        assert_eq!(days_between(&out), used, "sent {sent}");
    }
    let absent = create_quiz(&env, &quiz_body(custom()));
    assert_eq!(absent["quiz_expiry_days"], 5);
    env.client()
        .call("merchant/settings/update", &json!({"quiz_expiry_days": 9}))
        .assert_status(200);
    let defaulted = create_quiz(
        &env,
        &with(quiz_body(custom()), "quiz_expiry_days", json!(99)),
    );
    assert_eq!(defaulted["quiz_expiry_days"], 9);
    assert_eq!(days_between(&defaulted), 9);
    let explicit = create_quiz(
        &env,
        &with(quiz_body(custom()), "quiz_expiry_days", json!(2)),
    );
    assert_eq!(explicit["quiz_expiry_days"], 2);
}

fn create_upserts_the_profile(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    create_quiz(&env, &with(quiz_body(custom()), "city", json!("Toronto")));
    let got = c.call(
        "profile/get",
        &json!({"email_address": EMAIL, "mobile_number": MOBILE}),
    );
    let p = got.assert_status(200)["profile"].clone();
    assert_eq!(p["city"], "Toronto");
    assert_eq!(p["status"], "Pending");
    let body = with(
        with(quiz_body(custom()), "first_name", json!("Augusta")),
        "email_address",
        json!("ADA@example.com"),
    );
    create_quiz(&env, &body);
    let got = c.call(
        "profile/get",
        &json!({"email_address": EMAIL, "mobile_number": MOBILE}),
    );
    let p = got.assert_status(200)["profile"].clone();
    assert_eq!(
        p["first_name"], "Augusta",
        "updated with the supplied attributes"
    );
    assert_eq!(p["city"], "Toronto", "absent attributes kept");
    let read = c.call("profile/read", &json!({"offset": 0, "limit": 10}));
    assert_eq!(read.assert_status(200)["total_count"], 1);
    // Half of the pair belongs to that client: not the same client, not a new one.
    c.call(
        "quiz/create",
        &with(quiz_body(custom()), "mobile_number", json!("4165550999")),
    )
    .assert_error(400, &["PROFILE_EXIST"]);
}

fn get_by_either_address(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let out = create_quiz(
        &env,
        &with(quiz_body(custom()), "quiz_expiry_days", json!(7)),
    );
    let (long, tiny) = (
        out["long_url"].as_str().expect("long"),
        out["tiny_url"].as_str().expect("tiny"),
    );
    for body in [
        json!({"url": long}),
        json!({"url": tiny}),
        json!({"url": format!("{long}/")}),
        json!({"short_url": tiny}),
    ] {
        let got = c.call("quiz/get", &body);
        let q = &got.assert_status(200)["quiz"];
        assert_eq!(
            keys(q),
            [
                "first_name",
                "last_name",
                "email_address",
                "mobile_number",
                "long_url",
                "tiny_url",
                "quiz_expiry_days",
                "expired",
                "expires_at",
                "created_at",
                "template",
                "redirect_url"
            ]
        );
        assert_eq!(q["long_url"], long);
        assert_eq!(q["tiny_url"], tiny);
        assert_eq!(q["first_name"], "Ada");
        assert_eq!(q["quiz_expiry_days"], 7);
        assert_eq!(q["expired"], 0);
        assert_eq!(
            keys(&q["template"]),
            ["template_name", "is_custom", "created_at", "list"]
        );
    }
}

fn read_lists_quizzes(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let urls: Vec<String> = (0..3)
        .map(|_| {
            create_quiz(&env, &quiz_body(custom()))["tiny_url"]
                .as_str()
                .expect("url")
                .to_owned()
        })
        .collect();
    let read = c.call("quiz/read", &json!({"offset": 0, "limit": 2}));
    let out = read.assert_status(200);
    assert_eq!(
        (out["total_count"].clone(), out["limit"].clone()),
        (json!(3), json!(2))
    );
    let listed: Vec<&str> = out["quiz"]
        .as_array()
        .expect("array")
        .iter()
        .map(|q| q["tiny_url"].as_str().expect("url"))
        .collect();
    assert_eq!(listed, [urls[2].as_str(), urls[1].as_str()]);
    c.call("quiz/read", &json!({"limit": 2}))
        .assert_error(400, &["OFFSET_REQUIRED"]);
}

fn expire_ends_a_quiz_once(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let out = create_quiz(&env, &quiz_body(custom()));
    let reply = c.call("quiz/expire", &json!({"url": out["long_url"]}));
    let expired = reply.assert_status(200);
    assert_eq!(
        keys(expired)[4..],
        ["tiny_url", "long_url", "expired", "expired_at"]
    );
    assert_eq!(expired["expired"], 1);
    assert_eq!(expired["tiny_url"], out["tiny_url"]);
    let got = c.call("quiz/get", &json!({"url": out["tiny_url"]}));
    assert_eq!(got.assert_status(200)["quiz"]["expired"], 1);
    c.call("quiz/expire", &json!({"url": out["tiny_url"]}))
        .assert_error(400, &["QUIZ_EXPIRED"]);
}

fn delete_makes_not_found(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let out = create_quiz(&env, &quiz_body(custom()));
    let reply = c.call("quiz/delete", &json!({"url": out["tiny_url"]}));
    let deleted = reply.assert_status(200);
    assert_eq!(
        keys(deleted)[4..],
        ["tiny_url", "long_url", "deleted", "deleted_at"]
    );
    assert_eq!(deleted["deleted"], 1);
    for op in ["quiz/get", "quiz/expire", "quiz/delete"] {
        for url in [&out["tiny_url"], &out["long_url"]] {
            c.call(op, &json!({"url": url}))
                .assert_error(400, &["QUIZ_NOT_FOUND"]);
        }
    }
    let read = c.call("quiz/read", &json!({"offset": 0, "limit": 10}));
    assert_eq!(read.assert_status(200)["total_count"], 0);
}

fn url_is_checked(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    for op in ["quiz/get", "quiz/expire", "quiz/delete"] {
        c.call(op, &json!({})).assert_error(400, &["URL_REQUIRED"]);
        c.call(op, &json!({"url": "https://example.com/other/abc"}))
            .assert_error(400, &["URL_INVALID"]);
        c.call(
            op,
            &json!({"url": format!("{}/q/0000000000", env.server.base_url)}),
        )
        .assert_error(400, &["QUIZ_NOT_FOUND"]);
    }
}

fn other_merchants_unreachable(backend: Backend) {
    let env = Env::start(backend);
    let other = env.server.client(&env.server.create_merchant("Other"));
    let template = create_template(&env, "Mine", json!({"passport_upload": 1}));
    let out = create_quiz(&env, &quiz_body(custom()));
    for op in ["quiz/get", "quiz/expire", "quiz/delete"] {
        other
            .call(op, &json!({"url": out["tiny_url"]}))
            .assert_error(400, &["QUIZ_NOT_FOUND"]);
        other
            .call(op, &json!({"url": out["long_url"]}))
            .assert_error(400, &["QUIZ_NOT_FOUND"]);
    }
    let theirs = other.call("quiz/read", &json!({"offset": 0, "limit": 50}));
    assert_eq!(theirs.assert_status(200)["total_count"], 0);
    other
        .call("quiz/create", &quiz_body(json!({"template_id": template})))
        .assert_error(400, &["TEMPLATE_NOT_FOUND"]);
    let mine = env
        .client()
        .call("quiz/get", &json!({"url": out["tiny_url"]}));
    assert_eq!(mine.assert_status(200)["quiz"]["expired"], 0, "untouched");
}

fn snapshot_survives_template_update(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let id = create_template(&env, "KYC", json!({"passport_upload": 1}));
    let out = create_quiz(&env, &quiz_body(json!({"template_id": id})));
    c.call(
        "template/update",
        &json!({"template_id": id, "template_name": "KYC v2",
        "list": {"passport_upload": 0, "selfie_upload": 1}}),
    )
    .assert_status(200);
    let got = c.call("quiz/get", &json!({"url": out["tiny_url"]}));
    let t = &got.assert_status(200)["quiz"]["template"];
    assert_eq!(t["template_name"], "KYC");
    assert_eq!(t["list"]["passport_upload"], 1);
    assert_eq!(t["list"]["selfie_upload"], 0);
    let newer = create_quiz(&env, &quiz_body(json!({"template_id": id})));
    assert_eq!(
        newer["template_name"], "KYC v2",
        "new quizzes use the new version"
    );
}

fn concurrent_creates_one_profile(backend: Backend) {
    let env = Env::start(backend);
    let replies: Vec<_> = (0..10)
        .map(|i| {
            let client = env.client();
            let body = with(quiz_body(custom()), "customer_id", json!(format!("c{i}")));
            thread::spawn(move || client.call("quiz/create", &body))
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().expect("thread"))
        .collect();
    for r in &replies {
        r.assert_status(201);
    }
    let c = env.client();
    let profiles = c.call("profile/read", &json!({"offset": 0, "limit": 50}));
    assert_eq!(profiles.assert_status(200)["total_count"], 1);
    let quizzes = c.call("quiz/read", &json!({"offset": 0, "limit": 50}));
    assert_eq!(quizzes.assert_status(200)["total_count"], 10);
    let events = c.call(
        "event/read",
        &json!({"email_address": EMAIL, "mobile_number": MOBILE, "limit": 50}),
    );
    let activities: Vec<&str> = events.assert_status(200)["events"]
        .as_array()
        .expect("array")
        .iter()
        .map(|e| e["activity"].as_str().expect("activity"))
        .collect();
    assert_eq!(
        activities
            .iter()
            .filter(|a| **a == "profile_created")
            .count(),
        1
    );
    assert_eq!(
        activities.iter().filter(|a| **a == "quiz_created").count(),
        10
    );
}

fn quiz_events(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let id = create_template(&env, "KYC", json!({"passport_upload": 1}));
    let out = create_quiz(&env, &quiz_body(json!({"template_id": id})));
    c.call("quiz/expire", &json!({"url": out["tiny_url"]}))
        .assert_status(200);
    c.call("quiz/delete", &json!({"url": out["tiny_url"]}))
        .assert_status(200);
    let events = c.call(
        "event/read",
        &json!({"email_address": EMAIL, "mobile_number": MOBILE}),
    );
    let list = events.assert_status(200)["events"]
        .as_array()
        .expect("array")
        .clone();
    let activities: Vec<&str> = list
        .iter()
        .map(|e| e["activity"].as_str().expect("activity"))
        .collect();
    assert_eq!(
        activities,
        [
            "quiz_deleted",
            "quiz_expired",
            "quiz_created",
            "profile_created"
        ]
    );
    for e in &list[..3] {
        assert_eq!(e["template_used"], "KYC");
        assert_eq!(e["url"], out["tiny_url"]);
        assert_eq!(e["status"], "Pending");
    }
    assert_eq!(list[3]["url"], "");
}
