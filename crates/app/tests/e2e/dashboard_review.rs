//! The dashboard's review pages (contract §10): document files and verdicts, new quiz
//! links, templates and settings, each refused to strangers and other merchants.

use serde_json::{Value, json};

use adapter_http::DashboardAccess;

use crate::Scenario;
use crate::client_pages::{send_quiz, upload};
use crate::dashboard::{
    admin_of, csrf_of, first_profile_link, page, post_form, reviewer, reviewer_of, signed_in,
};
use crate::support::{Backend, Env, Merchant, Receiver, jpeg};
use crate::templates::create_template;
use crate::webhooks::{ALLOW_PRIVATE, deliveries, register};

pub const SCENARIOS: &[Scenario] = &[
    (
        "a_reviewer_cannot_mint_or_disable_api_keys_and_an_admins_keys_die_with_the_admin",
        keys_are_for_admins,
    ),
    (
        "dashboard_documents_show_their_files_uncached_and_take_a_reviewers_verdict",
        documents,
    ),
    (
        "dashboard_new_quiz_links_come_from_the_merchants_templates_with_a_qr_code_on_their_own_page",
        quizzes,
    ),
    (
        "dashboard_templates_and_settings_show_and_change_only_the_merchants_own",
        templates_and_settings,
    ),
    (
        "every_dashboard_address_sends_strangers_to_sign_in_and_refuses_posts_without_the_token",
        strangers_and_tokens,
    ),
    (
        "a_method_a_dashboard_address_does_not_take_is_405_naming_those_it_does",
        methods_not_allowed,
    ),
];

/// Every dashboard address, from the dashboard's own route table, with a made-up id in
/// each `{...}` segment: (method, path, who may reach it).
fn dashboard_addresses() -> Vec<(&'static str, String, DashboardAccess)> {
    adapter_http::dashboard_routes()
        .into_iter()
        .map(|(method, pattern, access)| {
            let path: Vec<&str> = pattern
                .split('/')
                .map(|segment| match segment.starts_with('{') {
                    true => "01NOSUCHTHING",
                    false => segment,
                })
                .collect();
            (method, path.join("/"), access)
        })
        .collect()
}

fn strangers_and_tokens(backend: Backend) {
    let env = Env::start(backend);
    let password = reviewer(&env, "rev@example.com");
    let cookie = signed_in(&env, "rev@example.com", password);
    let token = csrf_of(&page(&env, "/dashboard/profiles", &cookie));
    let form = "status=Approved&note=x&template_id=01NOSUCHTEMPLATE&quiz_expiry_days=9";
    let addresses = dashboard_addresses();
    for access in [DashboardAccess::Reviewer, DashboardAccess::Admin] {
        for method in ["GET", "POST"] {
            assert!(
                addresses.iter().any(|a| (a.0, a.2) == (method, access)),
                "the table lists a {method} for {access:?}"
            );
        }
    }
    for (method, path, access) in &addresses {
        let (method, path) = (*method, path.as_str());
        let send = |cookie: &str, body: &str| {
            env.client().send(
                method,
                path,
                &[crate::dashboard::FORM, ("Cookie", cookie)],
                body.as_bytes(),
            )
        };
        if *access == DashboardAccess::Anyone {
            // The home redirect and signing in: a sign-in post without its own token is
            // refused, whatever session cookie it carries.
            for stranger in ["", "idv_session=forged", cookie.as_str()] {
                let reply = send(stranger, form);
                match method {
                    "POST" => assert_eq!(reply.status, 403, "{path} without its token"),
                    _ => assert!(reply.status < 400, "{path}: {}", reply.status),
                }
            }
            continue;
        }
        // No cookie, or one that names no session (a client holding a quiz link has no
        // other): on to sign in, nothing of the page.
        for stranger in ["", "idv_session=forged"] {
            let reply = send(stranger, form);
            assert_eq!(reply.status, 303, "{method} {path} with {stranger:?}");
            assert_eq!(reply.header("Location"), Some("/dashboard/login"));
        }
        if method == "POST" {
            let refused = post_form(&env, path, &cookie, form);
            assert_eq!(refused.status, 403, "{path} without the CSRF token");
        }
        if *access == DashboardAccess::Admin {
            let refused = send(&cookie, &format!("{form}&csrf_token={token}"));
            assert_eq!(refused.status, 403, "{method} {path} by a reviewer");
            assert!(refused.text().contains("Only an admin"), "{path}");
        }
    }
    let settings = env.client().call("merchant/settings/get", &json!({}));
    assert_eq!(
        settings.assert_status(200)["quiz_expiry_days"],
        5,
        "nothing was changed"
    );
    assert_eq!(
        page(&env, "/dashboard/profiles", &cookie).status,
        200,
        "the refused logout left the session"
    );
}

