//! The merchant's dashboard (contract §10): its users, made on the server's machine.

use std::io::Write;
use std::process::Stdio;

use diesel::{Connection, PgConnection, QueryableByName, RunQueryDsl, SqliteConnection};
use serde_json::Value;

use crate::Scenario;
use crate::support::{Backend, Env, Reply, Server, profile};

pub const SCENARIOS: &[Scenario] = &[
    (
        "dashboard_users_are_made_and_disabled_with_the_cli_and_stored_hashed",
        users_by_cli,
    ),
    (
        "dashboard_sign_in_sets_a_strict_http_only_cookie_and_shows_only_the_merchants_profiles",
        sign_in,
    ),
    (
        "dashboard_pages_send_strangers_to_sign_in_and_sign_out_or_disable_ends_the_session",
        sessions_end,
    ),
    (
        "dashboard_sign_in_is_locked_after_5_failures_and_posts_need_the_csrf_token",
        lock_and_csrf,
    ),
    (
        "the_root_sends_browsers_to_the_dashboard_and_tells_programs_where_the_docs_are",
        root,
    ),
    (
        "a_profile_page_shows_what_was_submitted_and_other_merchants_ids_are_404",
        profile_page,
    ),
];

pub const FORM: (&str, &str) = ("Content-Type", "application/x-www-form-urlencoded");

/// A user of the env's merchant with a chosen password.
pub fn reviewer(env: &Env, email: &str) -> &'static str {
    reviewer_of(&env.server, &env.merchant.id, email)
}

/// A reviewer of `merchant` with a chosen password (the one returned).
pub fn reviewer_of(server: &Server, merchant: &str, email: &str) -> &'static str {
    user_of(server, merchant, email, "reviewer")
}

/// An admin of `merchant` with a chosen password (the one returned).
pub fn admin_of(server: &Server, merchant: &str, email: &str) -> &'static str {
    user_of(server, merchant, email, "admin")
}

fn user_of(server: &Server, merchant: &str, email: &str, role: &str) -> &'static str {
    let password = "a long enough passphrase";
    let (ok, _, err) = user_cmd(
        server,
        &[
            "create",
            "--merchant",
            merchant,
            "--email",
            email,
            "--role",
            role,
            "--password-stdin",
        ],
        &format!("{password}\n"),
    );
    assert!(ok, "{err}");
    password
}

/// The `Set-Cookie` value of the cookie `name`, if the answer sets it.
pub fn set_cookie<'a>(reply: &'a Reply, name: &str) -> Option<&'a str> {
    reply
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("Set-Cookie"))
        .map(|(_, v)| v.as_str())
        .find(|v| v.starts_with(&format!("{name}=")))
}

/// A fresh sign-in form: the `Cookie` header value its token is bound to, and the token.
pub fn login_form(env: &Env) -> (String, String) {
    let form = env.client().send("GET", "/dashboard/login", &[], b"");
    assert_eq!(form.status, 200);
    let set = set_cookie(&form, "idv_login").expect("the form's cookie");
    let cookie = set.split(';').next().expect("name=value").trim().to_owned();
    (cookie, csrf_of(&form))
}

