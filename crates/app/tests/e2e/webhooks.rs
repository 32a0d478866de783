//! Webhooks (contract §9): a real receiver on a loopback port gets every event, signed as
//! Standard Webhooks says (checked with its reference library), retried on failure, never
//! lost across a SIGKILL, and nothing of another merchant's is reachable.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use serde_json::{Value, json};

use crate::Scenario;
use crate::client_pages::{post_json, upload};
use crate::support::{
    Backend, Env, Received, Receiver, Server, SlowReceiver, TestDatabase, jpeg, profile, with,
};

pub const SCENARIOS: &[Scenario] = &[
    ("webhooks_are_registered_listed_changed_and_deleted", crud),
    ("webhook_fields_are_checked_and_16_is_the_most", validation),
    (
        "private_addresses_and_credentials_are_refused_without_the_flag",
        private_addresses,
    ),
    (
        "another_merchants_webhooks_and_deliveries_are_unreachable",
        other_merchant,
    ),
    (
        "a_whole_quiz_reaches_the_receiver_once_per_event_signed_and_without_personal_values",
        quiz_flow,
    ),
    (
        "a_500_is_retried_about_5_s_later_and_then_succeeds",
        retried_after_500,
    ),
    (
        "deliveries_owed_when_the_server_is_killed_arrive_after_restart",
        survive_sigkill,
    ),
    (
        "a_410_disables_the_endpoint_and_retry_sends_again",
        gone_disables,
    ),
    ("only_the_chosen_activities_are_sent", events_filter),
    (
        "a_rotated_secret_and_the_old_one_both_sign_for_a_day",
        rotation,
    ),
    (
        "a_merchants_slow_endpoint_holds_at_most_4_deliveries_and_never_delays_another",
        slow_merchant_delays_no_other,
    ),
    (
        "special_purpose_addresses_are_refused_even_where_private_ones_are_allowed",
        special_purpose_addresses,
    ),
    (
        "deleting_a_profile_deletes_the_deliveries_of_its_events",
        deleted_profiles_deliveries,
    ),
];

pub const ALLOW_PRIVATE: (&str, &str) = ("IDV_WEBHOOK_ALLOW_PRIVATE", "1");
const WAIT: Duration = Duration::from_secs(20);

fn env_with_receiver(backend: Backend) -> (Env, Receiver) {
    (
        Env::start_with(backend, &[ALLOW_PRIVATE]),
        Receiver::start(),
    )
}

/// Registers `url` for the env's merchant; returns (webhook_id, secret).
pub fn register(env: &Env, url: &str, events: Option<&[&str]>) -> (String, String) {
    let mut body = json!({"url": url});
    if let Some(events) = events {
        body["events"] = json!(events);
    }
    let reply = env.client().call("webhook/create", &body);
    let out = reply.assert_status(201);
    (
        out["webhook_id"].as_str().expect("id").to_owned(),
        out["secret"].as_str().expect("secret").to_owned(),
    )
}

pub fn deliveries(env: &Env, webhook_id: &str) -> Vec<Value> {
    let reply = env.client().call(
        "webhook/delivery/read",
        &json!({"webhook_id": webhook_id, "limit": 50}),
    );
    reply.assert_status(200)["deliveries"]
        .as_array()
        .expect("deliveries")
        .clone()
}

fn webhook(env: &Env, webhook_id: &str) -> Value {
    let reply = env.client().call("webhook/read", &json!({"limit": 50}));
    let list = reply.assert_status(200)["webhooks"].clone();
    list.as_array()
        .expect("webhooks")
        .iter()
        .find(|w| w["webhook_id"] == webhook_id)
        .cloned()
        .expect("the webhook is listed")
}

fn create_profile(env: &Env, n: usize) {
    let body = profile(&format!("p{n}@example.com"), &format!("41655{n:05}"));
    env.client()
        .call("profile/create", &body)
        .assert_status(201);
}

