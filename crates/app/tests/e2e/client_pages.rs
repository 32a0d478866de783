//! The client's side: the quiz page and its form posts, as a browser or a script sends them.

use serde_json::{Value, json};

use crate::Scenario;
use crate::support::{
    Backend, Env, Part, Reply, Server, TestDatabase, jpeg, multipart, png, profile, with,
};

pub const SCENARIOS: &[Scenario] = &[
    (
        "the_quiz_page_shows_the_steps_with_security_headers",
        page_shows_steps,
    ),
    (
        "the_short_address_redirects_to_the_long_one",
        short_redirects,
    ),
    ("the_first_opening_is_logged_once", first_open_logged_once),
    (
        "form_fields_are_stored_as_submitted_fields_not_over_the_merchants",
        fields_are_stored_apart,
    ),
    (
        "form_fields_failing_validation_are_refused_next_to_the_field",
        fields_are_validated,
    ),
    (
        "an_upload_stores_a_document_with_the_files_described",
        upload_stores_a_document,
    ),
    (
        "a_side_uploaded_again_replaces_the_earlier_one_until_the_quiz_is_submitted",
        a_side_uploaded_again_replaces,
    ),
    (
        "uploads_refuse_disguised_oversize_and_too_many_files",
        uploads_refuse_bad_files,
    ),
    (
        "uploads_refuse_a_step_the_template_does_not_ask_for",
        uploads_refuse_unasked_steps,
    ),
    (
        "agreement_and_fingerprint_record_documents",
        agreement_and_fingerprint,
    ),
    (
        "submit_names_missing_steps_then_completes_once",
        submit_then_thanks,
    ),
    (
        "a_required_provider_step_blocks_submission_and_says_why",
        provider_step_blocks,
    ),
    (
        "an_expired_link_answers_410_and_a_deleted_one_404",
        expired_and_deleted_links,
    ),
    (
        "the_public_routes_are_rate_limited_per_address",
        rate_limited,
    ),
    (
        "quiz_tokens_never_reach_the_logs_in_full",
        tokens_stay_out_of_logs,
    ),
    (
        "oversize_form_posts_are_refused_in_the_envelope",
        oversize_forms,
    ),
    (
        "a_method_a_quiz_address_does_not_take_is_405_naming_the_one_it_does",
        methods_not_allowed,
    ),
];

/// A quiz for Ada built from `list`; returns (token, long_url, tiny_url).
pub fn send_quiz(env: &Env, list: Value) -> (String, String, String) {
    let body = with(
        profile("ada@example.com", "4165550123"),
        "template",
        json!({ "list": list }),
    );
    let reply = env.client().call("quiz/create", &body);
    let out = reply.assert_status(201);
    let long = out["long_url"].as_str().expect("long").to_owned();
    let tiny = out["tiny_url"].as_str().expect("tiny").to_owned();
    let token = long.rsplit('/').next().expect("token").to_owned();
    (token, long, tiny)
}

/// The standard quiz of these tests.
pub fn standard_quiz(env: &Env) -> (String, String, String) {
    send_quiz(
        env,
        json!({"passport_upload": 1, "selfie_upload": 2, "address_submit": 1, "date_of_birth_submit": 2,
        "agreement_sign": 1, "device_finger_print": 2}),
    )
}

const JSON: (&str, &str) = ("Accept", "application/json");
const FORM: (&str, &str) = ("Content-Type", "application/x-www-form-urlencoded");

pub fn post_json(env: &Env, path: &str, body: Value) -> Reply {
    env.client().send(
        "POST",
        path,
        &[JSON, ("Content-Type", "application/json")],
        body.to_string().as_bytes(),
    )
}