/// The merchant's audit trail, as `idv audit` prints it (a JSON object a line).
pub fn audit_trail(env: &Env) -> Vec<Value> {
    let out = env
        .server
        .idv()
        .args(["audit", "--merchant", &env.merchant.id])
        .output()
        .expect("idv runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// The sign-in form's body.
pub fn login_body(email: &str, password: &str, csrf_token: &str) -> String {
    format!(
        "email={}&password={}&csrf_token={csrf_token}",
        email.replace('@', "%40"),
        password.replace(' ', "+")
    )
}

/// Posts the sign-in form, as a browser does: its token, with the cookie it is bound to.
fn post_login(env: &Env, email: &str, password: &str) -> Reply {
    let (cookie, token) = login_form(env);
    env.client().send(
        "POST",
        "/dashboard/login",
        &[FORM, ("Cookie", &cookie)],
        login_body(email, password, &token).as_bytes(),
    )
}

/// Signs in; returns the `Cookie` header value of the session.
pub fn signed_in(env: &Env, email: &str, password: &str) -> String {
    let reply = post_login(env, email, password);
    assert_eq!(reply.status, 303, "{}", reply.text());
    assert_eq!(reply.header("Location"), Some("/dashboard/profiles"));
    let set = set_cookie(&reply, "idv_session").expect("a session cookie");
    set.split(';').next().expect("name=value").trim().to_owned()
}

pub fn page(env: &Env, path: &str, cookie: &str) -> Reply {
    env.client().send("GET", path, &[("Cookie", cookie)], b"")
}

/// Posts a dashboard form with a session cookie.
pub fn post_form(env: &Env, path: &str, cookie: &str, body: &str) -> Reply {
    env.client()
        .send("POST", path, &[FORM, ("Cookie", cookie)], body.as_bytes())
}

/// The CSRF token a page's forms carry.
pub fn csrf_of(page: &Reply) -> String {
    let text = page.text();
    let field = "name=\"csrf_token\" value=\"";
    let at = text.find(field).expect("a CSRF field") + field.len();
    text[at..].split('"').next().expect("token").to_owned()
}

fn sign_in(backend: Backend) {
    let env = Env::start(backend);
    let password = reviewer(&env, "rev@example.com");
    env.client()
        .call("profile/create", &profile("ada@example.com", "4165550123"))
        .assert_status(201);
    let other = env.server.create_merchant("Other");
    env.server
        .client(&other)
        .call("profile/create", &profile("zed@example.com", "4165550999"))
        .assert_status(201);

    let form = env.client().send("GET", "/dashboard/login", &[], b"");
    assert_eq!(form.status, 200);
    assert!(form.text().contains("name=\"password\""));
    assert!(
        form.text().contains("<label for=\"email\">"),
        "labelled controls"
    );

    let reply = post_login(&env, "REV@example.com", password);
    assert_eq!(reply.status, 303);
    let set = set_cookie(&reply, "idv_session")
        .expect("cookie")
        .to_owned();
    for flag in ["HttpOnly", "SameSite=Strict", "Path=/dashboard"] {
        assert!(set.contains(flag), "{flag} in {set}");
    }
    assert!(!set.contains("Secure"), "not over http: {set}");
    let cookie = set.split(';').next().expect("pair").to_owned();

    let list = page(&env, "/dashboard/profiles", &cookie);
    assert_eq!(list.status, 200);
    let text = list.text();
    assert!(
        text.contains("ada@example.com") && text.contains("Ada Lovelace"),
        "{text}"
    );
    assert!(
        !text.contains("zed@example.com"),
        "another merchant's profile is not shown"
    );
    assert!(text.contains("rev@example.com"), "who is signed in");
    // Search by name, e-mail or mobile, and filter by status.
    let grace = crate::support::with(
        crate::support::with(
            profile("grace@example.com", "2125550188"),
            "first_name",
            serde_json::json!("Grace"),
        ),
        "last_name",
        serde_json::json!("Hopper"),
    );
    env.client()
        .call("profile/create", &grace)
        .assert_status(201);
    env.client()
        .call(
            "profile/update-status",
            &serde_json::json!({"email_address": "grace@example.com",
                "mobile_number": "2125550188", "status": "Approved"}),
        )
        .assert_status(200);
    for (query, wanted, unwanted) in [
        ("q=HOPPER", "grace@example.com", "ada@example.com"),
        ("q=4165550123", "ada@example.com", "grace@example.com"),
        ("status=Approved", "grace@example.com", "ada@example.com"),
        (
            "q=ada&status=Pending",
            "ada@example.com",
            "grace@example.com",
        ),
        // A NUL or another control character typed into the search is left out of it.
        ("q=HOP%00PER", "grace@example.com", "ada@example.com"),
        ("q=%00%01ada%7f", "ada@example.com", "grace@example.com"),
    ] {
        let found = page(&env, &format!("/dashboard/profiles?{query}"), &cookie).text();
        assert!(
            found.contains(wanted) && !found.contains(unwanted),
            "{query}: {found}"
        );
    }
    let nobody = page(&env, "/dashboard/profiles?q=zed", &cookie).text();
    assert!(
        !nobody.contains("zed@example.com"),
        "another merchant's profile stays hidden"
    );
    assert_eq!(list.header("X-Frame-Options"), Some("DENY"));
    assert_eq!(list.header("Cache-Control"), Some("no-store"));
    assert!(list.header("Content-Security-Policy").is_some());
}

fn sessions_end(backend: Backend) {
    let env = Env::start(backend);
    let password = reviewer(&env, "rev@example.com");
    for path in ["/dashboard", "/dashboard/profiles"] {
        let stranger = env.client().send("GET", path, &[], b"");
        assert_eq!(stranger.status, 303, "{path}");
        let to = stranger.header("Location").unwrap_or_default().to_owned();
        assert!(
            to == "/dashboard/login" || to == "/dashboard/profiles",
            "{path}: {to}"
        );
    }
    let forged = page(&env, "/dashboard/profiles", "idv_session=made-up");
    assert_eq!(forged.header("Location"), Some("/dashboard/login"));

    // Signing out ends the session server-side: the old cookie no longer works.
    let cookie = signed_in(&env, "rev@example.com", password);
    let list = page(&env, "/dashboard/profiles", &cookie);
    assert_eq!(list.status, 200);
    let body = format!("csrf_token={}", csrf_of(&list));
    let out = env.client().send(
        "POST",
        "/dashboard/logout",
        &[FORM, ("Cookie", &cookie)],
        body.as_bytes(),
    );
    assert_eq!(out.status, 303, "{}", out.text());
    assert_eq!(out.header("Location"), Some("/dashboard/login"));
    assert_eq!(page(&env, "/dashboard/profiles", &cookie).status, 303);

    // Disabling the user ends its session at once.
    let cookie = signed_in(&env, "rev@example.com", password);
    assert_eq!(page(&env, "/dashboard/profiles", &cookie).status, 200);
    let (ok, _, err) = user_cmd(&env.server, &["disable", "--email", "rev@example.com"], "");
    assert!(ok, "{err}");
    assert_eq!(page(&env, "/dashboard/profiles", &cookie).status, 303);
    assert_eq!(post_login(&env, "rev@example.com", password).status, 401);
}

fn lock_and_csrf(backend: Backend) {
    let env = Env::start(backend);
    let password = reviewer(&env, "rev@example.com");
    let cookie = signed_in(&env, "rev@example.com", password);

    // A post without the token, or with another, is refused and changes nothing.
    for body in ["", "csrf_token=forged"] {
        let refused = env.client().send(
            "POST",
            "/dashboard/logout",
            &[FORM, ("Cookie", &cookie)],
            body.as_bytes(),
        );
        assert_eq!(refused.status, 403, "{body:?}");
    }
    assert_eq!(
        page(&env, "/dashboard/profiles", &cookie).status,
        200,
        "still signed in"
    );

    let wrong = post_login(&env, "rev@example.com", "not the passphrase at all");
    assert_eq!(wrong.status, 401);
    assert!(set_cookie(&wrong, "idv_session").is_none());
    assert!(wrong.text().contains("not right"));
    for _ in 0..4 {
        assert_eq!(
            post_login(&env, "rev@example.com", "still not the passphrase").status,
            401
        );
    }
    // Five failures: even the right password is refused now, for this user.
    let locked = post_login(&env, "rev@example.com", password);
    assert_eq!(locked.status, 429, "{}", locked.text());
    assert!(locked.text().contains("locked"));
    assert!(set_cookie(&locked, "idv_session").is_none());
}

fn root(backend: Backend) {
    let env = Env::start(backend);
    let browser = env
        .client()
        .send("GET", "/", &[("Accept", "text/html")], b"");
    assert_eq!(browser.status, 303);
    assert_eq!(browser.header("Location"), Some("/dashboard"));
    let program = env
        .client()
        .send("GET", "/", &[("Accept", "application/json")], b"");
    assert_eq!(program.status, 200);
    assert_eq!(program.body["service"], "idv");
    assert_eq!(program.body["openapi"], "/api/v1/openapi.json");
    assert_eq!(program.body["docs"], "/docs");
    assert!(program.body["version"].is_string());
}

/// `idv merchant user ...` with `stdin`; returns (success, stdout, stderr).
pub fn user_cmd(server: &Server, args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = server
        .idv()
        .args(["merchant", "user"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("idv runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("written");
    let out = child.wait_with_output().expect("idv ends");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[derive(QueryableByName)]
struct Stored {
    #[diesel(sql_type = diesel::sql_types::Text)]
    password_hash: String,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    enabled: bool,
}

/// What the database holds for the user signing in as `email`.
fn stored(server: &Server, email: &str) -> Stored {
    let sql = format!(
        "SELECT password_hash, enabled FROM merchant_users WHERE email_key = '{}'",
        email.to_lowercase()
    );
    match &server.db.url {
        Some(url) => {
            let mut conn = PgConnection::establish(url).expect("PostgreSQL");
            diesel::sql_query(sql)
                .get_result(&mut conn)
                .expect("the user")
        }
        None => {
            let file = server.db.data_dir.path().join("idv.sqlite3");
            let mut conn =
                SqliteConnection::establish(&file.display().to_string()).expect("SQLite");
            diesel::sql_query(sql)
                .get_result(&mut conn)
                .expect("the user")
        }
    }
}

fn users_by_cli(backend: Backend) {
    let env = Env::start(backend);
    let server = &env.server;
    let merchant = env.merchant.id.as_str();

    let (ok, out, err) = user_cmd(
        server,
        &[
            "create",
            "--merchant",
            merchant,
            "--email",
            "Rev@Example.com",
            "--json",
        ],
        "",
    );
    assert!(ok, "{err}");
    let made: Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(made["merchant_id"], merchant);
    assert_eq!(made["email"], "Rev@Example.com");
    let password = made["password"].as_str().expect("a one-time password");
    assert!(password.len() >= 20, "{password}");
    let row = stored(server, "rev@example.com");
    assert!(
        row.password_hash.starts_with("$argon2id$"),
        "{}",
        row.password_hash
    );
    assert!(!row.password_hash.contains(password), "stored hashed");
    assert!(row.enabled);

    // A chosen password, read from standard input, is not printed.
    let (ok, out, err) = user_cmd(
        server,
        &[
            "create",
            "--merchant",
            merchant,
            "--email",
            "two@example.com",
            "--password-stdin",
        ],
        "a long enough passphrase\n",
    );
    assert!(ok, "{err}");
    assert!(
        !out.contains("a long enough passphrase") && !out.contains("password:"),
        "{out}"
    );

    // Refused: the same e-mail (in any case), a short password, an unknown merchant.
    let create = |merchant: &str, email: &str, password: Option<&str>| {
        let mut args = vec!["create", "--merchant", merchant, "--email", email];
        if password.is_some() {
            args.push("--password-stdin");
        }
        let (ok, _, err) = user_cmd(server, &args, &format!("{}\n", password.unwrap_or("")));
        assert!(!ok, "{email} was refused");
        err
    };
    let err = create(merchant, "REV@example.com", None);
    assert!(err.contains("already exists"), "{err}");
    let err = create(merchant, "x@example.com", Some("short"));
    assert!(err.contains("at least 12"), "{err}");
    let err = create("01NOSUCHMERCHANT", "y@example.com", None);
    assert!(err.to_lowercase().contains("merchant"), "{err}");

    let (ok, _, err) = user_cmd(server, &["disable", "--email", "rev@example.com"], "");
    assert!(ok, "{err}");
    assert!(!stored(server, "rev@example.com").enabled);
    let (ok, _, _) = user_cmd(server, &["disable", "--email", "nobody@example.com"], "");
    assert!(!ok, "disabling an unknown user fails");
}

/// The first profile page a list links to.
pub fn first_profile_link(list: &Reply) -> String {
    let text = list.text();
    let at = text
        .find("href=\"/dashboard/profiles/")
        .expect("a profile link")
        + 6;
    text[at..].split('"').next().expect("address").to_owned()
}

fn profile_page(backend: Backend) {
    let env = Env::start(backend);
    let password = reviewer(&env, "rev@example.com");
    let (token, _, _) = crate::client_pages::send_quiz(
        &env,
        serde_json::json!({"passport_upload": 1, "ssn_submit": 1, "date_of_birth_submit": 1}),
    );
    crate::client_pages::post_json(
        &env,
        &format!("/quiz/{token}/fields"),
        serde_json::json!({"ssn": "536221234", "date_of_birth": "1990-12-10"}),
    )
    .assert_status(200);
    crate::client_pages::upload(
        &env,
        &token,
        "passport_upload",
        &[("p.jpg", &crate::support::jpeg(2000))],
    )
    .assert_status(200);
    let ada = serde_json::json!({"email_address": "ada@example.com", "mobile_number": "4165550123",
        "note": "Checked the passport against the selfie"});
    env.client().call("note/create", &ada).assert_status(201);

    let cookie = signed_in(&env, "rev@example.com", password);
    let list = page(&env, "/dashboard/profiles", &cookie);
    let address = first_profile_link(&list);
    let shown = page(&env, &address, &cookie);
    assert_eq!(shown.status, 200, "{address}");
    let text = shown.text();
    for expected in [
        "Ada Lovelace",
        "ada@example.com",
        "1990-12-10",
        "•••-••-1234",
        "Passport",
        "Checked the passport against the selfie",
        "quiz_created",
        "document_uploaded",
    ] {
        assert!(text.contains(expected), "{expected} on the page: {text}");
    }
    assert!(!text.contains("536221234"), "the full SSN is not shown");

    // Another merchant's profile, by its real id: a 404 page, as for any unknown id.
    let other = env.server.create_merchant("Other");
    env.server
        .client(&other)
        .call("profile/create", &profile("zed@example.com", "4165550999"))
        .assert_status(201);
    reviewer_of(&env.server, &other.id, "them@example.com");
    let theirs_cookie = signed_in(&env, "them@example.com", password);
    let theirs = first_profile_link(&page(&env, "/dashboard/profiles", &theirs_cookie));
    assert_ne!(theirs, address);
    assert_eq!(page(&env, &theirs, &theirs_cookie).status, 200, "their own");
    let refused = page(&env, &theirs, &cookie);
    assert_eq!(refused.status, 404);
    assert!(!refused.text().contains("zed@example.com"));
    for odd in [
        "/dashboard/profiles/01NOSUCHPROFILE",
        "/dashboard/profiles/..%2F..%2Fetc",
    ] {
        assert_eq!(page(&env, odd, &cookie).status, 404, "{odd}");
    }
    assert_eq!(
        page(&env, &address, "").status,
        303,
        "a stranger signs in first"
    );

    // Deciding and noting, through forms that carry the CSRF token.
    let post = |path: &str, cookie: &str, body: String| post_form(&env, path, cookie, &body);
    let csrf = csrf_of(&shown);
    let status_path = format!("{address}/status");
    let refused = post(&status_path, &cookie, "status=Approved".into());
    assert_eq!(refused.status, 403, "no CSRF token");
    let theirs_csrf = csrf_of(&page(&env, &theirs, &theirs_cookie));
    let foreign = post(
        &status_path,
        &theirs_cookie,
        format!("csrf_token={theirs_csrf}&status=Declined"),
    );
    assert_eq!(foreign.status, 404, "another merchant's reviewer");
    let key =
        serde_json::json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    let status_now =
        || env.client().call("profile/get", &key).assert_status(200)["profile"]["status"].clone();
    assert_eq!(status_now(), "Pending", "refused posts changed nothing");
    // A stranger is sent to sign in; another merchant's reviewer finds no such profile;
    // values the forms do not allow are refused; none of it leaves a trace.
    let notes_path = format!("{address}/notes");
    for path in [&status_path, &notes_path] {
        let stranger = post(
            path,
            "",
            format!("csrf_token={csrf}&status=Declined&note=x"),
        );
        assert_eq!(stranger.status, 303, "{path}");
        assert_eq!(stranger.header("Location"), Some("/dashboard/login"));
    }
    let foreign_note = post(
        &notes_path,
        &theirs_cookie,
        format!("csrf_token={theirs_csrf}&note=Mine"),
    );
    assert_eq!(foreign_note.status, 404);
    assert!(!foreign_note.text().contains("ada@example.com"));
    assert_eq!(
        post(
            &status_path,
            &cookie,
            format!("csrf_token={csrf}&status=Bogus")
        )
        .status,
        400
    );
    assert_eq!(
        post(&notes_path, &cookie, format!("csrf_token={csrf}&note=")).status,
        400
    );
    assert_eq!(status_now(), "Pending");
    let untouched = env.client().call("note/read", &key);
    assert_eq!(
        untouched.assert_status(200)["notes"]
            .as_array()
            .map(Vec::len),
        Some(1),
        "only the API's note"
    );
    let done = post(
        &status_path,
        &cookie,
        format!("csrf_token={csrf}&status=Approved"),
    );
    assert_eq!(done.status, 303);
    assert_eq!(done.header("Location"), Some(address.as_str()));
    assert_eq!(status_now(), "Approved");
    let noted = post(
        &format!("{address}/notes"),
        &cookie,
        format!("csrf_token={csrf}&note=Verified+in+person"),
    );
    assert_eq!(noted.status, 303);
    let notes = env.client().call("note/read", &key);
    assert!(
        notes
            .assert_status(200)
            .to_string()
            .contains("Verified in person")
    );
    let log = env.client().call(
        "event/read",
        &serde_json::json!({
        "email_address": "ada@example.com", "mobile_number": "4165550123", "limit": 50}),
    );
    let events = log.assert_status(200)["events"]
        .as_array()
        .expect("events")
        .clone();
    for activity in ["profile_status_changed", "note_created"] {
        let event = events
            .iter()
            .find(|e| e["activity"] == activity)
            .unwrap_or_else(|| panic!("{activity} logged"));
        let details = event["details"].as_str().expect("details");
        assert!(
            details.ends_with("by rev@example.com"),
            "{activity}: {details}"
        );
    }
}
