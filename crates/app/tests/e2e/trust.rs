//! Trust (contract §8), tried as an attacker would: each attack of the trust issue, the
//! leak search over everything the service writes, limits, keys and permissions.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::Scenario;
use crate::auth::compat_signature;
use crate::client_pages::{send_quiz, upload, upload_side};
use crate::support::leaks::{assert_stored_sealed, contains, every_file_under};
use crate::support::{Backend, Env, Server, TestDatabase, jpeg, profile, with};

pub const SCENARIOS: &[Scenario] = &[
    (
        "a_signature_header_of_many_v1_values_is_refused_unread",
        many_v1_values,
    ),
    (
        "nulls_added_to_a_compat_signed_body_change_nothing",
        compat_nulls_change_nothing,
    ),
    (
        "a_field_post_answers_without_stored_values",
        field_post_reads_nothing_back,
    ),
    ("a_pdf_polyglot_is_refused", polyglot_refused),
    ("the_21st_document_of_a_link_is_refused", document_cap),
    (
        "a_side_uploaded_again_counts_toward_the_links_limit",
        replaced_side_counted,
    ),
    (
        "two_concurrent_field_posts_both_keep_their_values",
        concurrent_field_posts,
    ),
    (
        "no_ssn_licence_or_document_bytes_in_clear_anywhere_on_disk",
        nothing_in_clear,
    ),
    (
        "an_upload_to_an_unknown_link_is_answered_before_it_is_sent",
        upload_to_unknown_link_answered_early,
    ),
    ("the_api_is_limited_per_key", api_rate_limit),
    (
        "failed_authentications_are_limited_per_client_address",
        auth_failure_limit,
    ),
    ("a_key_limited_to_networks_refuses_others", key_allowlist),
    ("serve_refuses_a_wrong_master_key", wrong_master_key),
    (
        "the_data_directory_database_and_files_are_private",
        private_permissions,
    ),
    ("a_stalled_body_is_answered_408", stalled_body),
    (
        "a_deleted_profile_leaves_nothing_in_the_write_ahead_log",
        deletion_leaves_no_trace,
    ),
    (
        "a_quiz_sent_before_links_were_hashed_still_opens_after_the_upgrade",
        links_sent_before_hashing_still_open,
    ),
];

const PAIR: (&str, &str) = ("ada@example.com", "4165550123");

fn pair() -> Value {
    json!({"email_address": PAIR.0, "mobile_number": PAIR.1})
}

fn many_v1_values(backend: Backend) {
    let env = Env::start(backend);
    let body = pair().to_string();
    let t = crate::support::client::unix_now();
    let good = crate::support::sign_v1(
        &env.merchant.api_secret,
        t,
        "/api/v1/profile/get",
        body.as_bytes(),
    );
    let v1 = good
        .split_once(",v1=")
        .map(|(_, v)| v.to_owned())
        .expect("v1");
    let c = env.client();
    let send = |signature: &str| {
        c.send(
            "POST",
            "/api/v1/profile/get",
            &[("Api-Key", &env.merchant.api_key), ("Signature", signature)],
            body.as_bytes(),
        )
    };
    let empties = format!("t={t}{}", ",v1=".repeat(20_000));
    send(&empties).assert_error(401, &["SIGNATURE_INVALID"]);
    // Six values with the right one among them are refused too; five are not.
    send(&format!("t={t}{},v1={v1}", ",v1=00".repeat(5))).assert_error(401, &["SIGNATURE_INVALID"]);
    send(&format!("t={t}{},v1={v1}", ",v1=00".repeat(4))).assert_error(400, &["PROFILE_NOT_FOUND"]);
}

