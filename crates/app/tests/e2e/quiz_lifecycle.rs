//! Contract §14's link lifecycle: a quiz's `redirect_url`, where a client's browser goes
//! after submitting, and quiz/extend, which gives a quiz more time. Nothing here follows a
//! redirect: only the `Location` header is read, and no connection goes anywhere but the
//! server (and the webhook receiver) on 127.0.0.1.

use std::time::Duration;

use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::Scenario;
use crate::client_pages::post_json;
use crate::support::{Backend, Env, Receiver, Reply, profile, with};
use crate::webhooks::{ALLOW_PRIVATE, deliveries, register};

pub const SCENARIOS: &[Scenario] = &[
    (
        "a_redirect_url_is_shown_and_a_browser_that_submits_is_sent_there_with_the_code",
        redirect_after_submission,
    ),
    (
        "a_redirect_url_that_is_not_https_is_refused_and_nothing_is_created",
        redirect_url_is_checked,
    ),
    (
        "quiz_extend_opens_an_expired_quiz_again_and_answers_as_quiz_get",
        extend_reopens,
    ),
    (
        "quiz_extend_refuses_a_submitted_quiz_and_bad_days_and_changes_nothing",
        extend_refusals,
    ),
    (
        "quiz_extend_finds_no_deleted_unknown_or_other_merchants_quiz",
        extend_scope,
    ),
    (
        "a_webhook_receiver_gets_quiz_extended",
        extend_reaches_webhooks,
    ),
];

const EMAIL: &str = "ada@example.com";
const MOBILE: &str = "4165550123";
const FORM: (&str, &str) = ("Content-Type", "application/x-www-form-urlencoded");
const JSON: (&str, &str) = ("Accept", "application/json");
/// Never connected to: the tests only read where the server would send a browser.
const SHOP: &str = "https://shop.example/kyc/done?order=7#top";

/// A quiz asking for the date of birth alone, with `extra` fields in the request;
/// returns the create answer.
fn create(env: &Env, extra: &[(&str, Value)]) -> Value {
    let mut body = with(
        profile(EMAIL, MOBILE),
        "template",
        json!({"list": {"date_of_birth_submit": 1}}),
    );
    for (key, value) in extra {
        body = with(body, key, value.clone());
    }
    env.client()
        .call("quiz/create", &body)
        .assert_status(201)
        .clone()
}

fn token_of(created: &Value) -> String {
    let long = created["long_url"].as_str().expect("long_url");
    long.rsplit('/').next().expect("token").to_owned()
}

fn code_of(created: &Value) -> String {
    let tiny = created["tiny_url"].as_str().expect("tiny_url");
    tiny.rsplit('/').next().expect("code").to_owned()
}

fn get(env: &Env, url: &Value) -> Reply {
    env.client().call("quiz/get", &json!({"url": url}))
}

fn extend(env: &Env, url: &Value, days: Value) -> Reply {
    env.client().call(
        "quiz/extend",
        &json!({"url": url, "quiz_expiry_days": days}),
    )
}

fn at(quiz: &Value, field: &str) -> OffsetDateTime {
    OffsetDateTime::parse(quiz[field].as_str().expect("a timestamp"), &Rfc3339).expect("RFC 3339")
}

/// The activities of Ada's log, newest first.
fn activities(env: &Env) -> Vec<Value> {
    let reply = env.client().call(
        "event/read",
        &json!({"email_address": EMAIL, "mobile_number": MOBILE, "limit": 50}),
    );
    reply.assert_status(200)["events"]
        .as_array()
        .expect("events")
        .clone()
}

fn count(events: &[Value], activity: &str) -> usize {
    events.iter().filter(|e| e["activity"] == activity).count()
}

/// Does the quiz's one step as a person would: the form, posted by the browser.
fn fill_in_by_form(env: &Env, token: &str) {
    let posted = env.client().send(
        "POST",
        &format!("/quiz/{token}/fields"),
        &[FORM],
        b"date_of_birth=1990-12-10",
    );
    assert_eq!(posted.status, 303, "{}", posted.text());
}

