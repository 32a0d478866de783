//! Verification of submitted quizzes (contract §13), over HTTP: every submission is
//! checked in the background, the outcome decided by the merchant's policy, reported
//! through `verification/*`, the log and webhooks, and never across merchants.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::Scenario;
use crate::client_pages::post_json;
use crate::support::database::TestDatabase;
use crate::support::{Backend, Client, Env, Server, profile, with};

pub const SCENARIOS: &[Scenario] = &[
    (
        "a_submitted_quiz_is_verified_with_every_check_and_an_impossible_ssn_is_declined",
        impossible_ssn,
    ),
    (
        "a_fifteen_year_old_is_declined_and_a_repeated_ssn_goes_to_review_within_one_merchant_only",
        age_and_duplicates,
    ),
    (
        "the_merchants_policy_and_auto_decision_decide_and_a_rerun_verifies_again",
        policy_and_auto_decision,
    ),
    (
        "a_verification_queued_before_a_sigkill_completes_after_restart",
        survives_sigkill,
    ),
    (
        "the_dashboard_shows_the_latest_verification_failed_checks_first_and_verifies_again",
        dashboard,
    ),
    (
        "an_admin_sets_the_verification_policy_in_the_dashboard_and_a_reviewer_cannot",
        dashboard_policy,
    ),
];

/// The checks every verification lists, in order.
pub const CHECKS: [&str; 20] = [
    "ssn_format",
    "minimum_age",
    "duplicate_identity",
    "duplicate_device",
    "document_quality",
    "barcode",
    "mrz",
    "document_expiry",
    "document_dates",
    "name_match",
    "date_of_birth_match",
    "document_number_match",
    "address_match",
    "selfie_face",
    "document_portrait",
    "face_match",
    "proof_of_address",
    "watchlist",
    "duplicate_face",
    "photo_reuse",
];

/// How long a test waits for a verification it queued. A job claimed by a server that was
/// killed runs again once its 60 s claim lapses (at once on SQLite, where the restarted
/// server frees the dead one's claims); an analysis, in the idle class, waits while the
/// suite's other tests keep both cores busy generating their photos.
const WAIT: Duration = Duration::from_secs(180);

/// A quiz asking for an SSN and a date of birth, sent to `email`/`mobile` by `client`;
/// returns its long address.
pub fn quiz_for(client: &Client, email: &str, mobile: &str) -> String {
    let body = with(
        profile(email, mobile),
        "template",
        json!({"list": {"ssn_submit": 1, "date_of_birth_submit": 1}}),
    );
    let out = client.call("quiz/create", &body);
    let out = out.assert_status(201);
    out["long_url"].as_str().expect("long url").to_owned()
}

/// The client answers the quiz at `url` and submits it.
pub fn answer(env: &Env, url: &str, ssn: &str, date_of_birth: &str) {
    let token = url.rsplit('/').next().expect("token");
    post_json(
        env,
        &format!("/quiz/{token}/fields"),
        json!({"ssn": ssn, "date_of_birth": date_of_birth}),
    )
    .assert_status(200);
    post_json(env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);
}