fn compat_nulls_change_nothing(backend: Backend) {
    let env = Env::start(backend);
    let body = with(
        with(profile(PAIR.0, PAIR.1), "ssn", json!("123456789")),
        "date_of_birth",
        json!("1980-02-03"),
    );
    env.client()
        .call("profile/create", &body)
        .assert_status(201);
    let compat = env.server.create_key(&env.merchant, true);
    let signed = r#"{"email_address":"ada@example.com","mobile_number":"4165550123","first_name":"Ada","last_name":"Lovelace"}"#;
    let query = "email_address=ada%40example.com&mobile_number=4165550123&first_name=Ada&last_name=Lovelace";
    let sig = compat_signature(&compat.api_secret, query);
    let c = env.client();
    let send = |raw: &str| {
        c.send(
            "POST",
            "/api/v1/profile/update",
            &[("Api-Key", &compat.api_key), ("Signature", &sig)],
            raw.as_bytes(),
        )
    };
    send(signed).assert_status(200);
    // The captured body, replayed with nulls and empty containers added: same signature.
    let tampered = r#"{"email_address":"ada@example.com","mobile_number":"4165550123","first_name":"Ada","last_name":"Lovelace","ssn":null,"date_of_birth":null,"address_line_1":[],"city":{}}"#;
    send(tampered).assert_status(200);
    let got = env.client().call("profile/get", &pair());
    let p = &got.assert_status(200)["profile"];
    assert_eq!(p["ssn"], "123456789", "{p}");
    assert_eq!(p["date_of_birth"], "1980-02-03");
}

fn post_fields(env: &Env, token: &str, body: Value) -> crate::support::Reply {
    env.client().send(
        "POST",
        &format!("/quiz/{token}/fields"),
        &[
            ("Accept", "application/json"),
            ("Content-Type", "application/json"),
        ],
        body.to_string().as_bytes(),
    )
}

fn field_post_reads_nothing_back(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = send_quiz(&env, json!({"ssn_submit": 1, "date_of_birth_submit": 1}));
    post_fields(
        &env,
        &token,
        json!({"ssn": "987654321", "date_of_birth": "1971-05-06"}),
    )
    .assert_status(200);
    // A holder of the link posts one field and hopes to read the others back.
    let reply = post_fields(&env, &token, json!({"date_of_birth": "1972-01-01"}));
    let text = reply.assert_status(200).to_string();
    for secret in ["987654321", "1971-05-06", "1972-01-01"] {
        assert!(!text.contains(secret), "{secret} echoed in {text}");
    }
    let page = env
        .client()
        .send("GET", &format!("/quiz/{token}"), &[], b"")
        .text();
    assert!(
        !page.contains("987654321") && !page.contains("1972-01-01"),
        "page shows a stored value"
    );
}

fn polyglot_refused(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = send_quiz(&env, json!({"passport_upload": 1}));
    let polyglot = b"<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(document.domain)</script></svg>\n%PDF-1.4\n%%EOF\n";
    upload(&env, &token, "passport_upload", &[("id.pdf", polyglot)])
        .assert_error(400, &["FILE_INVALID"]);
    assert!(
        env.server.stored_files().is_empty(),
        "nothing refused is kept"
    );
}

fn document_cap(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = send_quiz(&env, json!({"passport_upload": 1}));
    let photo = jpeg(200);
    for _ in 0..20 {
        upload(&env, &token, "passport_upload", &[("p.jpg", &photo)]).assert_status(200);
    }
    upload(&env, &token, "passport_upload", &[("p.jpg", &photo)])
        .assert_error(400, &["UPLOAD_LIMIT_REACHED"]);
    assert_eq!(env.server.stored_files().len(), 20);
}

fn replaced_side_counted(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = send_quiz(&env, json!({"driver_licence_upload": 1}));
    let photo = jpeg(200);
    // Each upload of the front replaces the one before, and counts as one more.
    for _ in 0..20 {
        upload_side(&env, &token, "driver_licence_upload", Some("front"), &photo)
            .assert_status(200);
    }
    upload_side(&env, &token, "driver_licence_upload", Some("front"), &photo)
        .assert_error(400, &["UPLOAD_LIMIT_REACHED"]);
    // Only the last front is kept; the replaced ones' files are gone with them.
    let kept = || env.server.stored_files().len();
    let deadline = Instant::now() + Duration::from_secs(10);
    while kept() != 1 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(kept(), 1);
}