/// Every address of the table, asked with a method none takes, answers 405 and names
/// its methods in `Allow`, signed in or not.
fn methods_not_allowed(backend: Backend) {
    let env = Env::start(backend);
    let password = reviewer(&env, "rev@example.com");
    let cookie = signed_in(&env, "rev@example.com", password);
    let addresses = dashboard_addresses();
    for (_, path, _) in &addresses {
        let methods: Vec<&str> = addresses
            .iter()
            .filter(|a| &a.1 == path)
            .map(|a| a.0)
            .collect();
        for who in ["", cookie.as_str()] {
            let reply = env.client().send("DELETE", path, &[("Cookie", who)], b"");
            assert_eq!(reply.status, 405, "DELETE {path}");
            assert_eq!(
                reply.header("Allow"),
                Some(methods.join(", ").as_str()),
                "{path}"
            );
            assert_eq!(reply.header("X-Frame-Options"), Some("DENY"), "{path}");
        }
    }
}

const PDF: &[u8] = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n";

fn ada(extra: Value) -> Value {
    let mut body = json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    body
}

/// Every address in `text` that starts with `prefix`, up to its closing quote.
fn addresses(text: &str, prefix: &str) -> Vec<String> {
    text.match_indices(prefix)
        .map(|(at, _)| text[at..].split('"').next().expect("quoted").to_owned())
        .collect()
}

/// A second merchant with a profile and a reviewer of its own; returns the merchant and
/// the reviewer's session cookie.
/// Another merchant with one profile and a signed-in reviewer: the session cookie.
fn other_merchant(env: &Env) -> (Merchant, String) {
    other_merchant_as(env, reviewer_of)
}

/// Another merchant with one profile and a user made by `make_user`, signed in.
fn other_merchant_as(
    env: &Env,
    make_user: fn(&crate::support::Server, &str, &str) -> &'static str,
) -> (Merchant, String) {
    let other = env.server.create_merchant("Other");
    env.server
        .client(&other)
        .call(
            "profile/create",
            &crate::support::profile("zed@example.com", "4165550999"),
        )
        .assert_status(201);
    let password = make_user(&env.server, &other.id, "them@example.com");
    let cookie = signed_in(env, "them@example.com", password);
    (other, cookie)
}