fn redirect_after_submission(backend: Backend) {
    let env = Env::start(backend);
    let created = create(&env, &[("redirect_url", json!(SHOP))]);
    assert_eq!(created["redirect_url"], SHOP);
    let got = get(&env, &created["tiny_url"]);
    assert_eq!(got.assert_status(200)["quiz"]["redirect_url"], SHOP);
    let read = env
        .client()
        .call("quiz/read", &json!({"offset": 0, "limit": 10}));
    assert_eq!(read.assert_status(200)["quiz"][0]["redirect_url"], SHOP);

    // The page lets its forms go on to the merchant's site, and nowhere else.
    let token = token_of(&created);
    let page = env
        .client()
        .send("GET", &format!("/quiz/{token}"), &[], b"");
    assert_eq!(page.status, 200);
    let policies: Vec<&str> = page
        .headers
        .iter()
        .filter(|(name, _)| name.eq_ignore_ascii_case("Content-Security-Policy"))
        .map(|(_, value)| value.as_str())
        .collect();
    assert_eq!(policies.len(), 1, "one policy: {policies:?}");
    assert!(
        policies[0].contains("form-action 'self' https://shop.example;"),
        "{policies:?}"
    );

    fill_in_by_form(&env, &token);
    let done = env
        .client()
        .send("POST", &format!("/quiz/{token}/submit"), &[FORM], b"");
    assert_eq!(done.status, 303, "{}", done.text());
    let code = code_of(&created);
    assert_eq!(
        done.header("Location"),
        Some(format!("https://shop.example/kyc/done?order=7&quiz={code}#top").as_str()),
        "the short code joins the query, before the fragment"
    );
    // Submitted once; the page thanks the client as before.
    assert_eq!(count(&activities(&env), "quiz_submitted"), 1);
    let page = env
        .client()
        .send("GET", &format!("/quiz/{token}"), &[], b"");
    assert!(page.text().contains("Thank you"));

    // A script gets the usual answer and where a browser would have gone.
    let other = create(&env, &[("redirect_url", json!("https://shop.example"))]);
    let token = token_of(&other);
    post_json(
        &env,
        &format!("/quiz/{token}/fields"),
        json!({"date_of_birth": "1990-12-10"}),
    )
    .assert_status(200);
    let done = post_json(&env, &format!("/quiz/{token}/submit"), json!({}));
    let body = done.assert_status(200);
    assert_eq!(body["status"], "submitted");
    assert_eq!(
        body["redirect_url"],
        format!("https://shop.example?quiz={}", code_of(&other))
    );

    // Without one, nothing changes: null in the answers, back to the page after submitting.
    let plain = create(&env, &[]);
    assert_eq!(plain["redirect_url"], Value::Null);
    assert_eq!(
        get(&env, &plain["long_url"]).assert_status(200)["quiz"]["redirect_url"],
        Value::Null
    );
    let token = token_of(&plain);
    let page = env
        .client()
        .send("GET", &format!("/quiz/{token}"), &[], b"");
    assert!(
        page.header("Content-Security-Policy")
            .is_some_and(|p| p.contains("form-action 'self';")),
        "{:?}",
        page.header("Content-Security-Policy")
    );
    fill_in_by_form(&env, &token);
    let done = env
        .client()
        .send("POST", &format!("/quiz/{token}/submit"), &[FORM], b"");
    assert_eq!(done.status, 303);
    assert_eq!(
        done.header("Location"),
        Some(format!("/quiz/{token}").as_str())
    );
    let done = post_json(&env, &format!("/quiz/{token}/submit"), json!({}));
    done.assert_error(409, &["QUIZ_SUBMITTED"]);
}

fn redirect_url_is_checked(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let body = |redirect: Value| {
        with(
            with(
                profile(EMAIL, MOBILE),
                "template",
                json!({"list": {"ssn_submit": 1}}),
            ),
            "redirect_url",
            redirect,
        )
    };
    for bad in [
        json!("http://shop.example/done"),
        json!("javascript:alert(document.cookie)"),
        json!("data:text/html,<script>alert(1)</script>"),
        json!("//shop.example/done"),
        json!("/quiz/elsewhere"),
        json!("garbage"),
        json!("https://user:secret@shop.example/"),
        json!("https://shop.example/a b"),
        json!("https://shop.example/\r\nSet-Cookie: a=b"),
        json!(format!("https://shop.example/{}", "a".repeat(2048))),
        json!(42),
        json!(["https://shop.example"]),
    ] {
        c.call("quiz/create", &body(bad.clone()))
            .assert_error(400, &["REDIRECT_URL_INVALID"]);
    }
    // Every problem of the request at once.
    c.call(
        "quiz/create",
        &json!({"template": {"list": {"ssn_submit": 1}}, "redirect_url": "ftp://x",
            "email_address": EMAIL, "first_name": "Ada", "last_name": "Lovelace"}),
    )
    .assert_error(400, &["MOBILE_NUMBER_REQUIRED", "REDIRECT_URL_INVALID"]);
    let read = c.call("quiz/read", &json!({"offset": 0, "limit": 10}));
    assert_eq!(read.assert_status(200)["total_count"], 0, "no quiz stored");
    c.call(
        "profile/get",
        &json!({"email_address": EMAIL, "mobile_number": MOBILE}),
    )
    .assert_error(400, &["PROFILE_NOT_FOUND"]);
    // Null and the empty string mean none.
    for none in [Value::Null, json!("")] {
        let out = c.call("quiz/create", &body(none));
        assert_eq!(out.assert_status(201)["redirect_url"], Value::Null);
    }
}