fn concurrent_field_posts(backend: Backend) {
    let env = Env::start(backend);
    for round in 0..8 {
        let (email, mobile) = (
            format!("c{round}@example.com"),
            format!("41655501{round:02}"),
        );
        let body = with(
            profile(&email, &mobile),
            "template",
            json!({"list": {"address_submit": 1, "ssn_submit": 1}}),
        );
        let reply = env.client().call("quiz/create", &body);
        let long = reply.assert_status(201)["long_url"]
            .as_str()
            .expect("url")
            .to_owned();
        let token = long.rsplit('/').next().expect("token").to_owned();
        let address = json!({"address_line_1": "1 Main St", "city": "Toronto", "state": "ON", "postal": "M5V 2T6", "country": "CA"});
        std::thread::scope(|s| {
            let a = s.spawn(|| post_fields(&env, &token, address.clone()).status);
            let b = s.spawn(|| post_fields(&env, &token, json!({"ssn": "123456789"})).status);
            assert_eq!((a.join().expect("a"), b.join().expect("b")), (200, 200));
        });
        let got = env.client().call(
            "profile/get",
            &json!({"email_address": email, "mobile_number": mobile}),
        );
        let s = &got.assert_status(200)["profile"]["customer_submitted_form_fields"];
        assert_eq!(s["ssn"], "123456789", "round {round}: {s}");
        assert_eq!(
            s["address"], "1 Main St, Toronto, ON M5V 2T6, CA",
            "round {round}"
        );
    }
}

/// Nine random digits, not starting with 0 or 9.
fn random_digits(seed: u128) -> String {
    format!("{}{:08}", 1 + seed % 8, (seed / 7) % 100_000_000)
}

fn nothing_in_clear(backend: Backend) {
    let env = Env::start(backend);
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("time")
        .as_nanos();
    let ssn = random_digits(seed);
    let licence = format!("LIC{}", random_digits(seed / 3));
    let marker = format!("MARKER{}", random_digits(seed / 11));
    let body = with(
        with(
            with(profile(PAIR.0, PAIR.1), "ssn", json!(ssn)),
            "driver_licence_id",
            json!(licence),
        ),
        "date_of_birth",
        json!("1966-07-08"),
    );
    env.client()
        .call("profile/create", &body)
        .assert_status(201);
    let (token, long, tiny) = send_quiz(&env, json!({"ssn_submit": 1, "passport_upload": 1}));
    // The link's secrets open the quiz: they are kept as keyed hashes and sealed copies.
    let code = tiny.rsplit('/').next().expect("code").to_owned();
    post_fields(&env, &token, json!({"ssn": ssn})).assert_status(200);
    let mut photo = jpeg(4000);
    photo.extend_from_slice(marker.as_bytes());
    photo.extend(jpeg(3000).into_iter().skip(40));
    let uploaded = upload(&env, &token, "passport_upload", &[("p.jpg", &photo)]);
    let document_id = uploaded.assert_status(200)["document_id"]
        .as_str()
        .expect("id")
        .to_owned();

    // Submitted, the quiz is verified: its checks, the blind index of SSNs, its event and
    // the log hold nothing of the SSN, the date of birth or the licence number either.
    crate::client_pages::post_json(&env, &format!("/quiz/{token}/submit"), json!({}))
        .assert_status(200);
    let verification = crate::verification::completed(&env.client(), &long).to_string();
    for secret in [&*ssn, &licence, "1966-07-08"] {
        assert!(!verification.contains(secret), "{secret} in {verification}");
    }

    assert_stored_sealed(
        &env,
        &[&*ssn, &licence, &marker, &token, &code, "1966-07-08"],
    );
    // The merchant still reads everything, and downloads the exact bytes.
    let got = env.client().call("profile/get", &pair());
    let p = &got.assert_status(200)["profile"];
    assert_eq!(p["ssn"], ssn.as_str());
    assert_eq!(p["driver_licence_id"], licence.as_str());
    assert_eq!(p["customer_submitted_form_fields"]["ssn"], ssn.as_str());
    let doc = env.client().call(
        "document/get",
        &with(pair(), "document_id", json!(document_id)),
    );
    let file_id = doc.assert_status(200)["document"]["data"][0]["file_id"]
        .as_str()
        .expect("file id")
        .to_owned();
    let download = env.client().call(
        "document/download",
        &with(
            with(pair(), "document_id", json!(document_id)),
            "file_id",
            json!(file_id),
        ),
    );
    assert_eq!(download.status, 200);
    assert_eq!(download.bytes, photo, "the exact bytes uploaded");
}

