//! Contract §14's link lifecycle: a quiz's `redirect_url`, where a client's browser goes
//! after submitting. Nothing here follows a redirect: only the `Location` header is read,
//! and no connection goes anywhere but the server on 127.0.0.1.

use serde_json::{Value, json};

use crate::Scenario;
use crate::client_pages::post_json;
use crate::support::{Backend, Env, Reply, profile, with};

pub const SCENARIOS: &[Scenario] = &[
    (
        "a_redirect_url_is_shown_and_a_browser_that_submits_is_sent_there_with_the_code",
        redirect_after_submission,
    ),
    (
        "a_redirect_url_that_is_not_https_is_refused_and_nothing_is_created",
        redirect_url_is_checked,
    ),
];

const EMAIL: &str = "ada@example.com";
const MOBILE: &str = "4165550123";
const FORM: (&str, &str) = ("Content-Type", "application/x-www-form-urlencoded");
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