fn extend_reopens(backend: Backend) {
    let env = Env::start(backend);
    let created = create(&env, &[("quiz_expiry_days", json!(2))]);
    let (long, tiny) = (created["long_url"].clone(), created["tiny_url"].clone());
    let token = token_of(&created);
    env.client()
        .call("quiz/expire", &json!({"url": tiny}))
        .assert_status(200);
    let before = get(&env, &tiny).assert_status(200)["quiz"].clone();
    assert_eq!(before["expired"], 1);
    let page = env
        .client()
        .send("GET", &format!("/quiz/{token}"), &[], b"");
    assert_eq!(page.status, 410);

    let extended = extend(&env, &long, json!(10));
    let answer = extended.assert_status(200).clone();
    let quiz = &answer["quiz"];
    assert_eq!(quiz["expired"], 0);
    assert_eq!(quiz["quiz_expiry_days"], 10);
    let moved = at(quiz, "expires_at") - at(&before, "expires_at");
    // Ten days from the extension, which came after the two-day quiz was sent.
    assert!(
        moved >= time::Duration::days(8)
            && moved < time::Duration::days(8) + time::Duration::hours(1),
        "{} -> {}",
        before["expires_at"],
        quiz["expires_at"]
    );
    assert_eq!(
        quiz["created_at"], before["created_at"],
        "the rest unchanged"
    );
    assert_eq!(quiz["template"], before["template"]);
    // Exactly as quiz/get answers it.
    let got = get(&env, &tiny);
    assert_eq!(got.assert_status(200)["quiz"], *quiz);

    // The link works again, for the page and for the client's posts.
    let page = env
        .client()
        .send("GET", &format!("/quiz/{token}"), &[], b"");
    assert_eq!(page.status, 200);
    post_json(
        &env,
        &format!("/quiz/{token}/fields"),
        json!({"date_of_birth": "1990-12-10"}),
    )
    .assert_status(200);

    // The early end was undone: the merchant can end it again, and give it time again,
    // through its short address, fewer days than it has left.
    env.client()
        .call("quiz/expire", &json!({"url": tiny}))
        .assert_status(200);
    let shorter = extend(&env, &tiny, json!(1));
    let shorter = &shorter.assert_status(200)["quiz"];
    assert_eq!(
        (
            shorter["expired"].clone(),
            shorter["quiz_expiry_days"].clone()
        ),
        (json!(0), json!(1))
    );
    assert!(at(shorter, "expires_at") < at(quiz, "expires_at"));

    let events = activities(&env);
    assert_eq!(count(&events, "quiz_extended"), 2);
    let last = &events[0];
    assert_eq!(last["activity"], "quiz_extended");
    assert_eq!(
        last["url"], tiny,
        "the short address, as for other quiz events"
    );
    assert_eq!(last["template_used"], "Custom");
    assert_eq!(last["details"], "Quiz extended, valid for 1 days");
    post_json(&env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);
}