/// Posts a multipart upload to the quiz's documents (JSON answer).
fn post_documents(env: &Env, token: &str, parts: &[(&str, Part<'_>)]) -> Reply {
    let (content_type, body) = multipart(parts);
    env.client().send(
        "POST",
        &format!("/quiz/{token}/documents"),
        &[JSON, ("Content-Type", &content_type)],
        &body,
    )
}

/// Uploads files for a step, as a script would (JSON answer).
pub fn upload(env: &Env, token: &str, step: &str, files: &[(&str, &[u8])]) -> Reply {
    let mut parts = vec![("step", Part::Text(step))];
    parts.extend(
        files
            .iter()
            .map(|(name, bytes)| ("file", Part::File { name, bytes })),
    );
    post_documents(env, token, &parts)
}

/// Uploads one photo for `step`, naming its side when given (JSON answer).
pub fn upload_side(env: &Env, token: &str, step: &str, side: Option<&str>, bytes: &[u8]) -> Reply {
    let mut parts = vec![("step", Part::Text(step))];
    if let Some(side) = side {
        parts.push(("side", Part::Text(side)));
    }
    parts.push((
        "file",
        Part::File {
            name: "photo.jpg",
            bytes,
        },
    ));
    post_documents(env, token, &parts)
}

fn events(env: &Env) -> Vec<String> {
    let reply = env.client().call(
        "event/read",
        &json!({"email_address": "ada@example.com", "mobile_number": "4165550123", "limit": 50}),
    );
    reply.assert_status(200)["events"]
        .as_array()
        .expect("array")
        .iter()
        .map(|e| e["activity"].as_str().expect("activity").to_owned())
        .collect()
}

fn page_shows_steps(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = standard_quiz(&env);
    let page = env
        .client()
        .send("GET", &format!("/quiz/{token}"), &[], b"");
    assert_eq!(page.status, 200);
    assert!(
        page.content_type.starts_with("text/html"),
        "{}",
        page.content_type
    );
    assert_eq!(page.header("Referrer-Policy"), Some("no-referrer"));
    assert_eq!(page.header("X-Frame-Options"), Some("DENY"));
    assert_eq!(page.header("X-Content-Type-Options"), Some("nosniff"));
    assert!(
        page.header("Content-Security-Policy").is_some_and(
            |c| c.contains("default-src 'none'") && c.contains("frame-ancestors 'none'")
        )
    );
    let html = page.text();
    for text in [
        "Acme",
        "Passport",
        "Selfie",
        "Agreement",
        "capture=\"user\"",
        "name=\"address_line_1\"",
        "<progress",
        "0 of 6 steps done",
    ] {
        assert!(html.contains(text), "page lacks {text}");
    }
    let state = env
        .client()
        .send("GET", &format!("/quiz/{token}"), &[JSON], b"");
    let out = state.assert_status(200);
    assert_eq!(out["status"], "active");
    assert_eq!(out["merchant_name"], "Acme");
    let steps: Vec<&str> = out["steps"]
        .as_array()
        .expect("array")
        .iter()
        .map(|s| s["step"].as_str().expect("step"))
        .collect();
    assert_eq!(
        steps,
        [
            "passport_upload",
            "selfie_upload",
            "address_submit",
            "date_of_birth_submit",
            "agreement_sign",
            "device_finger_print"
        ]
    );
    assert_eq!(
        out["missing_steps"],
        json!(["passport_upload", "address_submit", "agreement_sign"])
    );
}

fn short_redirects(backend: Backend) {
    let env = Env::start(backend);
    let (_, long, tiny) = standard_quiz(&env);
    let path = tiny.trim_start_matches(&env.server.base_url);
    let reply = env.client().send("GET", path, &[], b"");
    assert_eq!(reply.status, 302);
    assert_eq!(reply.header("Location"), Some(long.as_str()));
    let unknown = env.client().send("GET", "/q/zzzzzzzzzz", &[], b"");
    assert_eq!(unknown.status, 404);
    assert!(unknown.text().contains("not found"));
}

fn methods_not_allowed(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, tiny) = standard_quiz(&env);
    let short = tiny.trim_start_matches(&env.server.base_url).to_owned();
    let quiz = format!("/quiz/{token}");
    let asked = [
        ("POST", quiz.clone(), "GET"),
        ("POST", format!("{quiz}/"), "GET"),
        ("DELETE", short, "GET"),
        ("GET", format!("{quiz}/fields"), "POST"),
        ("GET", format!("{quiz}/documents"), "POST"),
        ("GET", format!("{quiz}/agreement"), "POST"),
        ("GET", format!("{quiz}/fingerprint"), "POST"),
        ("PUT", format!("{quiz}/submit"), "POST"),
    ];
    for (method, path, allowed) in asked {
        let reply = env.client().send(method, &path, &[], b"");
        assert_eq!(reply.status, 405, "{method} {path}");
        assert_eq!(reply.header("Allow"), Some(allowed), "{method} {path}");
        assert_eq!(reply.header("Referrer-Policy"), Some("no-referrer"));
    }
}

fn first_open_logged_once(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = standard_quiz(&env);
    for _ in 0..3 {
        assert_eq!(
            env.client()
                .send("GET", &format!("/quiz/{token}"), &[], b"")
                .status,
            200
        );
    }
    assert_eq!(
        events(&env).iter().filter(|a| *a == "quiz_opened").count(),
        1
    );
}

fn fields_are_stored_apart(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = standard_quiz(&env);
    let form = b"address_line_1=1+Main+St&address_line_2=Apt+2&city=Toronto&state=ON&postal=M5V+2T6&country=CA&date_of_birth=1990-12-10";
    let reply = env
        .client()
        .send("POST", &format!("/quiz/{token}/fields"), &[FORM], form);
    assert_eq!(reply.status, 303);
    assert_eq!(
        reply.header("Location"),
        Some(format!("/quiz/{token}").as_str())
    );
    let got = env.client().call(
        "profile/get",
        &json!({"email_address": "ada@example.com", "mobile_number": "4165550123"}),
    );
    let p = &got.assert_status(200)["profile"];
    let s = &p["customer_submitted_form_fields"];
    assert_eq!(s["address"], "1 Main St, Apt 2, Toronto, ON M5V 2T6, CA");
    assert_eq!(s["date_of_birth"], "1990-12-10");
    assert_eq!(s["ssn"], Value::Null);
    assert!(s["created_at"].is_string());
    assert_eq!(
        p["address_line_1"],
        Value::Null,
        "the merchant's own fields are untouched"
    );
    assert_eq!(p["date_of_birth"], Value::Null);
    // JSON works too, and a later submission adds to the earlier one.
    let reply = post_json(
        &env,
        &format!("/quiz/{token}/fields"),
        json!({"date_of_birth": "1985-01-02"}),
    );
    let answer = reply.assert_status(200);
    assert!(
        !answer.to_string().contains("1985-01-02") && !answer.to_string().contains("Main St"),
        "a link never reads back stored values: {answer}"
    );
    assert!(
        answer["completed_steps"]
            .as_array()
            .is_some_and(|s| s.contains(&json!("date_of_birth_submit"))),
        "{answer}"
    );
    let got = env.client().call(
        "profile/get",
        &json!({"email_address": "ada@example.com", "mobile_number": "4165550123"}),
    );
    let s = &got.assert_status(200)["profile"]["customer_submitted_form_fields"];
    assert_eq!(s["address"], "1 Main St, Apt 2, Toronto, ON M5V 2T6, CA");
    assert_eq!(s["date_of_birth"], "1985-01-02");
    assert!(events(&env).contains(&"form_fields_submitted".to_owned()));
}

fn fields_are_validated(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = standard_quiz(&env);
    let path = format!("/quiz/{token}/fields");
    post_json(&env, &path, json!({"date_of_birth": "2999-01-01"}))
        .assert_error(400, &["DATE_OF_BIRTH_INVALID"]);
    post_json(&env, &path, json!({"address_line_1": "1 Main St", "city": "Toronto", "postal": "M5V!", "country": "CA"}))
        .assert_error(400, &["POSTAL_INVALID"]);
    post_json(&env, &path, json!({"city": "Toronto"})).assert_error(
        400,
        &[
            "ADDRESS_LINE_1_REQUIRED",
            "POSTAL_REQUIRED",
            "COUNTRY_REQUIRED",
        ],
    );
    post_json(&env, &path, json!({"ssn": "123456789"})).assert_error(400, &["SSN_INVALID"]);
    post_json(&env, &path, json!({})).assert_error(400, &["FIELDS_REQUIRED"]);
    env.client()
        .send(
            "POST",
            &path,
            &[JSON, ("Content-Type", "text/plain")],
            b"ssn=123456789",
        )
        .assert_error(400, &["REQUEST_BODY_INVALID"]);
    // A person gets the page again, the message next to the field.
    let page = env
        .client()
        .send("POST", &path, &[FORM], b"date_of_birth=1990-02-30");
    assert_eq!(page.status, 400);
    let html = page.text();
    let field = html.find("id=\"date_of_birth\"").expect("the field");
    let error = html[field..]
        .find("class=\"error\"")
        .expect("an error after the field");
    assert!(error < 300, "the message stands next to the field");
    let got = env.client().call(
        "profile/get",
        &json!({"email_address": "ada@example.com", "mobile_number": "4165550123"}),
    );
    assert_eq!(
        got.assert_status(200)["profile"]["customer_submitted_form_fields"]["date_of_birth"],
        Value::Null
    );
}

fn upload_stores_a_document(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = standard_quiz(&env);
    let bytes = jpeg(5000);
    let reply = upload(
        &env,
        &token,
        "passport_upload",
        &[("../../etc/passport.jpg", &bytes)],
    );
    let id = reply.assert_status(200)["document_id"]
        .as_str()
        .expect("id")
        .to_owned();
    let doc = env.client().call("document/get", &json!({"email_address": "ada@example.com", "mobile_number": "4165550123", "document_id": id}));
    let d = &doc.assert_status(200)["document"];
    assert_eq!(d["name"], "passport_upload");
    assert_eq!(d["status"], "Pending");
    let file = &d["data"][0];
    let name = file["file_name"].as_str().expect("name");
    assert!(
        !name.contains('/') && !name.contains(".."),
        "sanitised: {name}"
    );
    assert!(name.ends_with("passport.jpg"));
    assert_eq!(file["content_type"], "image/jpeg");
    assert_eq!(file["size_bytes"], 5000);
    assert_eq!(file["sha256"].as_str().map(str::len), Some(64));
    assert_eq!(env.server.stored_files().len(), 1);
    assert!(events(&env).contains(&"document_uploaded".to_owned()));
    // A second upload for the same step adds a document; the first stays.
    upload(
        &env,
        &token,
        "passport_upload",
        &[("back.jpg", &bytes), ("front.jpg", &bytes)],
    )
    .assert_status(200);
    let read = env.client().call(
        "document/read",
        &json!({"email_address": "ada@example.com", "mobile_number": "4165550123"}),
    );
    assert_eq!(read.assert_status(200)["total_count"], 2);
}

fn a_side_uploaded_again_replaces(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = send_quiz(&env, json!({"driver_licence_upload": 1}));
    let sent = |side: &str, size: usize| {
        let reply = upload_side(
            &env,
            &token,
            "driver_licence_upload",
            Some(side),
            &jpeg(size),
        );
        let out = reply.assert_status(200);
        out["document_id"].as_str().expect("id").to_owned()
    };
    let ada = json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    let documents = || {
        let out = env.client().call("document/read", &ada);
        let read = out.assert_status(200);
        let mut sides: Vec<(String, u64)> = read["documents"]
            .as_array()
            .expect("documents")
            .iter()
            .map(|d| {
                let file = &d["data"][0];
                let side = file["side"].as_str().expect("side").to_owned();
                (side, file["size_bytes"].as_u64().expect("size"))
            })
            .collect();
        sides.sort();
        sides
    };
    let first_front = sent("front", 4000);
    let back = sent("back", 5000);
    let front = sent("front", 6000);
    assert_eq!(
        documents(),
        [("back".to_owned(), 5000), ("front".to_owned(), 6000)],
        "one document per side, the front the latest"
    );
    let gone = env.client().call(
        "document/get",
        &with(ada.clone(), "document_id", json!(first_front)),
    );
    gone.assert_error(400, &["DOCUMENT_NOT_FOUND"]);
    assert_eq!(
        env.server.stored_files().len(),
        2,
        "the replaced front's file is removed at once"
    );
    for kept in [&back, &front] {
        let out = env.client().call(
            "document/get",
            &with(ada.clone(), "document_id", json!(kept)),
        );
        out.assert_status(200);
    }
    post_json(&env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);
    upload_side(
        &env,
        &token,
        "driver_licence_upload",
        Some("front"),
        &jpeg(7000),
    )
    .assert_error(409, &["QUIZ_SUBMITTED"]);
    assert_eq!(
        documents(),
        [("back".to_owned(), 5000), ("front".to_owned(), 6000)],
        "nothing replaced after the submission"
    );
}

fn uploads_refuse_bad_files(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = standard_quiz(&env);
    let disguised = b"MZ\x90\x00 this is an executable, not a photo".to_vec();
    upload(
        &env,
        &token,
        "passport_upload",
        &[("photo.jpg", &disguised)],
    )
    .assert_error(400, &["FILE_INVALID"]);
    let big = jpeg(11 * 1024 * 1024);
    upload(&env, &token, "passport_upload", &[("big.jpg", &big)])
        .assert_error(400, &["FILE_INVALID"]);
    let small = jpeg(100);
    let five: Vec<(&str, &[u8])> = (0..5).map(|_| ("a.jpg", small.as_slice())).collect();
    upload(&env, &token, "passport_upload", &five).assert_error(400, &["FILE_INVALID"]);
    upload(&env, &token, "passport_upload", &[]).assert_error(400, &["FILE_REQUIRED"]);
    assert!(
        env.server.stored_files().is_empty(),
        "nothing refused was kept"
    );
    let read = env.client().call(
        "document/read",
        &json!({"email_address": "ada@example.com", "mobile_number": "4165550123"}),
    );
    assert_eq!(read.assert_status(200)["total_count"], 0);
    let png = png(64);
    let pdf =
        b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n".to_vec();
    upload(
        &env,
        &token,
        "passport_upload",
        &[("a.png", &png), ("b.pdf", &pdf)],
    )
    .assert_status(200);
}

fn uploads_refuse_unasked_steps(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = standard_quiz(&env);
    let bytes = jpeg(100);
    upload(&env, &token, "utility_bill_upload", &[("a.jpg", &bytes)])
        .assert_error(400, &["STEP_INVALID"]);
    upload(&env, &token, "address_submit", &[("a.jpg", &bytes)])
        .assert_error(400, &["STEP_INVALID"]);
    upload(&env, &token, "no_such_step", &[("a.jpg", &bytes)]).assert_error(400, &["STEP_INVALID"]);
    let (content_type, body) = multipart(&[(
        "file",
        Part::File {
            name: "a.jpg",
            bytes: &bytes,
        },
    )]);
    env.client()
        .send(
            "POST",
            &format!("/quiz/{token}/documents"),
            &[JSON, ("Content-Type", &content_type)],
            &body,
        )
        .assert_error(400, &["STEP_REQUIRED"]);
}

fn agreement_and_fingerprint(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = standard_quiz(&env);
    post_json(
        &env,
        &format!("/quiz/{token}/agreement"),
        json!({"full_name": "Ada Lovelace"}),
    )
    .assert_error(400, &["CONSENT_REQUIRED"]);
    post_json(
        &env,
        &format!("/quiz/{token}/agreement"),
        json!({"consent": true}),
    )
    .assert_error(400, &["FULL_NAME_REQUIRED"]);
    let signed = env.client().send(
        "POST",
        &format!("/quiz/{token}/agreement"),
        &[FORM],
        b"full_name=Ada+Lovelace&consent=yes",
    );
    assert_eq!(signed.status, 303);
    post_json(
        &env,
        &format!("/quiz/{token}/fingerprint"),
        json!({"fingerprint": "abc"}),
    )
    .assert_error(400, &["FINGERPRINT_INVALID"]);
    post_json(
        &env,
        &format!("/quiz/{token}/fingerprint"),
        json!({"fingerprint": "ab".repeat(32)}),
    )
    .assert_status(200);
    let read = env.client().call(
        "document/read",
        &json!({"email_address": "ada@example.com", "mobile_number": "4165550123"}),
    );
    let docs = read.assert_status(200)["documents"]
        .as_array()
        .expect("array")
        .clone();
    assert_eq!(docs[0]["name"], "device_finger_print");
    assert_eq!(docs[0]["data"][0]["fingerprint"], "ab".repeat(32));
    assert_eq!(docs[1]["name"], "agreement_sign");
    assert_eq!(docs[1]["data"][0]["signed_name"], "Ada Lovelace");
}

fn submit_then_thanks(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = standard_quiz(&env);
    let submit = format!("/quiz/{token}/submit");
    post_json(&env, &submit, json!({})).assert_error(
        400,
        &[
            "PASSPORT_UPLOAD_REQUIRED",
            "ADDRESS_SUBMIT_REQUIRED",
            "AGREEMENT_SIGN_REQUIRED",
        ],
    );
    upload(&env, &token, "passport_upload", &[("p.jpg", &jpeg(300))]).assert_status(200);
    post_json(&env, &format!("/quiz/{token}/fields"), json!({"address_line_1": "1 Main St", "city": "Ottawa", "postal": "K1A 0B1", "country": "CA"})).assert_status(200);
    post_json(&env, &submit, json!({})).assert_error(400, &["AGREEMENT_SIGN_REQUIRED"]);
    post_json(
        &env,
        &format!("/quiz/{token}/agreement"),
        json!({"full_name": "Ada Lovelace", "consent": true}),
    )
    .assert_status(200);
    let done = env.client().send("POST", &submit, &[], b"");
    assert_eq!(done.status, 303, "a person is sent back to the page");
    let page = env
        .client()
        .send("GET", &format!("/quiz/{token}"), &[], b"");
    assert_eq!(page.status, 200);
    assert!(page.text().contains("Thank you"));
    post_json(&env, &submit, json!({})).assert_error(409, &["QUIZ_SUBMITTED"]);
    upload(&env, &token, "selfie_upload", &[("s.jpg", &jpeg(300))])
        .assert_error(409, &["QUIZ_SUBMITTED"]);
    let state = env
        .client()
        .send("GET", &format!("/quiz/{token}"), &[JSON], b"");
    assert_eq!(state.assert_status(200)["status"], "submitted");
    assert_eq!(
        events(&env)
            .iter()
            .filter(|a| *a == "quiz_submitted")
            .count(),
        1
    );
}

fn provider_step_blocks(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = send_quiz(
        &env,
        json!({"ssn_submit": 1, "canadian_bank_validation": 1}),
    );
    let page = env
        .client()
        .send("GET", &format!("/quiz/{token}"), &[], b"");
    assert!(
        page.text().contains("cannot be finished here"),
        "the page says why"
    );
    post_json(
        &env,
        &format!("/quiz/{token}/fields"),
        json!({"ssn": "123456789"}),
    )
    .assert_status(200);
    let refused = post_json(&env, &format!("/quiz/{token}/submit"), json!({}));
    refused.assert_error(400, &["CANADIAN_BANK_VALIDATION_REQUIRED"]);
    assert!(
        refused.body["errors"][0]["description"]
            .as_str()
            .is_some_and(|d| d.contains("provider"))
    );
}

fn expired_and_deleted_links(backend: Backend) {
    let env = Env::start(backend);
    let (token, long, _) = standard_quiz(&env);
    env.client()
        .call("quiz/expire", &json!({"url": long}))
        .assert_status(200);
    let page = env
        .client()
        .send("GET", &format!("/quiz/{token}"), &[], b"");
    assert_eq!(page.status, 410);
    assert!(page.text().contains("expired"));
    env.client()
        .send("GET", &format!("/quiz/{token}"), &[JSON], b"")
        .assert_error(410, &["QUIZ_EXPIRED"]);
    upload(&env, &token, "passport_upload", &[("p.jpg", &jpeg(100))])
        .assert_error(410, &["QUIZ_EXPIRED"]);

    let (token, long, _) = standard_quiz(&env);
    env.client()
        .call("quiz/delete", &json!({"url": long}))
        .assert_status(200);
    assert_eq!(
        env.client()
            .send("GET", &format!("/quiz/{token}"), &[], b"")
            .status,
        404
    );
    post_json(&env, &format!("/quiz/{token}/submit"), json!({}))
        .assert_error(404, &["QUIZ_NOT_FOUND"]);
    assert_eq!(
        env.client()
            .send("GET", "/quiz/not-a-real-token", &[], b"")
            .status,
        404
    );
}

fn rate_limited(backend: Backend) {
    let server = Server::start_with(
        TestDatabase::create(backend),
        &[("IDV_CLIENT_RATE_LIMIT", "3")],
    );
    let merchant = server.create_merchant("Acme");
    let env = Env { server, merchant };
    let (token, _, _) = standard_quiz(&env);
    let statuses: Vec<u16> = (0..4)
        .map(|_| {
            env.client()
                .send("GET", &format!("/quiz/{token}"), &[], b"")
                .status
        })
        .collect();
    assert_eq!(statuses, [200, 200, 200, 429]);
    let limited = env
        .client()
        .send("GET", &format!("/quiz/{token}"), &[JSON], b"");
    limited.assert_error(429, &["RATE_LIMITED"]);
    assert!(
        limited
            .header("Retry-After")
            .is_some_and(|s| s.parse::<u64>().is_ok_and(|n| n >= 1))
    );
    // The merchant API is not limited by the clients' traffic.
    env.client()
        .call("merchant/settings/get", &json!({}))
        .assert_status(200);
}

fn tokens_stay_out_of_logs(backend: Backend) {
    let server = Server::start_with(TestDatabase::create(backend), &[("IDV_LOG", "info")]);
    let merchant = server.create_merchant("Acme");
    let env = Env { server, merchant };
    let (token, _, tiny) = standard_quiz(&env);
    let code = tiny.rsplit('/').next().expect("code").to_owned();
    env.client()
        .send("GET", &format!("/quiz/{token}"), &[], b"");
    env.client().send("GET", &format!("/q/{code}"), &[], b"");
    upload(&env, &token, "passport_upload", &[("p.jpg", &jpeg(100))]).assert_status(200);
    let log_path = env.server.db.data_dir.path().join("server.log");
    // The log is written as requests finish: a request made after the others, once
    // logged, says theirs are written too.
    env.client().send("GET", "/log-sentinel", &[], b"");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let log = loop {
        let log = std::fs::read_to_string(&log_path).expect("server log");
        if log.contains("log-sentinel") || std::time::Instant::now() > deadline {
            break log;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(
        log.contains("log-sentinel"),
        "the sentinel request is logged: {log}"
    );
    assert!(log.contains("/quiz/"), "requests are logged: {log}");
    assert!(!log.contains(&token), "the token is cut in logs");
    assert!(!log.contains(&code), "the short code is cut in logs");
}

fn oversize_forms(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = standard_quiz(&env);
    let big = format!("ssn={}", "9".repeat(100 * 1024));
    let reply = env.client().send(
        "POST",
        &format!("/quiz/{token}/fields"),
        &[JSON, FORM],
        big.as_bytes(),
    );
    reply.assert_error(413, &["REQUEST_TOO_LARGE"]);
    // 41 MiB of upload: more than four files of 10 MiB can make.
    let huge = jpeg(41 * 1024 * 1024);
    upload(&env, &token, "passport_upload", &[("huge.jpg", &huge)])
        .assert_error(413, &["REQUEST_TOO_LARGE"]);
    assert!(env.server.stored_files().is_empty());
}