fn upload_to_unknown_link_answered_early(backend: Backend) {
    let env = Env::start(backend);
    let address = env.server.base_url.trim_start_matches("http://").to_owned();
    let mut stream = TcpStream::connect(&address).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let declared = 40 * 1024 * 1024;
    let head = format!(
        "POST /quiz/{}/documents HTTP/1.1\r\nHost: {address}\r\nAccept: application/json\r\n\
         Content-Type: multipart/form-data; boundary=b\r\nContent-Length: {declared}\r\n\r\n",
        "x".repeat(43)
    );
    stream.write_all(head.as_bytes()).expect("head sent");
    // One MiB of the forty: the answer must come without the rest.
    stream.write_all(&vec![b'a'; 1024 * 1024]).ok();
    let started = Instant::now();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while !contains(&answer, "\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
    }
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 404"), "answer: {text}");
    assert!(started.elapsed() < Duration::from_secs(10));
}

fn api_rate_limit(backend: Backend) {
    let server = Server::start_with(
        TestDatabase::create(backend),
        &[("IDV_API_RATE_LIMIT", "2")],
    );
    let merchant = server.create_merchant("Acme");
    let other = server.create_key(&merchant, false);
    let c = server.client(&merchant);
    let replies: Vec<_> = (0..12).map(|_| c.call("profile/get", &pair())).collect();
    let limited: Vec<_> = replies.iter().filter(|r| r.status == 429).collect();
    assert!(!limited.is_empty(), "past the burst of 4, some are refused");
    assert!(
        replies.iter().take(4).all(|r| r.status == 400),
        "the burst passes"
    );
    let first = limited[0];
    first.assert_error(429, &["RATE_LIMITED"]);
    assert!(
        first
            .header("Retry-After")
            .is_some_and(|s| s.parse::<u64>().is_ok_and(|n| n >= 1))
    );
    // The budget is per key: another key of the same merchant is not limited.
    server
        .client(&other)
        .call("profile/get", &pair())
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
}

fn bad_signature(server: &Server, key: &str, forwarded: Option<&str>) -> crate::support::Reply {
    let merchant = crate::support::Merchant {
        id: String::new(),
        api_key: key.to_owned(),
        api_secret: "sec-wrong".to_owned(),
    };
    let body = pair().to_string();
    let t = crate::support::client::unix_now();
    let sig = crate::support::sign_v1("sec-wrong", t, "/api/v1/profile/get", body.as_bytes());
    let mut headers = vec![("Api-Key", key), ("Signature", sig.as_str())];
    if let Some(ip) = forwarded {
        headers.push(("X-Forwarded-For", ip));
    }
    server
        .client(&merchant)
        .send("POST", "/api/v1/profile/get", &headers, body.as_bytes())
}

fn auth_failure_limit(backend: Backend) {
    let server = Server::start_with(
        TestDatabase::create(backend),
        &[
            ("IDV_AUTH_FAILURE_LIMIT", "3"),
            ("IDV_TRUSTED_PROXIES", "127.0.0.0/8"),
        ],
    );
    let merchant = server.create_merchant("Acme");
    for _ in 0..3 {
        bad_signature(&server, &merchant.api_key, Some("203.0.113.7"))
            .assert_error(401, &["SIGNATURE_INVALID"]);
    }
    let limited = bad_signature(&server, &merchant.api_key, Some("203.0.113.7"));
    limited.assert_error(429, &["RATE_LIMITED"]);
    assert!(limited.header("Retry-After").is_some());
    // Behind the trusted proxy, another client address has its own budget...
    bad_signature(&server, &merchant.api_key, Some("203.0.113.8"))
        .assert_error(401, &["SIGNATURE_INVALID"]);
    // ...and failures never spend the key's own budget: its holder still gets through.
    server
        .client(&merchant)
        .call("profile/get", &pair())
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
}

fn key_allowlist(backend: Backend) {
    let env = Env::start(backend);
    let out = env.server.run(&[
        "merchant",
        "key",
        "create",
        "--merchant",
        &env.merchant.id,
        "--json",
        "--allow-ip",
        "10.0.0.0/8",
        "--allow-ip",
        "192.0.2.0/24",
    ]);
    let json: Value = serde_json::from_str(out.trim()).expect("json");
    let limited = crate::support::Merchant {
        id: env.merchant.id.clone(),
        api_key: json["api_key"].as_str().expect("key").to_owned(),
        api_secret: json["api_secret"].as_str().expect("secret").to_owned(),
    };
    let c = env.server.client(&limited);
    c.call("profile/get", &pair())
        .assert_error(403, &["IP_ADDRESS_DENIED"]);
    env.server.run(&[
        "merchant",
        "key",
        "allow-ip",
        "--key",
        &limited.api_key,
        "127.0.0.0/8",
    ]);
    // A server holds a key at most 1 s: the new list applies within that.
    let changed = std::time::Instant::now();
    let mut reply = c.call("profile/get", &pair());
    while reply.status == 403 && changed.elapsed() < std::time::Duration::from_millis(1500) {
        std::thread::sleep(std::time::Duration::from_millis(50));
        reply = c.call("profile/get", &pair());
    }
    reply.assert_error(400, &["PROFILE_NOT_FOUND"]);
}