/// Everything `receiver` got once a sentinel, made by `make` after the events under test,
/// has arrived too, the sentinel (whatever `is_sentinel` recognises) left out. A second
/// delivery of an earlier event is due before the sentinel's, so waiting for the
/// sentinel, rather than for a while, is what lets a test say nothing more came.
fn received_through_sentinel(
    receiver: &Receiver,
    make: impl FnOnce(),
    is_sentinel: impl Fn(&Received) -> bool,
) -> Vec<Received> {
    make();
    let received = receiver.wait_until(WAIT, |r| r.iter().any(&is_sentinel));
    assert!(received.iter().any(&is_sentinel), "the sentinel arrived");
    received.into_iter().filter(|r| !is_sentinel(r)).collect()
}

fn distinct_ids(received: &[Received]) -> HashSet<String> {
    received.iter().map(|r| r.id.clone()).collect()
}

fn crud(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let created = c.call(
        "webhook/create",
        &json!({"url": "https://hooks.example.com/idv", "description": "CRM", "events": ["note_created"]}),
    );
    let out = created.assert_status(201).clone();
    let id = out["webhook_id"].as_str().expect("id").to_owned();
    assert_eq!(out["url"], "https://hooks.example.com/idv");
    assert_eq!(out["events"], json!(["note_created"]));
    assert_eq!(
        (out["enabled"].clone(), out["description"].clone()),
        (json!(1), json!("CRM"))
    );
    let secret = out["secret"].as_str().expect("secret");
    let key = secret.strip_prefix("whsec_").expect("whsec_ prefix");
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(key)
        .expect("standard base64");
    assert_eq!(bytes.len(), 32);
    assert!(out["created_at"].as_str().is_some_and(|t| t.ends_with('Z')));

    let listed = c.call("webhook/read", &json!({}));
    let listed = listed.assert_status(200);
    assert_eq!(listed["total_count"], 1);
    let shown = &listed["webhooks"][0];
    assert_eq!(shown["webhook_id"], id.as_str());
    assert!(
        shown.get("secret").is_none(),
        "the secret is shown once: {shown}"
    );
    assert!(!listed.to_string().contains(secret));

    let changed = c.call(
        "webhook/update",
        &json!({"webhook_id": id, "events": [], "description": "", "enabled": 0}),
    );
    let changed = changed.assert_status(200);
    assert_eq!(changed["events"], json!([]));
    assert_eq!(changed["description"], "");
    assert_eq!(changed["enabled"], 0);
    assert_eq!(
        changed["url"], "https://hooks.example.com/idv",
        "absent fields are kept"
    );
    let changed = c.call(
        "webhook/update",
        &json!({"webhook_id": id, "url": "https://other.example.com/in", "enabled": 1}),
    );
    assert_eq!(
        changed.assert_status(200)["url"],
        "https://other.example.com/in"
    );
    assert_eq!(webhook(&env, &id)["enabled"], 1);

    let deleted = c.call("webhook/delete", &json!({"webhook_id": id}));
    let deleted = deleted.assert_status(200);
    assert_eq!(deleted["deleted"], 1);
    assert!(deleted["deleted_at"].is_string());
    c.call("webhook/delete", &json!({"webhook_id": id}))
        .assert_error(400, &["WEBHOOK_NOT_FOUND"]);
    c.call("webhook/update", &json!({"webhook_id": id, "enabled": 1}))
        .assert_error(400, &["WEBHOOK_NOT_FOUND"]);
    assert_eq!(
        c.call("webhook/read", &json!({})).assert_status(200)["total_count"],
        0
    );
}