/// Ada's events' `details` for `activity`.
fn details_of(env: &Env, activity: &str) -> Vec<String> {
    let log = env.client().call("event/read", &ada(json!({"limit": 50})));
    log.assert_status(200)["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["activity"] == activity)
        .map(|e| e["details"].as_str().expect("details").to_owned())
        .collect()
}

fn documents(backend: Backend) {
    let env = Env::start(backend);
    let password = reviewer(&env, "rev@example.com");
    let (token, _, _) = send_quiz(
        &env,
        json!({"passport_upload": 1, "bank_statement_upload": 1}),
    );
    let photo = jpeg(3000);
    upload(&env, &token, "passport_upload", &[("passport.jpg", &photo)]).assert_status(200);
    upload(&env, &token, "bank_statement_upload", &[("bank.pdf", PDF)]).assert_status(200);
    let cookie = signed_in(&env, "rev@example.com", password);
    let profile_address = first_profile_link(&page(&env, "/dashboard/profiles", &cookie));
    let shown = page(&env, &profile_address, &cookie);
    let text = shown.text();
    let files = addresses(&text, "/dashboard/documents/");
    let image = files
        .iter()
        .find(|a| {
            a.contains("/files/")
                && text.contains(&format!("<img class=\"document-image\" src=\"{a}\""))
        })
        .expect("the passport shown as an image")
        .clone();
    let pdf = files
        .iter()
        .find(|a| a.contains("/files/") && text.contains(&format!("href=\"{a}\" download")))
        .expect("the statement offered as a download")
        .clone();

    let got = page(&env, &image, &cookie);
    assert_eq!(got.status, 200);
    assert_eq!(got.bytes, photo, "the bytes as uploaded");
    assert_eq!(got.header("Content-Type"), Some("image/jpeg"));
    assert_eq!(got.header("Cache-Control"), Some("no-store"));
    assert_eq!(got.header("X-Content-Type-Options"), Some("nosniff"));
    assert!(
        got.header("Content-Disposition")
            .is_some_and(|d| d.starts_with("inline")),
        "{:?}",
        got.header("Content-Disposition")
    );
    let got = page(&env, &pdf, &cookie);
    assert_eq!((got.status, got.bytes.as_slice()), (200, PDF));
    assert!(
        got.header("Content-Disposition")
            .is_some_and(|d| d.starts_with("attachment") && d.contains("bank.pdf"))
    );

    // A stranger signs in first; another merchant's reviewer, a made-up file or a
    // made-up document find nothing.
    let stranger = page(&env, &image, "");
    assert_eq!(stranger.status, 303);
    assert!(stranger.bytes.len() < 100, "no bytes to a stranger");
    let (_, theirs) = other_merchant(&env);
    let foreign = page(&env, &image, &theirs);
    assert_eq!(foreign.status, 404);
    assert_ne!(foreign.bytes, photo);
    let document = image.split("/files/").next().expect("document address");
    for odd in [
        format!("{document}/files/01NOSUCHFILE"),
        "/dashboard/documents/01NOSUCHDOCUMENT/files/01NOSUCHFILE".to_owned(),
        format!("{document}/files/..%2F..%2Fetc%2Fpasswd"),
    ] {
        assert_eq!(page(&env, &odd, &cookie).status, 404, "{odd}");
    }

    // The verdict: refused without the token, to another merchant and for a made-up
    // status; then stored, with the reviewer's e-mail in the log.
    let csrf = csrf_of(&shown);
    let status_path = format!("{document}/status");
    let document_id = document.rsplit('/').next().expect("id");
    let status_now = || {
        env.client()
            .call("document/get", &ada(json!({"document_id": document_id})))
            .assert_status(200)["document"]["status"]
            .clone()
    };
    assert_eq!(
        post_form(&env, &status_path, &cookie, "status=Approved").status,
        403
    );
    let theirs_csrf = csrf_of(&page(&env, "/dashboard/profiles", &theirs));
    let foreign = post_form(
        &env,
        &status_path,
        &theirs,
        &format!("csrf_token={theirs_csrf}&status=Approved"),
    );
    assert_eq!(foreign.status, 404);
    let bogus = post_form(
        &env,
        &status_path,
        &cookie,
        &format!("csrf_token={csrf}&status=Done"),
    );
    assert_eq!(bogus.status, 400);
    assert_eq!(status_now(), "Pending", "refusals changed nothing");
    let done = post_form(
        &env,
        &status_path,
        &cookie,
        &format!("csrf_token={csrf}&status=Approved"),
    );
    assert_eq!(done.status, 303);
    assert_eq!(done.header("Location"), Some(profile_address.as_str()));
    assert_eq!(status_now(), "Approved");
    let logged = details_of(&env, "document_status_changed");
    assert_eq!(logged.len(), 1, "{logged:?}");
    assert!(logged[0].ends_with("by rev@example.com"), "{logged:?}");
    assert!(
        page(&env, &profile_address, &cookie)
            .text()
            .contains("<span class=\"badge\">Approved</span>")
    );
}

fn quizzes(backend: Backend) {
    let env = Env::start(backend);
    let password = reviewer(&env, "rev@example.com");
    env.client()
        .call(
            "profile/create",
            &crate::support::profile("ada@example.com", "4165550123"),
        )
        .assert_status(201);
    let cookie = signed_in(&env, "rev@example.com", password);
    let address = first_profile_link(&page(&env, "/dashboard/profiles", &cookie));
    let empty = page(&env, &address, &cookie);
    assert!(
        empty.text().contains("first store a template"),
        "no template, no form"
    );
    let template = create_template(&env, "Passport check", json!({"passport_upload": 1}));
    let shown = page(&env, &address, &cookie);
    assert!(shown.text().contains(&format!(
        "<option value=\"{template}\">Passport check</option>"
    )));
    let csrf = csrf_of(&shown);
    let path = format!("{address}/quizzes");
    let quiz_count = || {
        env.client()
            .call("quiz/read", &json!({"offset": 0, "limit": 10}))
            .assert_status(200)["total_count"]
            .clone()
    };

    assert_eq!(
        post_form(&env, &path, &cookie, &format!("template_id={template}")).status,
        403,
        "no CSRF token"
    );
    assert_eq!(
        post_form(
            &env,
            &path,
            "",
            &format!("csrf_token={csrf}&template_id={template}")
        )
        .status,
        303,
        "a stranger signs in first"
    );
    let (other, theirs) = other_merchant(&env);
    let theirs_csrf = csrf_of(&page(&env, "/dashboard/profiles", &theirs));
    let foreign = post_form(
        &env,
        &path,
        &theirs,
        &format!("csrf_token={theirs_csrf}&template_id={template}"),
    );
    assert_eq!(foreign.status, 404, "another merchant's profile");
    // Their template, on our profile: not ours, so nothing to send.
    let their_template = env
        .server
        .client(&other)
        .call(
            "template/create",
            &json!({"template_name": "Theirs", "list": {"selfie_upload": 1}}),
        )
        .assert_status(201)["template_id"]
        .as_str()
        .expect("id")
        .to_owned();
    let borrowed = post_form(
        &env,
        &path,
        &cookie,
        &format!("csrf_token={csrf}&template_id={their_template}"),
    );
    assert_eq!(borrowed.status, 404);
    for bad in ["", "not%20an%20id"] {
        let refused = post_form(
            &env,
            &path,
            &cookie,
            &format!("csrf_token={csrf}&template_id={bad}"),
        );
        assert_eq!(refused.status, 400, "{bad:?}");
    }
    assert_eq!(quiz_count(), 0, "refusals sent nothing");

    let sent = post_form(
        &env,
        &path,
        &cookie,
        &format!("csrf_token={csrf}&template_id={template}"),
    );
    assert_eq!(sent.status, 303, "{}", sent.text());
    let quiz_page = sent.header("Location").expect("to the quiz").to_owned();
    assert!(quiz_page.starts_with("/dashboard/quizzes/"), "{quiz_page}");
    let shown = page(&env, &quiz_page, &cookie);
    assert_eq!(shown.status, 200);
    let text = shown.text();
    // Only this merchant's reviewers see it; a made-up id is the same 404 page.
    assert_eq!(
        page(&env, &quiz_page, &theirs).status,
        404,
        "another merchant's quiz"
    );
    assert_eq!(page(&env, &quiz_page, "").status, 303);
    assert_eq!(
        page(&env, "/dashboard/quizzes/01NOSUCHQUIZ", &cookie).status,
        404
    );
    assert!(
        text.contains("<img class=\"qr\" src=\"data:image/svg+xml;base64,"),
        "{text}"
    );
    let tiny = between(&text, "<dd class=\"link\" id=\"tiny-url\">", "<");
    let long = between(&text, "<dd class=\"link\" id=\"long-url\">", "<");
    assert!(
        tiny.starts_with(&env.server.base_url) && tiny.contains("/q/"),
        "{tiny}"
    );
    let got = env.client().call("quiz/get", &json!({"url": tiny}));
    let quiz = &got.assert_status(200)["quiz"];
    assert_eq!(quiz["long_url"], long.as_str());
    assert_eq!(quiz["template"]["template_id"], template.as_str());
    assert_eq!(quiz["template"]["list"]["passport_upload"], 1);
    assert_eq!(quiz_count(), 1);
    let logged = details_of(&env, "quiz_created");
    assert!(
        logged.len() == 1 && logged[0].ends_with("by rev@example.com"),
        "{logged:?}"
    );
    // The client's link works, and the profile's page lists the quiz.
    let opened = env
        .client()
        .send("GET", &tiny.replace(&env.server.base_url, ""), &[], b"");
    assert_eq!(opened.status, 302);
    let location = opened.header("Location").expect("to the long link");
    assert!(long.ends_with(location), "{location} for {long}");
    let listed = page(&env, &address, &cookie).text();
    assert!(listed.contains(&tiny) && listed.contains("Passport check"));
    assert!(
        listed.contains(&format!("href=\"{quiz_page}\"")),
        "linked to its page"
    );
}

/// The text between `start` and the next `end` in `text`.
fn between(text: &str, start: &str, end: &str) -> String {
    let at = text
        .find(start)
        .unwrap_or_else(|| panic!("{start} in {text}"))
        + start.len();
    text[at..].split(end).next().expect("end").to_owned()
}

fn templates_and_settings(backend: Backend) {
    let env = Env::start_with(backend, &[ALLOW_PRIVATE]);
    let password = admin_of(&env.server, &env.merchant.id, "rev@example.com");
    let template = create_template(
        &env,
        "Full KYC",
        json!({"passport_upload": 1, "selfie_upload": 2}),
    );
    let cookie = signed_in(&env, "rev@example.com", password);
    let (other, theirs) = other_merchant_as(&env, admin_of);

    let shown = page(&env, "/dashboard/templates", &cookie);
    assert_eq!(shown.status, 200);
    let text = shown.text();
    assert!(text.contains("Full KYC") && text.contains(&template));
    assert_eq!(text.matches("<tr><td>").count(), 22, "the 22 steps");
    for row in [
        "<td><code>passport_upload</code></td><td>Required</td>",
        "<td><code>selfie_upload</code></td><td>Optional</td>",
        "<td><code>ssn_submit</code></td><td>Not required</td>",
    ] {
        assert!(text.contains(row), "{row}");
    }
    let theirs_page = page(&env, "/dashboard/templates", &theirs).text();
    assert!(
        !theirs_page.contains("Full KYC"),
        "another merchant's templates"
    );
    assert_eq!(page(&env, "/dashboard/templates", "").status, 303);

    // The default expiry.
    let settings = page(&env, "/dashboard/settings", &cookie);
    assert_eq!(settings.status, 200);
    assert!(settings.text().contains("value=\"5\""), "the default");
    let csrf = csrf_of(&settings);
    let expiry = || {
        env.client()
            .call("merchant/settings/get", &json!({}))
            .assert_status(200)["quiz_expiry_days"]
            .clone()
    };
    assert_eq!(
        post_form(&env, "/dashboard/settings", &cookie, "quiz_expiry_days=9").status,
        403
    );
    for bad in ["0", "31", "seven", ""] {
        let refused = post_form(
            &env,
            "/dashboard/settings",
            &cookie,
            &format!("csrf_token={csrf}&quiz_expiry_days={bad}"),
        );
        assert_eq!(refused.status, 400, "{bad:?}");
    }
    assert_eq!(expiry(), 5);
    let saved = post_form(
        &env,
        "/dashboard/settings",
        &cookie,
        &format!("csrf_token={csrf}&quiz_expiry_days=9"),
    );
    assert_eq!(saved.status, 303);
    assert_eq!(expiry(), 9);
    let theirs_expiry = env
        .server
        .client(&other)
        .call("merchant/settings/get", &json!({}));
    assert_eq!(theirs_expiry.assert_status(200)["quiz_expiry_days"], 5);

    // The client's pages' default language, from the same form.
    let language = |client: crate::support::Client| {
        client
            .call("merchant/settings/get", &json!({}))
            .assert_status(200)["default_language"]
            .clone()
    };
    assert!(
        settings
            .text()
            .contains("<option value=\"en\" selected lang=\"en\">English</option>")
    );
    let refused = post_form(
        &env,
        "/dashboard/settings",
        &cookie,
        &format!("csrf_token={csrf}&quiz_expiry_days=9&default_language=de"),
    );
    assert_eq!(refused.status, 400);
    assert_eq!(language(env.client()), "en");
    let saved = post_form(
        &env,
        "/dashboard/settings",
        &cookie,
        &format!("csrf_token={csrf}&quiz_expiry_days=9&default_language=fr"),
    );
    assert_eq!(saved.status, 303);
    assert_eq!(language(env.client()), "fr");
    assert_eq!(language(env.server.client(&other)), "en");

    // Webhook endpoints with their latest deliveries, the merchant's own only.
    let receiver = Receiver::start();
    let (webhook_id, _) = register(&env, &receiver.url(), None);
    env.client()
        .call(
            "profile/create",
            &crate::support::profile("ada@example.com", "4165550123"),
        )
        .assert_status(201);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while deliveries(&env, &webhook_id)
        .first()
        .is_none_or(|d| d["status"] != "succeeded")
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the delivery succeeds"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let listed = page(&env, "/dashboard/settings", &cookie).text();
    for expected in [
        receiver.url().as_str(),
        "profile_created",
        "succeeded",
        "HTTP 200",
    ] {
        assert!(listed.contains(expected), "{expected} in {listed}");
    }
    let theirs_settings = page(&env, "/dashboard/settings", &theirs).text();
    assert!(!theirs_settings.contains(&receiver.url()));

    // API keys: a new one's secret is shown once and works; disabled, it is refused.
    assert_eq!(
        post_form(&env, "/dashboard/settings/keys", &cookie, "").status,
        403
    );
    let created = post_form(
        &env,
        "/dashboard/settings/keys",
        &cookie,
        &format!("csrf_token={csrf}"),
    );
    assert_eq!(created.status, 201);
    assert_eq!(created.header("Cache-Control"), Some("no-store"));
    let text = created.text();
    let fresh = Merchant {
        id: env.merchant.id.clone(),
        api_key: between(&text, "<dd class=\"link\" id=\"api-key\">", "<"),
        api_secret: between(&text, "<dd class=\"secret\" id=\"api-secret\">", "<"),
    };
    let with_fresh = || {
        env.server
            .client(&fresh)
            .call("merchant/settings/get", &json!({}))
    };
    assert_eq!(with_fresh().assert_status(200)["quiz_expiry_days"], 9);
    let listed = page(&env, "/dashboard/settings", &cookie).text();
    assert!(listed.contains(&fresh.api_key), "the key is listed");
    assert!(
        !listed.contains(&fresh.api_secret),
        "its secret is not shown again"
    );

    let disable = format!("/dashboard/settings/keys/{}/disable", fresh.api_key);
    let theirs_csrf = csrf_of(&page(&env, "/dashboard/settings", &theirs));
    let foreign = post_form(
        &env,
        &disable,
        &theirs,
        &format!("csrf_token={theirs_csrf}"),
    );
    assert_eq!(foreign.status, 404, "another merchant's key");
    assert_eq!(post_form(&env, &disable, &cookie, "").status, 403);
    assert_eq!(with_fresh().status, 200, "refusals left the key working");
    let done = post_form(&env, &disable, &cookie, &format!("csrf_token={csrf}"));
    assert_eq!(done.status, 303);
    assert_eq!(
        with_fresh().status,
        401,
        "a disabled key is refused at once"
    );
    assert_eq!(
        env.client()
            .call("merchant/settings/get", &json!({}))
            .status,
        200,
        "the other keys still work"
    );
    let unknown = post_form(
        &env,
        "/dashboard/settings/keys/key-nosuchkey/disable",
        &cookie,
        &format!("csrf_token={csrf}"),
    );
    assert_eq!(unknown.status, 404);
}

/// Finding (issue 22): a reviewer minted a full API key from the dashboard, the key outlived
/// the reviewer, and a reviewer could disable the merchant's production key.
fn keys_are_for_admins(backend: Backend) {
    let env = Env::start(backend);
    let password = reviewer(&env, "rev@example.com");
    let cookie = signed_in(&env, "rev@example.com", password);
    let csrf = csrf_of(&page(&env, "/dashboard/profiles", &cookie));
    let minted = post_form(
        &env,
        "/dashboard/settings/keys",
        &cookie,
        &format!("csrf_token={csrf}"),
    );
    assert_eq!(minted.status, 403, "{}", minted.text());
    assert!(!minted.text().contains("sec-"), "no secret shown");
    let production = env.merchant.api_key.clone();
    let disable = format!("/dashboard/settings/keys/{production}/disable");
    let refused = post_form(&env, &disable, &cookie, &format!("csrf_token={csrf}"));
    assert_eq!(refused.status, 403);
    let expiry = post_form(
        &env,
        "/dashboard/settings",
        &cookie,
        &format!("csrf_token={csrf}&quiz_expiry_days=9"),
    );
    assert_eq!(expiry.status, 403);
    let settings = env.client().call("merchant/settings/get", &json!({}));
    let answer = settings.assert_status(200);
    assert_eq!(answer["quiz_expiry_days"], 5, "nothing changed");
    env.client()
        .call(
            "profile/create",
            &crate::support::profile("ada@example.com", "4165550123"),
        )
        .assert_status(201);

    // An admin may, and the key names its maker: disabling the admin kills it.
    let password = admin_of(&env.server, &env.merchant.id, "boss@example.com");
    let admin = signed_in(&env, "boss@example.com", password);
    let csrf = csrf_of(&page(&env, "/dashboard/profiles", &admin));
    let made = post_form(
        &env,
        "/dashboard/settings/keys",
        &admin,
        &format!("csrf_token={csrf}"),
    );
    assert_eq!(made.status, 201, "{}", made.text());
    let key = field_after(&made.text(), "key-");
    let secret = field_after(&made.text(), "sec-");
    let minted = Merchant {
        id: env.merchant.id.clone(),
        api_key: key.clone(),
        api_secret: secret,
    };
    let body = json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    env.server
        .client(&minted)
        .call("profile/get", &body)
        .assert_status(200);
    let (ok, out, err) =
        crate::dashboard::user_cmd(&env.server, &["disable", "--email", "boss@example.com"], "");
    assert!(ok, "{err}");
    assert!(out.contains(&key), "the CLI says which keys died: {out}");
    // Keys are cached for at most a second: wait for the refusal that must come.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let refused = loop {
        let reply = env.server.client(&minted).call("profile/get", &body);
        if reply.status != 200 || std::time::Instant::now() > deadline {
            break reply;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    refused.assert_error(401, &["API_KEY_DISABLED"]);
    env.client().call("profile/get", &body).assert_status(200);

    // The audit trail names who did what, from where.
    let trail = crate::dashboard::audit_trail(&env);
    let did = |actor: &str, action: &str, subject: &str| {
        trail.iter().any(|e| {
            e["actor"] == actor && e["action"] == action && e["subject"].as_str() == Some(subject)
        })
    };
    assert!(did("rev@example.com", "signed_in", ""), "{trail:?}");
    assert!(did("boss@example.com", "key_created", &key), "{trail:?}");
    assert!(did("cli", "user_disabled", "boss@example.com"), "{trail:?}");
    assert!(did("cli", "key_disabled", &key), "{trail:?}");
    let signed_in = trail
        .iter()
        .find(|e| e["action"] == "signed_in")
        .expect("one");
    assert_eq!(signed_in["address"], "127.0.0.1");
    assert!(
        !trail
            .iter()
            .any(|e| e["action"] == "key_disabled" && e["actor"] == "rev@example.com"),
        "the reviewer's refused post changed nothing"
    );
}

/// The token that starts with `prefix` in a page (a key or a secret shown once).
fn field_after(text: &str, prefix: &str) -> String {
    let at = text.find(prefix).expect("shown");
    text[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect()
}
