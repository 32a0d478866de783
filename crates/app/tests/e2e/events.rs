//! event/read: the profile's activity log.

use serde_json::{Value, json};

use crate::Scenario;
use crate::support::{Backend, Env, profile, with};

pub const SCENARIOS: &[Scenario] = &[
    (
        "event_read_gives_the_profile_history_newest_first",
        history_newest_first,
    ),
    (
        "event_read_defaults_to_the_first_ten_and_checks_paging",
        default_paging,
    ),
];

const KEY: (&str, &str) = ("grace@example.com", "6475550142");

fn key() -> Value {
    json!({"email_address": KEY.0, "mobile_number": KEY.1})
}

fn activities(v: &Value) -> Vec<String> {
    v["events"]
        .as_array()
        .expect("array")
        .iter()
        .map(|e| e["activity"].as_str().expect("activity").to_owned())
        .collect()
}

fn history_newest_first(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    client
        .call("profile/create", &profile(KEY.0, KEY.1))
        .assert_status(201);
    client
        .call(
            "profile/update",
            &with(profile(KEY.0, KEY.1), "city", json!("Ottawa")),
        )
        .assert_status(200);
    client
        .call(
            "profile/update-status",
            &with(key(), "status", json!("Declined")),
        )
        .assert_status(200);

    let reply = client.call("event/read", &key());
    let out = reply.assert_status(200);
    assert_eq!(
        activities(out),
        [
            "profile_status_changed",
            "profile_updated",
            "profile_created"
        ]
    );
    assert_eq!(out["email_address"], KEY.0);
    assert_eq!(out["total_count"], 3);
    let newest = &out["events"][0];
    let keys: Vec<&str> = newest
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "activity",
            "details",
            "template_used",
            "url",
            "status",
            "created_at"
        ]
    );
    assert_eq!(newest["status"], "Declined", "the status after the event");
    assert_eq!(out["events"][2]["status"], "Pending");
    assert_eq!(newest["template_used"], "");
    assert_eq!(newest["url"], "");
    assert!(
        newest["details"]
            .as_str()
            .is_some_and(|d| d.contains("Declined")),
        "{newest}"
    );
}

fn default_paging(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    client
        .call("profile/create", &profile(KEY.0, KEY.1))
        .assert_status(201);
    for status in ["Approved", "Declined"].iter().cycle().take(11) {
        client
            .call(
                "profile/update-status",
                &with(key(), "status", json!(status)),
            )
            .assert_status(200);
    }
    let reply = client.call("event/read", &key());
    let out = reply.assert_status(200);
    assert_eq!(
        (
            out["offset"].clone(),
            out["limit"].clone(),
            out["total_count"].clone()
        ),
        (json!(0), json!(10), json!(12))
    );
    assert_eq!(activities(out).len(), 10);
    let rest = client.call(
        "event/read",
        &with(with(key(), "offset", json!(10)), "limit", json!(5)),
    );
    assert_eq!(
        activities(rest.assert_status(200)),
        ["profile_status_changed", "profile_created"]
    );
    client
        .call("event/read", &with(key(), "limit", json!(51)))
        .assert_error(400, &["LIMIT_INVALID"]);
    client
        .call("event/read", &with(key(), "offset", json!(-3)))
        .assert_error(400, &["OFFSET_INVALID"]);
}