fn validation(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    c.call("webhook/create", &json!({}))
        .assert_error(400, &["URL_REQUIRED"]);
    c.call(
        "webhook/create",
        &json!({"url": "ftp://example.com/", "events": ["profile_created", "nope"], "description": "x".repeat(256)}),
    )
    .assert_error(400, &["URL_INVALID", "EVENTS_INVALID", "DESCRIPTION_INVALID"]);
    c.call(
        "webhook/create",
        &json!({"url": "https://example.com/", "events": "profile_created"}),
    )
    .assert_error(400, &["EVENTS_INVALID"]);
    c.call("webhook/update", &json!({"enabled": 1}))
        .assert_error(400, &["WEBHOOK_ID_REQUIRED"]);
    c.call("webhook/update", &json!({"webhook_id": "x", "enabled": 2}))
        .assert_error(400, &["ENABLED_INVALID"]);
    c.call("webhook/delivery/retry", &json!({"delivery_id": "nope"}))
        .assert_error(400, &["DELIVERY_NOT_FOUND"]);
    c.call("webhook/delivery/read", &json!({"webhook_id": "nope"}))
        .assert_error(400, &["WEBHOOK_NOT_FOUND"]);
    for n in 0..16 {
        c.call(
            "webhook/create",
            &json!({"url": format!("https://example.com/{n}")}),
        )
        .assert_status(201);
    }
    c.call("webhook/create", &json!({"url": "https://example.com/17"}))
        .assert_error(400, &["WEBHOOK_LIMIT_REACHED"]);
    let listed = c.call("webhook/read", &json!({"offset": 10, "limit": 10}));
    let listed = listed.assert_status(200);
    assert_eq!(listed["total_count"], 16);
    assert_eq!(listed["webhooks"].as_array().map(Vec::len), Some(6));
}

fn private_addresses(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    for url in [
        "https://localhost/hook",
        "https://10.0.0.1/hook",
        "https://[::1]/hook",
        // IPv4-translated (SIIT): it carries 10.0.0.1.
        "https://[::ffff:0:a00:1]/hook",
        "https://127.0.0.1:8443/hook",
        "https://169.254.169.254/latest",
        "https://user:secret@hooks.example.com/",
        "http://hooks.example.com/",
    ] {
        let reply = c.call("webhook/create", &json!({"url": url}));
        reply.assert_error(400, &["URL_INVALID"]);
        assert!(!reply.text().contains("secret@"), "{}", reply.text());
    }
    let (id, _) = register(&env, "https://hooks.example.com/", None);
    c.call(
        "webhook/update",
        &json!({"webhook_id": id, "url": "https://10.0.0.1/"}),
    )
    .assert_error(400, &["URL_INVALID"]);
    // With the flag, a receiver on this machine may be used.
    let open = Env::start_with(backend, &[ALLOW_PRIVATE]);
    register(&open, "http://127.0.0.1:9/hook", None);
    open.client()
        .call("webhook/create", &json!({"url": "http://u:p@127.0.0.1/"}))
        .assert_error(400, &["URL_INVALID"]);
}

fn other_merchant(backend: Backend) {
    let (env, receiver) = env_with_receiver(backend);
    let (id, _) = register(&env, &receiver.url(), None);
    create_profile(&env, 1);
    receiver.wait_until(WAIT, |r| !r.is_empty());
    let delivery = deliveries(&env, &id)[0]["delivery_id"]
        .as_str()
        .expect("delivery id")
        .to_owned();
    let other = env.server.create_merchant("Other");
    let theirs = env.server.client(&other);
    for (operation, body) in [
        ("webhook/update", json!({"webhook_id": id, "enabled": 0})),
        ("webhook/delete", json!({"webhook_id": id})),
        ("webhook/rotate-secret", json!({"webhook_id": id})),
        ("webhook/delivery/read", json!({"webhook_id": id})),
    ] {
        theirs
            .call(operation, &body)
            .assert_error(400, &["WEBHOOK_NOT_FOUND"]);
    }
    theirs
        .call("webhook/delivery/retry", &json!({"delivery_id": delivery}))
        .assert_error(400, &["DELIVERY_NOT_FOUND"]);
    let listed = theirs.call("webhook/read", &json!({}));
    assert_eq!(listed.assert_status(200)["total_count"], 0);
    // The other merchant's events are never owed to this merchant's endpoint: what an
    // event owes is written with it, in its transaction, so the endpoint's delivery log
    // already says so when the call returns (nothing unowed is ever sent).
    let owed_before = deliveries(&env, &id).len();
    theirs
        .call("profile/create", &profile("them@example.com", "4165550999"))
        .assert_status(201);
    assert_eq!(deliveries(&env, &id).len(), owed_before);
    assert!(
        receiver
            .received()
            .iter()
            .all(|r| !r.body.contains("them@example.com"))
    );
    // Nothing was changed by the attempts.
    let mine = webhook(&env, &id);
    assert_eq!(mine["enabled"], 1);
}