fn extend_refusals(backend: Backend) {
    let env = Env::start(backend);
    let created = create(&env, &[]);
    let tiny = created["tiny_url"].clone();
    let token = token_of(&created);
    let before = get(&env, &tiny).assert_status(200)["quiz"].clone();
    let c = env.client();
    c.call("quiz/extend", &json!({"url": tiny}))
        .assert_error(400, &["QUIZ_EXPIRY_DAYS_REQUIRED"]);
    c.call(
        "quiz/extend",
        &json!({"url": tiny, "quiz_expiry_days": null}),
    )
    .assert_error(400, &["QUIZ_EXPIRY_DAYS_REQUIRED"]);
    for bad in [
        json!(0),
        json!(31),
        json!(-1),
        json!(2.5),
        json!("5"),
        json!("abc"),
        json!(true),
        json!(1_000_000_000_000_i64),
    ] {
        extend(&env, &tiny, bad).assert_error(400, &["QUIZ_EXPIRY_DAYS_INVALID"]);
    }
    c.call("quiz/extend", &json!({"quiz_expiry_days": 3}))
        .assert_error(400, &["URL_REQUIRED"]);
    c.call("quiz/extend", &json!({}))
        .assert_error(400, &["URL_REQUIRED", "QUIZ_EXPIRY_DAYS_REQUIRED"]);
    extend(&env, &json!("https://idv.example/elsewhere/x"), json!(3))
        .assert_error(400, &["URL_INVALID"]);
    assert_eq!(
        get(&env, &tiny).assert_status(200)["quiz"],
        before,
        "nothing changed"
    );

    // The client completes it: it stays closed.
    post_json(
        &env,
        &format!("/quiz/{token}/fields"),
        json!({"date_of_birth": "1990-12-10"}),
    )
    .assert_status(200);
    post_json(&env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);
    extend(&env, &tiny, json!(30)).assert_error(409, &["QUIZ_SUBMITTED"]);
    assert_eq!(get(&env, &tiny).assert_status(200)["quiz"], before);
    assert_eq!(count(&activities(&env), "quiz_extended"), 0);

    // A client holding the link is no merchant: the operation needs a signed request.
    let unsigned = c.send(
        "POST",
        "/api/v1/quiz/extend",
        &[("Content-Type", "application/json")],
        json!({"url": tiny, "quiz_expiry_days": 30})
            .to_string()
            .as_bytes(),
    );
    unsigned.assert_error(401, &["API_KEY_REQUIRED"]);
    // And no quiz page takes it.
    let page = c.send(
        "POST",
        &format!("/quiz/{token}/extend"),
        &[JSON, FORM],
        b"quiz_expiry_days=30",
    );
    assert!(matches!(page.status, 404 | 405), "{}", page.status);
}

fn extend_scope(backend: Backend) {
    let env = Env::start(backend);
    let mine = create(&env, &[]);
    let other = env.server.client(&env.server.create_merchant("Other"));
    let body = |url: &Value| json!({"url": url, "quiz_expiry_days": 7});
    let unknown = other.call(
        "quiz/extend",
        &body(&json!(format!("{}/q/AAAAAAAAAA", env.server.base_url))),
    );
    unknown.assert_error(400, &["QUIZ_NOT_FOUND"]);
    let before = get(&env, &mine["tiny_url"]).assert_status(200)["quiz"].clone();
    for url in [&mine["tiny_url"], &mine["long_url"]] {
        let theirs = other.call("quiz/extend", &body(url));
        theirs.assert_error(400, &["QUIZ_NOT_FOUND"]);
        assert_eq!(
            theirs.body["errors"], unknown.body["errors"],
            "another merchant's quiz answers as a missing one"
        );
    }
    assert_eq!(
        get(&env, &mine["tiny_url"]).assert_status(200)["quiz"],
        before,
        "untouched"
    );

    env.client()
        .call("quiz/expire", &json!({"url": mine["tiny_url"]}))
        .assert_status(200);
    env.client()
        .call("quiz/delete", &json!({"url": mine["tiny_url"]}))
        .assert_status(200);
    for url in [&mine["tiny_url"], &mine["long_url"]] {
        env.client()
            .call("quiz/extend", &body(url))
            .assert_error(400, &["QUIZ_NOT_FOUND"]);
    }
    let page = env
        .client()
        .send("GET", &format!("/quiz/{}", token_of(&mine)), &[], b"");
    assert_eq!(page.status, 404, "a deleted quiz does not open again");
    assert_eq!(count(&activities(&env), "quiz_extended"), 0);
}

fn extend_reaches_webhooks(backend: Backend) {
    let env = Env::start_with(backend, &[ALLOW_PRIVATE]);
    let receiver = Receiver::start();
    // A filter naming the new activity is accepted, and holds back everything else.
    let (id, secret) = register(&env, &receiver.url(), Some(&["quiz_extended"]));
    let created = create(&env, &[]);
    extend(&env, &created["tiny_url"], json!(12)).assert_status(200);
    // Deliveries are owed when the event is written: the filter shows at once.
    let owed = deliveries(&env, &id);
    assert_eq!(owed.len(), 1, "{owed:?}");
    assert_eq!(owed[0]["type"], "quiz_extended");
    let received = receiver.wait_until(Duration::from_secs(20), |r| !r.is_empty());
    assert_eq!(received.len(), 1, "{received:?}");
    let delivery = &received[0];
    assert!(delivery.verifies_with(&secret));
    assert_eq!(delivery.kind(), "quiz_extended");
    let data = &delivery.json()["data"];
    assert_eq!(data["activity"], "quiz_extended");
    assert_eq!(data["url"], created["tiny_url"]);
    assert_eq!(data["quiz_url"], created["long_url"]);
    assert_eq!(data["email_address"], EMAIL);
}