fn wrong_master_key(backend: Backend) {
    let mut env = Env::start(backend);
    env.client()
        .call(
            "profile/create",
            &with(profile(PAIR.0, PAIR.1), "ssn", json!("123456789")),
        )
        .assert_status(201);
    env.server.kill();
    let out = env
        .server
        .idv()
        .env("IDV_MASTER_KEY", "11".repeat(32))
        .args(["serve", "--bind", "127.0.0.1:0"])
        .output()
        .expect("idv runs");
    assert!(!out.status.success(), "a wrong key must not serve");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("master key") && stderr.contains("fingerprint"),
        "{stderr}"
    );
    // Without any key (no variable, no key file) no new key is made for sealed data.
    let out = env
        .server
        .idv()
        .env_remove("IDV_MASTER_KEY")
        .args(["serve", "--bind", "127.0.0.1:0"])
        .output()
        .expect("idv runs");
    assert!(!out.status.success(), "no key: must not serve");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("a new key would"), "{stderr}");
    assert!(
        !env.server.db.data_dir.path().join("master.key").exists(),
        "no key file made"
    );
    // Nothing was touched: the right key serves the same data.
    env.server.restart();
    let got = env.client().call("profile/get", &pair());
    assert_eq!(got.assert_status(200)["profile"]["ssn"], "123456789");
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .expect("exists")
        .permissions()
        .mode()
        & 0o777
}

fn private_permissions(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = send_quiz(&env, json!({"passport_upload": 1}));
    upload(&env, &token, "passport_upload", &[("p.jpg", &jpeg(500))]).assert_status(200);
    let dir = env.server.db.data_dir.path();
    assert_eq!(mode(dir), 0o700, "data directory");
    if backend == Backend::Sqlite {
        assert_eq!(mode(&dir.join("idv.sqlite3")), 0o600, "database");
        for suffix in ["-wal", "-shm"] {
            let path = dir.join(format!("idv.sqlite3{suffix}"));
            if path.exists() {
                assert_eq!(mode(&path), 0o600, "{}", path.display());
            }
        }
    }
    let mut files = Vec::new();
    every_file_under(&dir.join("files"), &mut files);
    assert_eq!(files.len(), 1);
    assert_eq!(mode(&files[0]), 0o600, "stored file");
    assert_eq!(
        mode(files[0].parent().expect("shard")),
        0o700,
        "shard folder"
    );
}

fn stalled_body(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = send_quiz(&env, json!({"ssn_submit": 1}));
    let address = env.server.base_url.trim_start_matches("http://").to_owned();
    let mut stream = TcpStream::connect(&address).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let head = format!(
        "POST /quiz/{token}/fields HTTP/1.1\r\nHost: {address}\r\nAccept: application/json\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"ssn\":"
    );
    stream.write_all(head.as_bytes()).expect("sent");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "answer: {answer}");
    assert!(answer.contains("REQUEST_TIMEOUT"), "answer: {answer}");
}

fn deletion_leaves_no_trace(backend: Backend) {
    let env = Env::start(backend);
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("time")
        .as_nanos();
    let email = format!("erase{}@example.com", random_digits(seed));
    let mobile = format!("4165{}", &random_digits(seed / 13)[..6]);
    let name = format!("Zelda{}", random_digits(seed / 17));
    let key = json!({"email_address": email, "mobile_number": mobile});
    let body = with(profile(&email, &mobile), "first_name", json!(name));
    env.client()
        .call("profile/create", &body)
        .assert_status(201);
    let updated = with(body, "city", json!("Toronto"));
    env.client()
        .call("profile/update", &updated)
        .assert_status(200);
    env.client().call("profile/delete", &key).assert_status(200);
    env.client()
        .call("profile/get", &key)
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
    let mut files = Vec::new();
    every_file_under(env.server.db.data_dir.path(), &mut files);
    if backend == Backend::Sqlite {
        assert!(
            files.iter().any(|f| f.ends_with("idv.sqlite3")),
            "{files:?}"
        );
    }
    for file in &files {
        let bytes = std::fs::read(file).expect("readable");
        for trace in [&email, &mobile, &name] {
            assert!(
                !contains(&bytes, trace),
                "{trace} of a deleted profile in {}",
                file.display()
            );
        }
    }
}