/// The quiz's verification once it is no longer pending.
pub fn completed(client: &Client, url: &str) -> Value {
    let deadline = Instant::now() + WAIT;
    loop {
        let got = client.call("verification/get", &json!({"url": url}));
        let verification = got.assert_status(200)["verification"].clone();
        if verification["status"] != "pending" {
            return verification;
        }
        assert!(Instant::now() < deadline, "still pending: {verification}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The check of this name in a verification.
pub fn check<'a>(verification: &'a Value, name: &str) -> &'a Value {
    verification["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("{name} listed in {verification}"))
}

/// The birthday of someone `years` old today, as `YYYY-MM-DD`.
fn born_years_ago(years: i32) -> String {
    let today = time::OffsetDateTime::now_utc().date();
    // 29 February has no twin in most years: the day before is as old.
    let born = today
        .replace_year(today.year() - years)
        .or_else(|_| {
            today
                .previous_day()
                .unwrap_or(today)
                .replace_year(today.year() - years)
        })
        .expect("a date");
    format!(
        "{:04}-{:02}-{:02}",
        born.year(),
        u8::from(born.month()),
        born.day()
    )
}

fn impossible_ssn(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    let url = quiz_for(&client, "ada@example.com", "4165550123");
    // Before submission there is no verification.
    client
        .call("verification/get", &json!({"url": url}))
        .assert_error(400, &["VERIFICATION_NOT_FOUND"]);
    answer(&env, &url, "666123456", "1990-04-01");
    let verification = completed(&client, &url);
    assert_eq!(verification["status"], "declined", "{verification}");
    let names: Vec<&str> = verification["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .map(|c| c["name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, CHECKS, "every check, in order");
    let ssn = check(&verification, "ssn_format");
    assert_eq!(
        (ssn["status"].clone(), ssn["reasons"].clone()),
        (json!("failed"), json!(["ssn_invalid"]))
    );
    assert_eq!(check(&verification, "minimum_age")["status"], "passed");
    // No selfie nor ID to match.
    assert_eq!(
        check(&verification, "face_match")["reasons"],
        json!(["no_document"])
    );
    assert_eq!(verification["quiz_url"], url);
    assert!(verification["completed_at"].is_string());
    let text = verification.to_string();
    assert!(
        !text.contains("666123456") && !text.contains("1990-04-01"),
        "no personal value in a verification: {text}"
    );

    // The same through the profile, and in the log with the outcome as its status.
    let pair = json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    let latest = client.call("verification/get", &pair);
    assert_eq!(
        latest.assert_status(200)["verification"]["verification_id"],
        verification["verification_id"]
    );
    let events = client.call("event/read", &pair);
    let events = events.assert_status(200)["events"].clone();
    let done = events
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["activity"] == "verification_completed")
        .unwrap_or_else(|| panic!("verification_completed in {events}"));
    assert_eq!(done["status"], "declined");
    assert!(!events.to_string().contains("666123456"));

    // Another merchant sees none of it.
    let other = env.server.client(&env.server.create_merchant("Other"));
    other
        .call("verification/get", &json!({"url": url}))
        .assert_error(400, &["QUIZ_NOT_FOUND"]);
    other
        .call("verification/rerun", &json!({"url": url}))
        .assert_error(400, &["QUIZ_NOT_FOUND"]);
    other
        .call("verification/read", &pair)
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
}

fn age_and_duplicates(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    // Fifteen today is not eighteen.
    let young = quiz_for(&client, "kid@example.com", "4165550101");
    answer(&env, &young, "123456701", &born_years_ago(15));
    let verification = completed(&client, &young);
    assert_eq!(verification["status"], "declined");
    let age = check(&verification, "minimum_age");
    assert_eq!(age["reasons"], json!(["minimum_age_not_met"]));
    assert_eq!(age["details"]["minimum_age"], 18);

    // The first holder of an SSN passes; a second client typing it goes to review.
    let first = quiz_for(&client, "first@example.com", "4165550102");
    answer(&env, &first, "123456702", "1990-04-01");
    let verification = completed(&client, &first);
    assert_eq!(verification["status"], "passed", "{verification}");
    assert_eq!(
        check(&verification, "duplicate_identity")["status"],
        "passed"
    );
    let second = quiz_for(&client, "second@example.com", "4165550103");
    answer(&env, &second, "123456702", "1985-07-12");
    let verification = completed(&client, &second);
    assert_eq!(verification["status"], "review", "{verification}");
    let duplicate = check(&verification, "duplicate_identity");
    assert_eq!(duplicate["reasons"], json!(["ssn_used_by_another_profile"]));
    assert_eq!(duplicate["details"]["ssn_other_profiles"], 1);

    // Another merchant's client with the same SSN is never compared with these.
    let other = env.server.client(&env.server.create_merchant("Other"));
    let theirs = quiz_for(&other, "first@example.com", "4165550102");
    answer(&env, &theirs, "123456702", "1990-04-01");
    let verification = completed(&other, &theirs);
    assert_eq!(verification["status"], "passed", "{verification}");
    assert_eq!(
        check(&verification, "duplicate_identity")["details"]["ssn_other_profiles"],
        0
    );
}

fn policy_and_auto_decision(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    client
        .call(
            "merchant/settings/update",
            &json!({"auto_decision": 1, "policy": {"ssn_used_by_another_profile": "decline"}}),
        )
        .assert_status(200);
    let first = quiz_for(&client, "first@example.com", "4165550102");
    answer(&env, &first, "123456702", "1990-04-01");
    assert_eq!(completed(&client, &first)["status"], "passed");
    let pair = |email: &str, mobile: &str| json!({"email_address": email, "mobile_number": mobile});
    let approved = client.call("profile/get", &pair("first@example.com", "4165550102"));
    assert_eq!(
        approved.assert_status(200)["profile"]["status"],
        "Approved",
        "passed approves"
    );

    let second = quiz_for(&client, "second@example.com", "4165550103");
    answer(&env, &second, "123456702", "1985-07-12");
    let verification = completed(&client, &second);
    assert_eq!(verification["status"], "declined", "the policy declines it");
    let declined = client.call("profile/get", &pair("second@example.com", "4165550103"));
    assert_eq!(declined.assert_status(200)["profile"]["status"], "Declined");
    let events = client.call("event/read", &pair("second@example.com", "4165550103"));
    let events = events.assert_status(200)["events"].to_string();
    assert!(
        events.contains("Profile status changed from Pending to Declined by verification"),
        "logged like any status change: {events}"
    );

    // A rerun is queued at once and completes again; both are listed, newest first.
    let rerun = client.call("verification/rerun", &json!({"url": second}));
    let rerun = rerun.assert_status(202)["verification"].clone();
    assert_eq!(rerun["status"], "pending");
    assert!(rerun["completed_at"].is_null());
    let deadline = Instant::now() + WAIT;
    let listed = loop {
        let read = client.call(
            "verification/read",
            &pair("second@example.com", "4165550103"),
        );
        let read = read.assert_status(200).clone();
        if read["verifications"][0]["status"] != "pending" {
            break read;
        }
        assert!(
            Instant::now() < deadline,
            "the rerun never completed: {read}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(listed["total_count"], 2);
    assert_eq!(
        listed["verifications"][0]["verification_id"],
        rerun["verification_id"]
    );
    assert_eq!(listed["verifications"][0]["status"], "declined");
    // A quiz never submitted has nothing to rerun.
    let unsent = quiz_for(&client, "third@example.com", "4165550104");
    client
        .call("verification/rerun", &json!({"url": unsent}))
        .assert_error(400, &["VERIFICATION_NOT_FOUND"]);
}

fn survives_sigkill(backend: Backend) {
    let mut env = Env::start(backend);
    let urls: Vec<String> = (0..4)
        .map(|i| {
            let url = quiz_for(
                &env.client(),
                &format!("c{i}@example.com"),
                &format!("416555010{i}"),
            );
            answer(&env, &url, &format!("12345670{i}"), "1990-04-01");
            url
        })
        .collect();
    // Killed at once: some verifications not yet claimed, one perhaps mid-run.
    env.server.kill();
    env.server.restart();
    for url in &urls {
        assert_eq!(completed(&env.client(), url)["status"], "passed");
    }
}

/// Two instances on one PostgreSQL never run one verification twice: each submitted
/// quiz has exactly one `verification_completed` event.
pub fn two_instances_verify_each_quiz_once(backend: Backend) {
    let db = TestDatabase::create(backend);
    let shared = db.share();
    let first = Server::start_with(db, &[]);
    let second = Server::start_with(shared, &[]);
    let merchant = first.create_merchant("Acme");
    let (one, two) = (first.client(&merchant), second.client(&merchant));
    let env = Env {
        server: first,
        merchant,
    };
    let pairs: Vec<(String, String)> = (0..8)
        .map(|i| (format!("c{i}@example.com"), format!("416555020{i}")))
        .collect();
    let urls: Vec<String> = pairs
        .iter()
        .enumerate()
        .map(|(i, (email, mobile))| {
            let url = quiz_for(&one, email, mobile);
            answer(&env, &url, &format!("12345680{i}"), "1990-04-01");
            url
        })
        .collect();
    for url in &urls {
        completed(&two, url);
    }
    for (email, mobile) in &pairs {
        let events = two.call(
            "event/read",
            &json!({"email_address": email, "mobile_number": mobile, "limit": 50}),
        );
        let done = events.assert_status(200)["events"]
            .as_array()
            .expect("events")
            .iter()
            .filter(|e| e["activity"] == "verification_completed")
            .count();
        assert_eq!(done, 1, "{email}: verified once");
    }
}

fn dashboard(backend: Backend) {
    use crate::dashboard::{csrf_of, first_profile_link, page, post_form, reviewer, signed_in};
    let env = Env::start(backend);
    let client = env.client();
    let url = quiz_for(&client, "ada@example.com", "4165550123");
    answer(&env, &url, "666123456", "1990-04-01");
    completed(&client, &url);
    let password = reviewer(&env, "rev@example.com");
    let cookie = signed_in(&env, "rev@example.com", password);
    let profile = first_profile_link(&page(&env, "/dashboard/profiles", &cookie));
    let shown = page(&env, &profile, &cookie);
    assert_eq!(shown.status, 200);
    let text = shown.text();
    let section = &text[text
        .find("id=\"verification\"")
        .expect("a verification section")..];
    assert!(section.contains("Declined"), "{section}");
    let failed = section.find("ssn_invalid").expect("the failed check");
    assert!(
        section.contains("The SSN cannot have been issued (<code>ssn_invalid</code>)"),
        "its reason in words, with its code: {section}"
    );
    let passed = section.find("Old enough").expect("a passed check");
    assert!(failed < passed, "failed checks first");
    assert!(!text.contains("666123456"), "never the SSN in clear");

    // Verify again: a new verification, queued, then completed.
    let action = "/dashboard/quizzes/";
    let at = section.find(action).expect("a verify-again form") + action.len();
    let quiz_id = section[at..].split('/').next().expect("quiz id").to_owned();
    let csrf = csrf_of(&shown);
    let verify = format!("/dashboard/quizzes/{quiz_id}/verify");
    let again = post_form(&env, &verify, &cookie, &format!("csrf_token={csrf}"));
    assert_eq!(again.status, 303, "{}", again.text());
    let pair = json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    let deadline = Instant::now() + WAIT;
    loop {
        let read = client.call("verification/read", &pair);
        let read = read.assert_status(200).clone();
        if read["total_count"] == 2 && read["verifications"][0]["status"] != "pending" {
            break;
        }
        assert!(Instant::now() < deadline, "never verified again: {read}");
        std::thread::sleep(Duration::from_millis(100));
    }

    // Another merchant's reviewer cannot verify this quiz again: a 404 page.
    let other = env.server.create_merchant("Other");
    let theirs = crate::dashboard::reviewer_of(&env.server, &other.id, "zed@example.com");
    let their_cookie = signed_in(&env, "zed@example.com", theirs);
    let their_csrf = csrf_of(&page(&env, "/dashboard/profiles", &their_cookie));
    let refused = post_form(
        &env,
        &verify,
        &their_cookie,
        &format!("csrf_token={their_csrf}"),
    );
    assert_eq!(refused.status, 404);
    let read = client.call("verification/read", &pair);
    assert_eq!(read.assert_status(200)["total_count"], 2, "nothing queued");
}

fn dashboard_policy(backend: Backend) {
    use crate::dashboard::{admin_of, csrf_of, page, post_form, reviewer, signed_in};
    let env = Env::start(backend);
    // The settings alone, without the envelope's fields, which differ on every answer.
    let settings = || {
        let got = env.client().call("merchant/settings/get", &json!({}));
        let got = got.assert_status(200);
        json!({
            "quiz_expiry_days": got["quiz_expiry_days"],
            "minimum_age": got["minimum_age"],
            "policy": got["policy"],
            "auto_decision": got["auto_decision"],
        })
    };
    let before = settings();
    let form =
        "minimum_age=21&auto_decision=1&policy.name_mismatch=decline&policy.ssn_invalid=decline";

    // A reviewer sees the form's page but may not post it.
    let password = reviewer(&env, "rev@example.com");
    let cookie = signed_in(&env, "rev@example.com", password);
    let shown = page(&env, "/dashboard/settings", &cookie);
    assert!(
        shown.text().contains("name=\"policy.name_mismatch\""),
        "{}",
        shown.text()
    );
    let csrf = csrf_of(&shown);
    let refused = post_form(
        &env,
        "/dashboard/settings/verification",
        &cookie,
        &format!("csrf_token={csrf}&{form}"),
    );
    assert_eq!(refused.status, 403);
    assert_eq!(settings(), before, "nothing changed");

    let password = admin_of(&env.server, &env.merchant.id, "boss@example.com");
    let admin = signed_in(&env, "boss@example.com", password);
    let csrf = csrf_of(&page(&env, "/dashboard/settings", &admin));
    let bad = post_form(
        &env,
        "/dashboard/settings/verification",
        &admin,
        &format!("csrf_token={csrf}&minimum_age=0&policy.name_mismatch=decline"),
    );
    assert_eq!(bad.status, 400);
    let bad = post_form(
        &env,
        "/dashboard/settings/verification",
        &admin,
        &format!("csrf_token={csrf}&minimum_age=18&policy.name_mismatch=approve"),
    );
    assert_eq!(bad.status, 400);
    assert_eq!(settings(), before, "nothing changed");
    let saved = post_form(
        &env,
        "/dashboard/settings/verification",
        &admin,
        &format!("csrf_token={csrf}&{form}"),
    );
    assert_eq!(saved.status, 303, "{}", saved.text());
    let after = settings();
    assert_eq!(after["minimum_age"], 21);
    assert_eq!(after["auto_decision"], 1);
    assert_eq!(after["policy"]["name_mismatch"], "decline");
    assert_eq!(after["policy"]["ssn_invalid"], "decline");
    assert_eq!(after["policy"]["image_blurry"], "review");
    assert_eq!(after["quiz_expiry_days"], before["quiz_expiry_days"]);
    // The page shows what is now in force.
    let shown = page(&env, "/dashboard/settings", &admin).text();
    assert!(shown.contains("value=\"21\""), "{shown}");
    assert!(
        shown.contains("name=\"auto_decision\" type=\"checkbox\" value=\"1\" checked"),
        "{shown}"
    );
}