fn quiz_flow(backend: Backend) {
    let (env, receiver) = env_with_receiver(backend);
    let (id, secret) = register(&env, &receiver.url(), None);
    let ssn = "536221234";
    let body = with(
        with(
            profile("ada@example.com", "4165550123"),
            "template",
            json!({"list": {
            "passport_upload": 1, "address_submit": 1, "date_of_birth_submit": 1,
            "ssn_submit": 1, "agreement_sign": 1}}),
        ),
        "date_of_birth",
        json!("1980-03-04"),
    );
    let created = env.client().call("quiz/create", &body);
    let long = created.assert_status(201)["long_url"]
        .as_str()
        .expect("long")
        .to_owned();
    let token = long.rsplit('/').next().expect("token").to_owned();
    let page = env
        .client()
        .send("GET", &format!("/quiz/{token}"), &[], b"");
    assert_eq!(page.status, 200);
    post_json(
        &env,
        &format!("/quiz/{token}/fields"),
        json!({"address_line_1": "12 Rideau Lane", "city": "Ottawa", "postal": "K1A 0B1",
            "country": "CA", "date_of_birth": "1990-12-10", "ssn": ssn}),
    )
    .assert_status(200);
    upload(&env, &token, "passport_upload", &[("p.jpg", &jpeg(300))]).assert_status(200);
    post_json(
        &env,
        &format!("/quiz/{token}/agreement"),
        json!({"full_name": "Ada Lovelace", "consent": true}),
    )
    .assert_status(200);
    post_json(&env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);
    let key = json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    let documents = env.client().call("document/read", &key);
    let passport = documents.assert_status(200)["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .find(|d| d["name"] == "passport_upload")
        .expect("the passport")["id"]
        .as_str()
        .expect("document id")
        .to_owned();
    env.client()
        .call(
            "document/update-status",
            &with(
                with(key.clone(), "document_id", json!(passport)),
                "status",
                json!("Approved"),
            ),
        )
        .assert_status(200);
    env.client()
        .call(
            "note/create",
            &with(key.clone(), "note", json!("Looks right")),
        )
        .assert_status(201);

    let expected = [
        "profile_created",
        "quiz_created",
        "quiz_opened",
        "form_fields_submitted",
        "document_uploaded",
        "document_uploaded",
        "quiz_submitted",
        // The submission's verification, run in the background (contract §13).
        "verification_completed",
        "document_status_changed",
        "note_created",
    ];
    receiver.wait_until(WAIT, |r| r.len() >= expected.len());
    let received = received_through_sentinel(
        &receiver,
        || create_profile(&env, 9),
        |r| r.body.contains("p9@example.com"),
    );
    let mut kinds: Vec<String> = received.iter().map(Received::kind).collect();
    kinds.sort();
    let mut wanted: Vec<String> = expected.iter().map(|s| (*s).to_owned()).collect();
    wanted.sort();
    assert_eq!(
        kinds,
        wanted,
        "each event once; deliveries: {:#?}",
        deliveries(&env, &id)
    );
    assert_eq!(distinct_ids(&received).len(), expected.len());
    for r in &received {
        assert!(r.verifies_with(&secret), "signature of {}", r.body);
        assert_eq!(r.content_type, "application/json");
        let payload = r.json();
        assert_eq!(
            payload["data"]["event_id"],
            r.id.as_str(),
            "webhook-id is the event id"
        );
        assert_eq!(payload["data"]["activity"], payload["type"]);
        assert_eq!(payload["data"]["email_address"], "ada@example.com");
        assert_eq!(payload["data"]["mobile_number"], "4165550123");
        assert!(
            payload["timestamp"]
                .as_str()
                .is_some_and(|t| t.ends_with('Z'))
        );
        for personal in [
            ssn,
            "536-22-1234",
            "1990-12-10",
            "1980-03-04",
            "Rideau",
            "Ottawa",
            // The whole postal code: "K1A" alone turns up in a random ULID now and then
            // (an event id ending in ...PK1A failed this test once).
            "K1A 0B1",
            "K1A0B1",
            "Lovelace",
        ] {
            assert!(
                !r.body.contains(personal),
                "{personal} travelled in {}",
                r.body
            );
        }
        let kind = r.kind();
        if kind.starts_with("document_") {
            assert!(payload["data"]["document_id"].is_string(), "{}", r.body);
        }
        if kind.starts_with("quiz_") {
            assert_eq!(payload["data"]["quiz_url"], long.as_str());
            assert!(
                payload["data"]["url"]
                    .as_str()
                    .is_some_and(|u| u.contains("/q/"))
            );
        }
    }
    let changed = received
        .iter()
        .find(|r| r.kind() == "document_status_changed")
        .expect("status change");
    assert_eq!(changed.json()["data"]["document_id"], passport.as_str());
    let log = deliveries(&env, &id);
    assert_eq!(
        log.len(),
        expected.len() + 1,
        "the quiz's events and the sentinel's"
    );
    assert!(
        log.iter().all(|d| d["status"] == "succeeded"
            && d["attempts"] == 1
            && d["last_status_code"] == 200)
    );
}

fn retried_after_500(backend: Backend) {
    let (env, receiver) = env_with_receiver(backend);
    let (id, secret) = register(&env, &receiver.url(), None);
    receiver.answer_next(&[500]);
    create_profile(&env, 1);
    let received = receiver.wait_until(WAIT, |r| r.len() >= 2);
    assert_eq!(received.len(), 2, "{received:?}");
    assert_eq!((received[0].answered, received[1].answered), (500, 200));
    assert_eq!(
        received[0].id, received[1].id,
        "the same webhook-id on every attempt"
    );
    assert_eq!(
        received[0].body, received[1].body,
        "the same body on every attempt"
    );
    assert!(received.iter().all(|r| r.verifies_with(&secret)));
    let gap = received[1].at - received[0].at;
    assert!(
        gap >= Duration::from_millis(3500) && gap <= Duration::from_secs(8),
        "retried after {gap:?}"
    );
    // Recorded once the attempt's answer is saved.
    let mut log = deliveries(&env, &id);
    for _ in 0..40 {
        if log[0]["status"] == "succeeded" {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
        log = deliveries(&env, &id);
    }
    let d = &log[0];
    assert_eq!(
        (d["status"].clone(), d["attempts"].clone()),
        (json!("succeeded"), json!(2))
    );
    assert_eq!(d["last_status_code"], 200);
    assert_eq!(d["next_attempt_at"], Value::Null);
    assert_eq!(d["type"], "profile_created");
    assert!(d["delivered_at"].is_string());
}

fn survive_sigkill(backend: Backend) {
    let (mut env, receiver) = env_with_receiver(backend);
    let (_, secret) = register(&env, &receiver.url(), Some(&["profile_created"]));
    let port = receiver.port;
    receiver.stop();
    // All at once: made one after another on a loaded machine, the first ones' deliveries
    // could fail a second time before the kill, and their next try is minutes away.
    std::thread::scope(|scope| {
        for n in 0..20 {
            let env = &env;
            scope.spawn(move || create_profile(env, n));
        }
    });
    env.server.kill();
    let receiver = Receiver::start_on(port);
    env.server.restart();
    let received = receiver.wait_until(WAIT, |r| distinct_ids(r).len() >= 20);
    let ids = distinct_ids(&received);
    assert_eq!(ids.len(), 20, "every acknowledged profile's event arrives");
    assert!(
        received
            .iter()
            .all(|r| r.kind() == "profile_created" && r.verifies_with(&secret))
    );
    let emails: HashSet<String> = received
        .iter()
        .map(|r| {
            r.json()["data"]["email_address"]
                .as_str()
                .expect("email")
                .to_owned()
        })
        .collect();
    assert_eq!(emails.len(), 20);
    // Duplicates, if any, carry the id of the event they repeat.
    let mut by_id: HashMap<String, String> = HashMap::new();
    for r in &received {
        let previous = by_id.insert(r.id.clone(), r.body.clone());
        assert!(previous.is_none_or(|body| body == r.body));
    }
}

fn gone_disables(backend: Backend) {
    let (env, receiver) = env_with_receiver(backend);
    let (id, _) = register(&env, &receiver.url(), None);
    receiver.answer_next(&[410]);
    create_profile(&env, 1);
    receiver.wait_until(WAIT, |r| !r.is_empty());
    let mut shown = webhook(&env, &id);
    for _ in 0..40 {
        if shown["enabled"] == 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
        shown = webhook(&env, &id);
    }
    assert_eq!(shown["enabled"], 0, "a 410 turns the endpoint off");
    let first = deliveries(&env, &id)[0].clone();
    assert_eq!(
        (first["status"].clone(), first["last_status_code"].clone()),
        (json!("failed"), json!(410))
    );
    assert_eq!(first["next_attempt_at"], Value::Null);
    // While it is off, events are not owed to it: nothing is kept for later. What an
    // event owes is written in its transaction, so the log says so at once, and an
    // endpoint is only ever sent what it is owed.
    create_profile(&env, 2);
    assert_eq!(deliveries(&env, &id).len(), 1);
    assert_eq!(receiver.received().len(), 1);
    // On again: new events go out, and a retry sends the failed one again.
    env.client()
        .call("webhook/update", &json!({"webhook_id": id, "enabled": 1}))
        .assert_status(200);
    let retried = env.client().call(
        "webhook/delivery/retry",
        &json!({"delivery_id": first["delivery_id"]}),
    );
    let retried = retried.assert_status(200);
    assert_eq!(retried["status"], "pending");
    assert!(retried["next_attempt_at"].is_string());
    create_profile(&env, 3);
    let received = receiver.wait_until(WAIT, |r| r.len() >= 3);
    assert_eq!(received.len(), 3, "{received:?}");
    assert!(
        received[1..].iter().any(|r| r.id == received[0].id),
        "the failed delivery, sent again"
    );
    assert_eq!(distinct_ids(&received).len(), 2);
    assert!(received[1..].iter().all(|r| r.answered == 200));
}

fn events_filter(backend: Backend) {
    let (env, receiver) = env_with_receiver(backend);
    let (id, _) = register(&env, &receiver.url(), Some(&["note_created"]));
    create_profile(&env, 1);
    let key = json!({"email_address": "p1@example.com", "mobile_number": "4165500001"});
    env.client()
        .call("note/create", &with(key, "note", json!("checked")))
        .assert_status(201);
    receiver.wait_until(WAIT, |r| !r.is_empty());
    // The sentinel is a note too: the only events this endpoint listens to.
    let sentinel = || {
        create_profile(&env, 2);
        let key = json!({"email_address": "p2@example.com", "mobile_number": "4165500002"});
        env.client()
            .call("note/create", &with(key, "note", json!("sentinel")))
            .assert_status(201);
    };
    let received =
        received_through_sentinel(&receiver, sentinel, |r| r.body.contains("p2@example.com"));
    let kinds: Vec<String> = received.iter().map(Received::kind).collect();
    assert_eq!(kinds, ["note_created"]);
    let log = deliveries(&env, &id);
    assert_eq!(
        log.len(),
        2,
        "the note and the sentinel's note alone were owed"
    );
    assert!(log.iter().all(|d| d["type"] == "note_created"), "{log:?}");
}

fn rotation(backend: Backend) {
    let (env, receiver) = env_with_receiver(backend);
    let (id, old) = register(&env, &receiver.url(), Some(&["profile_created"]));
    let rotated = env
        .client()
        .call("webhook/rotate-secret", &json!({"webhook_id": id}));
    let rotated = rotated.assert_status(200);
    assert_eq!(rotated["webhook_id"], id.as_str());
    let new = rotated["secret"].as_str().expect("secret").to_owned();
    assert!(new.starts_with("whsec_") && new != old);
    create_profile(&env, 1);
    let received = receiver.wait_until(WAIT, |r| !r.is_empty());
    let delivery = &received[0];
    assert_eq!(
        delivery.signature.split(' ').count(),
        2,
        "{}",
        delivery.signature
    );
    assert!(delivery.signature.split(' ').all(|s| s.starts_with("v1,")));
    assert!(delivery.verifies_with(&new), "the new secret verifies");
    assert!(
        delivery.verifies_with(&old),
        "the old secret verifies for a day"
    );
    let stranger = "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    assert!(!delivery.verifies_with(stranger), "signatures can fail");
    assert!(!webhook(&env, &id).to_string().contains(&new));
}

/// PostgreSQL: two instances over one database deliver each event exactly once.
pub fn two_instances_deliver_each_event_once(backend: Backend) {
    let receiver = Receiver::start();
    let db = TestDatabase::create(backend);
    let shared = db.share();
    let first = Server::start_with(db, &[ALLOW_PRIVATE]);
    let second = Server::start_with(shared, &[ALLOW_PRIVATE]);
    let merchant = first.create_merchant("Acme");
    let clients = [first.client(&merchant), second.client(&merchant)];
    clients[0]
        .call("webhook/create", &json!({"url": receiver.url()}))
        .assert_status(201);
    const EVENTS: usize = 40;
    for n in 0..EVENTS {
        let body = profile(&format!("p{n}@example.com"), &format!("41655{n:05}"));
        clients[n % 2]
            .call("profile/create", &body)
            .assert_status(201);
    }
    receiver.wait_until(WAIT, |r| distinct_ids(r).len() >= EVENTS);
    let sentinel = || {
        let body = profile("sentinel@example.com", "4165599999");
        clients[0].call("profile/create", &body).assert_status(201);
    };
    let received = received_through_sentinel(&receiver, sentinel, |r| {
        r.body.contains("sentinel@example.com")
    });
    assert_eq!(distinct_ids(&received).len(), EVENTS);
    assert_eq!(received.len(), EVENTS, "no event was delivered twice");
}

fn slow_merchant_delays_no_other(backend: Backend) {
    let env = Env::start_with(backend, &[ALLOW_PRIVATE]);
    slow_merchant_beside_another(&env.server, &env.server);
}

/// Two instances on one PostgreSQL database together hold at most 4 of one merchant's
/// deliveries in flight.
pub fn slow_merchant_across_instances(backend: Backend) {
    let db = TestDatabase::create(backend);
    let shared = db.share();
    let first = Server::start_with(db, &[ALLOW_PRIVATE]);
    let second = Server::start_with(shared, &[ALLOW_PRIVATE]);
    slow_merchant_beside_another(&first, &second);
}

/// A merchant whose endpoint holds every request 20 s (the sender gives up at 15 s, and
/// tries again later) and is owed 20 deliveries, made through `slow_via`; another
/// merchant's event, made through `fast_via`, reaches its endpoint at once all the same.
fn slow_merchant_beside_another(slow_via: &Server, fast_via: &Server) {
    let slow = SlowReceiver::start(Duration::from_secs(20));
    let merchant = slow_via.create_merchant("Slow");
    let client = slow_via.client(&merchant);
    client
        .call("webhook/create", &json!({"url": slow.url()}))
        .assert_status(201);
    for n in 0..20 {
        let body = profile(&format!("p{n}@example.com"), &format!("41655{n:05}"));
        client.call("profile/create", &body).assert_status(201);
    }
    let deadline = std::time::Instant::now() + WAIT;
    while slow.got() < 4 {
        assert!(
            std::time::Instant::now() < deadline,
            "the slow endpoint got {}",
            slow.got()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let fast = Receiver::start();
    let other = fast_via.create_merchant("Other");
    let client = fast_via.client(&other);
    client
        .call("webhook/create", &json!({"url": fast.url()}))
        .assert_status(201);
    client
        .call("profile/create", &profile("b@example.com", "4165559999"))
        .assert_status(201);
    let got = fast.wait_until(Duration::from_secs(8), |r| !r.is_empty());
    assert_eq!(
        got.len(),
        1,
        "the other merchant's delivery arrived promptly"
    );
    assert_eq!(
        slow.most_held(),
        4,
        "at most 4 of one merchant's deliveries in flight"
    );
}

/// Only registered, never delivered to: nothing here may send traffic past loopback.
fn special_purpose_addresses(backend: Backend) {
    let env = Env::start_with(backend, &[ALLOW_PRIVATE]);
    let c = env.client();
    for url in [
        "https://198.18.0.1/hook",
        "https://198.19.255.254/hook",
        "https://240.0.0.1/hook",
        "https://255.255.255.255/hook",
        "https://192.0.0.8/hook",
        "https://192.0.2.10/hook",
        "https://198.51.100.10/hook",
        "https://203.0.113.10/hook",
        "https://[2001:db8::10]/hook",
        "https://[3fff::10]/hook",
        "https://[2002:c000:20a::1]/hook",
        "https://[2002:a9fe:a9fe::1]/hook",
        "https://[2001:0:4136:e378:8000:63bf:3fff:fdf5]/hook",
        "https://[64:ff9b::c612:1]/hook",
        "https://[::ffff:203.0.113.10]/hook",
        "https://0.0.0.0/hook",
        "https://0.1.2.3/hook",
        "https://100.64.0.1/hook",
        "https://224.0.0.1/hook",
        "https://[ff02::1]/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://168.63.129.16/hook",
    ] {
        c.call("webhook/create", &json!({"url": url}))
            .assert_error(400, &["URL_INVALID"]);
    }
    let listed = c.call("webhook/read", &json!({}));
    assert_eq!(
        listed.assert_status(200)["total_count"],
        0,
        "nothing stored"
    );
    // Nor may a registered endpoint be moved there.
    let receiver = Receiver::start();
    let (id, _) = register(&env, &receiver.url(), None);
    c.call(
        "webhook/update",
        &json!({"webhook_id": id, "url": "https://192.0.2.10/hook"}),
    )
    .assert_error(400, &["URL_INVALID"]);
    let listed = c.call("webhook/read", &json!({}));
    assert_eq!(
        listed.assert_status(200)["webhooks"][0]["url"],
        receiver.url().as_str()
    );
}

/// The deliveries of `webhook_id` once there are `count` of them, succeeded.
fn delivered(env: &Env, webhook_id: &str, receiver: &Receiver, count: usize) -> Vec<Value> {
    receiver.wait_until(WAIT, |r| r.len() >= count);
    let mut log = deliveries(env, webhook_id);
    for _ in 0..100 {
        if log.len() == count && log.iter().all(|d| d["status"] == "succeeded") {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
        log = deliveries(env, webhook_id);
    }
    assert_eq!(log.len(), count, "{log:?}");
    log
}

fn deleted_profiles_deliveries(backend: Backend) {
    let (env, receiver) = env_with_receiver(backend);
    let (id, _) = register(&env, &receiver.url(), Some(&["profile_created"]));
    create_profile(&env, 1);
    let first = delivered(&env, &id, &receiver, 1)[0]["delivery_id"].clone();
    create_profile(&env, 2);
    let both = delivered(&env, &id, &receiver, 2);
    let second = both
        .iter()
        .map(|d| d["delivery_id"].clone())
        .find(|d| *d != first)
        .expect("the second profile's delivery");

    let key = json!({"email_address": "p1@example.com", "mobile_number": "4165500001"});
    env.client().call("profile/delete", &key).assert_status(200);
    let left: Vec<Value> = deliveries(&env, &id)
        .iter()
        .map(|d| d["delivery_id"].clone())
        .collect();
    assert_eq!(
        left,
        [second],
        "the deleted profile's delivery went with it, the other stayed"
    );
}