/// Runs `sql` on the server's database behind its back, as an older version would have
/// left it.
fn raw_sql(server: &Server, sql: &str) {
    use diesel::connection::SimpleConnection;
    use diesel::{Connection, PgConnection, SqliteConnection};
    match &server.db.url {
        Some(url) => PgConnection::establish(url)
            .expect("PostgreSQL")
            .batch_execute(sql),
        None => {
            let file = server.db.data_dir.path().join("idv.sqlite3");
            SqliteConnection::establish(&file.display().to_string())
                .expect("SQLite")
                .batch_execute(sql)
        }
    }
    .expect("statements run");
}

fn links_sent_before_hashing_still_open(backend: Backend) {
    let mut env = Env::start(backend);
    let (token, long, tiny) = send_quiz(&env, json!({"ssn_submit": 1}));
    let code = tiny.rsplit('/').next().expect("code").to_owned();
    let before = env.client().call("quiz/get", &json!({"url": tiny}));
    let mut before = before.assert_status(200)["quiz"].clone();
    assert_eq!(before["long_url"], long.as_str());
    env.server.kill();
    // The database as the version before links were hashed left it: the quiz's token and
    // code in clear, the event's address in clear, migration 000011 not yet applied.
    raw_sql(
        &env.server,
        &format!(
            "ALTER TABLE quizzes DROP COLUMN sealed_code;
             ALTER TABLE quizzes DROP COLUMN sealed_token;
             ALTER TABLE quizzes RENAME COLUMN code_hash TO code;
             ALTER TABLE quizzes RENAME COLUMN token_hash TO token;
             UPDATE quizzes SET token = '{token}', code = '{code}';
             UPDATE events SET url = '{tiny}' WHERE url <> '';
             DELETE FROM __diesel_schema_migrations WHERE version LIKE '%000011';
             DELETE FROM data_migrations WHERE name = '2026-11-24-hash-quiz-links';"
        ),
    );
    env.server.restart();
    let page = env.client().send(
        "GET",
        &format!("/quiz/{token}"),
        &[("Accept", "application/json")],
        b"",
    );
    assert_eq!(page.assert_status(200)["status"], "active");
    // The restarted server listens on another port: its addresses keep their paths.
    let (long_path, short_path) = (format!("/quiz/{token}"), format!("/q/{code}"));
    let short = env.client().send("GET", &short_path, &[], b"");
    assert_eq!(short.status, 302);
    let location = short.header("Location").unwrap_or_default();
    assert!(location.ends_with(&long_path), "{location}");
    let after = env.client().call("quiz/get", &json!({"url": long}));
    let mut after = after.assert_status(200)["quiz"].clone();
    let ends = |url: &Value, path: &str| url.as_str().is_some_and(|u| u.ends_with(path));
    assert!(
        ends(&after["long_url"], &long_path) && ends(&after["tiny_url"], &short_path),
        "{after}"
    );
    for quiz in [&mut after, &mut before] {
        for field in ["long_url", "tiny_url"] {
            quiz[field] = Value::Null;
        }
    }
    assert_eq!(after, before, "the rest of the answer is as before");
    let events = env
        .client()
        .call("event/read", &with(pair(), "limit", json!(50)));
    assert!(
        events.assert_status(200)["events"]
            .as_array()
            .expect("events")
            .iter()
            .any(|e| e["activity"] == "quiz_created" && e["url"] == tiny.as_str()),
        "{}",
        events.body
    );
    // And the upgrade left neither in clear, in the database or its write-ahead log.
    let mut files = Vec::new();
    every_file_under(env.server.db.data_dir.path(), &mut files);
    for file in &files {
        let bytes = std::fs::read(file).expect("readable");
        for secret in [&token, &code] {
            assert!(
                !contains(&bytes, secret),
                "{secret} in clear in {}",
                file.display()
            );
        }
    }
}
