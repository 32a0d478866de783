//! The client's routes under abuse (contract §16), each tried the way the attack is made:
//! forms that are large or many-parted without being files, empty parts, images that
//! declare more pixels than any document has, invisible characters in typed text, and
//! field posts racing the quiz's submission.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

use crate::Scenario;
use crate::client_pages::{post_json, send_quiz, upload};
use crate::support::{Backend, Env, Part, jpeg, multipart, with};

pub const SCENARIOS: &[Scenario] = &[
    (
        "every_part_of_an_upload_counts_toward_its_40_mib",
        parts_count_toward_the_limit,
    ),
    (
        "an_upload_of_more_than_ten_parts_is_refused",
        at_most_ten_parts,
    ),
    (
        "an_empty_file_part_stores_nothing",
        empty_part_stores_nothing,
    ),
    (
        "an_image_declaring_more_than_50_megapixels_is_refused_undecoded",
        huge_images_refused,
    ),
    (
        "typed_text_refuses_bidi_and_zero_width_characters_and_is_stored_composed",
        typed_text_is_visible_and_composed,
    ),
    (
        "field_posts_racing_submit_are_written_before_it_or_refused",
        field_posts_race_submit,
    ),
    (
        "the_api_refuses_bidi_zero_width_and_blank_characters_in_names_and_stores_them_composed",
        api_names_are_visible_and_composed,
    ),
];

const PAIR: (&str, &str) = ("ada@example.com", "4165550123");

fn pair() -> Value {
    json!({"email_address": PAIR.0, "mobile_number": PAIR.1})
}

/// An answer read off the wire: status and JSON body.
struct RawAnswer {
    status: u16,
    body: Value,
}

impl RawAnswer {
    fn codes(&self) -> Vec<String> {
        self.body["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e["code"].as_str().map(str::to_owned))
            .collect()
    }
}

/// Posts `body` on a connection of its own, sending it from another thread while the
/// answer is read, as a script that streams a large form does: the server may answer
/// (and stop reading) long before the body is all sent.
fn post_raw(env: &Env, path: &str, content_type: &str, body: Vec<u8>) -> RawAnswer {
    let address = env.server.base_url.trim_start_matches("http://").to_owned();
    let mut stream = TcpStream::connect(&address).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nAccept: application/json\r\n\
         Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("head sent");
    let mut writer = stream.try_clone().expect("clone");
    let sender = std::thread::spawn(move || {
        for piece in body.chunks(64 * 1024) {
            if writer.write_all(piece).is_err() {
                break;
            }
        }
    });
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut status_line = String::new();
    reader.read_line(&mut status_line).expect("status line");
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {status_line:?}"));
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("header");
        if line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().expect("length");
        }
    }
    let mut bytes = vec![0; length];
    reader.read_exact(&mut bytes).expect("body");
    let _ = stream.shutdown(Shutdown::Both);
    sender.join().expect("sender");
    RawAnswer {
        status,
        body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    }
}

fn documents_of_ada(env: &Env) -> u64 {
    let reply = env
        .client()
        .call("document/read", &with(pair(), "limit", json!(50)));
    reply.assert_status(200)["total_count"]
        .as_u64()
        .expect("count")
}

/// A form of `step`, one real photo, then `fillers` parts the route does not read.
fn form_with_fillers(fillers: &[String]) -> (String, Vec<u8>) {
    let photo = jpeg(500);
    let mut parts = vec![
        ("step", Part::Text("passport_upload")),
        (
            "file",
            Part::File {
                name: "p.jpg",
                bytes: &photo,
            },
        ),
    ];
    parts.extend(fillers.iter().map(|f| ("note", Part::Text(f))));
    multipart(&parts)
}

fn parts_count_toward_the_limit(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = send_quiz(&env, json!({"passport_upload": 1}));
    // Eight parts of 7.5 MiB that are no file, after a real photo: 60 MiB in ten parts.
    let filler = "a".repeat(15 * 512 * 1024);
    let (content_type, body) = form_with_fillers(&vec![filler; 8]);
    assert!(body.len() > 60 * 1024 * 1024);
    let answer = post_raw(
        &env,
        &format!("/quiz/{token}/documents"),
        &content_type,
        body,
    );
    assert_eq!(answer.status, 413, "{}", answer.body);
    assert_eq!(answer.codes(), ["REQUEST_TOO_LARGE"]);
    assert!(
        env.server.stored_files().is_empty(),
        "the photo sent first is removed again"
    );
    assert_eq!(documents_of_ada(&env), 0);
    // The same form with small fillers is taken.
    let (content_type, body) = form_with_fillers(&vec!["note".to_owned(); 8]);
    let taken = post_raw(
        &env,
        &format!("/quiz/{token}/documents"),
        &content_type,
        body,
    );
    assert_eq!(taken.status, 200, "{}", taken.body);
    assert_eq!(documents_of_ada(&env), 1);
}

fn at_most_ten_parts(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = send_quiz(&env, json!({"passport_upload": 1}));
    let path = format!("/quiz/{token}/documents");
    // 60 MiB of one-KiB parts, each under any size a part could be refused for.
    let (content_type, body) = form_with_fillers(&vec!["a".repeat(1024); 60 * 1024]);
    let answer = post_raw(&env, &path, &content_type, body);
    assert_eq!(answer.status, 413, "{}", answer.body);
    assert_eq!(answer.codes(), ["REQUEST_TOO_LARGE"]);
    // Eleven small parts: refused; ten: taken.
    let (content_type, body) = form_with_fillers(&vec!["note".to_owned(); 9]);
    let answer = post_raw(&env, &path, &content_type, body);
    assert_eq!(answer.status, 413, "{}", answer.body);
    assert!(
        answer.body["errors"][0]["description"]
            .as_str()
            .is_some_and(|d| d.contains("10 parts")),
        "{}",
        answer.body
    );
    assert!(env.server.stored_files().is_empty());
    assert_eq!(documents_of_ada(&env), 0);
    let (content_type, body) = form_with_fillers(&vec!["note".to_owned(); 8]);
    assert_eq!(post_raw(&env, &path, &content_type, body).status, 200);
    assert_eq!(documents_of_ada(&env), 1);
}

/// Every file and folder under the data directory but the database's own files and the
/// server's log, which change with any request.
fn data_dir_entries(dir: &Path) -> BTreeSet<PathBuf> {
    fn walk(dir: &Path, out: &mut BTreeSet<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with("idv.sqlite3") || name == "server.log" {
                continue;
            }
            out.insert(path.clone());
            if path.is_dir() {
                walk(&path, out);
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(dir, &mut out);
    out
}

fn empty_part_stores_nothing(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = send_quiz(&env, json!({"passport_upload": 1}));
    let data_dir = env.server.db.data_dir.path();
    let before = data_dir_entries(data_dir);
    // A browser's form with its file input left empty: a part with no bytes.
    upload(&env, &token, "passport_upload", &[("", b"")]).assert_error(400, &["FILE_REQUIRED"]);
    assert_eq!(data_dir_entries(data_dir), before, "no file or folder made");
    assert_eq!(documents_of_ada(&env), 0);
    // Beside a real photo, the empty part adds nothing to the document.
    let reply = upload(
        &env,
        &token,
        "passport_upload",
        &[("", b""), ("p.jpg", &jpeg(300)), ("", b"")],
    );
    let document_id = reply.assert_status(200)["document_id"]
        .as_str()
        .expect("id")
        .to_owned();
    let got = env.client().call(
        "document/get",
        &with(pair(), "document_id", json!(document_id)),
    );
    let files = got.assert_status(200)["document"]["data"]
        .as_array()
        .expect("files")
        .len();
    assert_eq!(files, 1);
    assert_eq!(env.server.stored_files().len(), 1);
}

fn huge_images_refused(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = send_quiz(&env, json!({"passport_upload": 1}));
    let bomb = fixtures::degrade::png_bomb();
    assert!(bomb.len() < 1024 * 1024, "{} bytes", bomb.len());
    let reply = upload(&env, &token, "passport_upload", &[("scan.png", &bomb)]);
    reply.assert_error(400, &["FILE_INVALID"]);
    assert!(reply.text().contains("50 megapixels"), "{}", reply.text());
    // A JPEG whose frame header declares 65535 x 65535.
    let mut jpeg_bomb = jpeg(500);
    jpeg_bomb[25..29].copy_from_slice(&[0xFF, 0xFF, 0xFF, 0xFF]);
    upload(&env, &token, "passport_upload", &[("scan.jpg", &jpeg_bomb)])
        .assert_error(400, &["FILE_INVALID"]);
    assert!(
        env.server.stored_files().is_empty(),
        "nothing refused is kept"
    );
    assert_eq!(documents_of_ada(&env), 0);
    // An image of an ordinary size is taken.
    upload(
        &env,
        &token,
        "passport_upload",
        &[(
            "id.png",
            &fixtures::degrade::png(&image::RgbImage::new(2_000, 2_000)),
        )],
    )
    .assert_status(200);
    upload(&env, &token, "passport_upload", &[("id.jpg", &jpeg(500))]).assert_status(200);
    assert_eq!(documents_of_ada(&env), 2);
}

fn documents_named(env: &Env, name: &str) -> Vec<Value> {
    let reply = env
        .client()
        .call("document/read", &with(pair(), "limit", json!(50)));
    reply.assert_status(200)["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .filter(|d| d["name"] == name)
        .cloned()
        .collect()
}

fn typed_text_is_visible_and_composed(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = send_quiz(&env, json!({"agreement_sign": 1, "address_submit": 1}));
    let agreement = format!("/quiz/{token}/agreement");
    // "Ada " then a right-to-left override: a reviewer would read "Ada Lovelace".
    let spoofed = "Ada \u{202E}ecalevoL";
    post_json(
        &env,
        &agreement,
        json!({"full_name": spoofed, "consent": true}),
    )
    .assert_error(400, &["FULL_NAME_INVALID"]);
    // Zero-width, a line separator inside the name, and names that show as nothing: a
    // Hangul filler, the blank Braille pattern (an invisible signature).
    for hidden in [
        "Ada\u{200B} Lovelace",
        "Ada\u{2028}Lovelace",
        "\u{3164}",
        "\u{2800}\u{2800}",
    ] {
        post_json(
            &env,
            &agreement,
            json!({"full_name": hidden, "consent": true}),
        )
        .assert_error(400, &["FULL_NAME_INVALID"]);
    }
    let address = json!({"address_line_1": "1 Main St\u{2066}", "city": "Toronto", "state": "ON", "postal": "M5V 2T6", "country": "CA"});
    post_json(&env, &format!("/quiz/{token}/fields"), address)
        .assert_error(400, &["ADDRESS_LINE_1_INVALID"]);
    assert!(documents_named(&env, "agreement_sign").is_empty());
    let profile = env.client().call("profile/get", &pair());
    assert!(
        profile.assert_status(200)["profile"]["customer_submitted_form_fields"]["address"]
            .is_null(),
        "{}",
        profile.body
    );

    // Typed decomposed ("e" then a combining acute accent), stored composed.
    post_json(
        &env,
        &agreement,
        json!({"full_name": "Rene\u{301}e Lovelace", "consent": true}),
    )
    .assert_status(200);
    let address = json!({"address_line_1": "1 Rue Sainte-Catherine", "city": "Montre\u{301}al", "state": "QC", "postal": "H2X 1Z4", "country": "CA"});
    post_json(&env, &format!("/quiz/{token}/fields"), address).assert_status(200);
    let signed = documents_named(&env, "agreement_sign");
    assert_eq!(signed.len(), 1);
    let document_id = signed[0]["id"].as_str().expect("id");
    let got = env.client().call(
        "document/get",
        &with(pair(), "document_id", json!(document_id)),
    );
    assert_eq!(
        got.assert_status(200)["document"]["data"][0]["signed_name"],
        "Ren\u{E9}e Lovelace",
        "{}",
        got.body
    );
    let profile = env.client().call("profile/get", &pair());
    assert_eq!(
        profile.assert_status(200)["profile"]["customer_submitted_form_fields"]["address"],
        "1 Rue Sainte-Catherine, Montr\u{E9}al, QC H2X 1Z4, CA"
    );
}

fn stored_ssn(env: &Env) -> Value {
    let got = env.client().call("profile/get", &pair());
    got.assert_status(200)["profile"]["customer_submitted_form_fields"]["ssn"].clone()
}

/// Every activity of Ada's log, paged through.
fn activities(env: &Env) -> Vec<String> {
    let mut all = Vec::new();
    loop {
        let page = env.client().call(
            "event/read",
            &with(with(pair(), "offset", json!(all.len())), "limit", json!(50)),
        );
        let events = page.assert_status(200)["events"]
            .as_array()
            .expect("events")
            .clone();
        if events.is_empty() {
            return all;
        }
        all.extend(
            events
                .iter()
                .map(|e| e["activity"].as_str().expect("activity").to_owned()),
        );
    }
}

/// On SQLite, the log's activities in the order its one writer inserted them (rowid
/// order); `None` on PostgreSQL, where the value read after the submission is the witness.
fn write_order(env: &Env) -> Option<Vec<String>> {
    use diesel::{Connection, QueryableByName, RunQueryDsl, SqliteConnection};
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Text)]
        activity: String,
    }
    if env.server.db.url.is_some() {
        return None;
    }
    let file = env.server.db.data_dir.path().join("idv.sqlite3");
    let mut conn = SqliteConnection::establish(&file.display().to_string()).expect("SQLite");
    let rows: Vec<Row> = diesel::sql_query("SELECT activity FROM events ORDER BY rowid")
        .load(&mut conn)
        .expect("events");
    Some(rows.into_iter().map(|r| r.activity).collect())
}

/// One field post of the race: the value it sent, its answer, and whether it was sent
/// after the submission had been acknowledged.
struct Post {
    ssn: String,
    status: u16,
    codes: Vec<String>,
    sent_after_submit: bool,
}

/// Counts a client thread as stopped when it ends, by returning or by panicking.
struct Stopped<'a>(&'a AtomicUsize);

impl Drop for Stopped<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn field_posts_race_submit(backend: Backend) {
    // The race sends more posts than the per-address budget of the client's pages, from
    // 41 connections of one address that open and close faster than a loaded server
    // counts them closed, and each post is an event the checks then page through
    // (hundreds of `event/read` calls on a fast machine: past the API's burst).
    let env = Env::start_with(
        backend,
        &[
            ("IDV_CLIENT_RATE_LIMIT", "0"),
            ("IDV_API_RATE_LIMIT", "0"),
            ("IDV_MAX_CONNECTIONS_PER_ADDRESS", "0"),
        ],
    );
    let (token, long_url, _) = send_quiz(&env, json!({"ssn_submit": 1}));
    let fields = format!("/quiz/{token}/fields");
    post_json(&env, &fields, json!({"ssn": "300000000"})).assert_status(200);
    let acknowledged = AtomicUsize::new(0);
    let submitted = AtomicBool::new(false);
    let posts = Mutex::new(Vec::new());
    // Clients that stopped, refused or not (a client whose post fails panics, and the
    // scope reports it once every client has stopped).
    let stopped = AtomicUsize::new(0);
    let mut after_submit = Vec::new();
    let mut posted_enough = false;
    std::thread::scope(|s| {
        // 40 clients post their own values, again and again, until they are refused.
        for client in 0..40 {
            let (env, fields, acknowledged, submitted, posts) =
                (&env, &fields, &acknowledged, &submitted, &posts);
            let stopped = Stopped(&stopped);
            s.spawn(move || {
                let _stopped = stopped;
                for round in 0.. {
                    let ssn = format!("3{client:02}{round:06}");
                    let sent_after_submit = submitted.load(Ordering::SeqCst);
                    let reply = post_json(env, fields, json!({ "ssn": ssn }));
                    let post = Post {
                        ssn,
                        status: reply.status,
                        codes: reply.codes(),
                        sent_after_submit,
                    };
                    let refused = post.status != 200;
                    if !refused {
                        acknowledged.fetch_add(1, Ordering::SeqCst);
                    }
                    posts.lock().expect("posts").push(post);
                    if refused {
                        return;
                    }
                }
            });
        }
        // Once 40 posts went through, with all 40 clients still posting, the quiz is
        // submitted; what is stored is read from the moment the submission is
        // acknowledged until every client has stopped. (Submitted after a minute whatever
        // happened, so that clients still posting stop and the test fails, not hangs.)
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !posted_enough && std::time::Instant::now() < deadline {
            posted_enough = acknowledged.load(Ordering::SeqCst) >= 40;
            std::thread::yield_now();
        }
        env.client()
            .send(
                "POST",
                &format!("/quiz/{token}/submit"),
                &[("Accept", "application/json")],
                b"",
            )
            .assert_status(200);
        submitted.store(true, Ordering::SeqCst);
        after_submit.push(stored_ssn(&env));
        while stopped.load(Ordering::SeqCst) < 40 {
            after_submit.push(stored_ssn(&env));
        }
    });
    assert!(posted_enough, "40 posts acknowledged before the submission");
    let posts = posts.into_inner().expect("posts");
    for post in &posts {
        assert!(
            post.status == 200 || post.codes == ["QUIZ_SUBMITTED"],
            "{} answered {} {:?}",
            post.ssn,
            post.status,
            post.codes
        );
        assert!(
            !(post.sent_after_submit && post.status == 200),
            "{} was taken after the submission was acknowledged",
            post.ssn
        );
    }
    assert_eq!(
        posts.iter().filter(|p| p.status != 200).count(),
        40,
        "each client ends refused"
    );
    // Nothing was written once the submission had committed...
    let stored = stored_ssn(&env);
    for seen in &after_submit {
        assert_eq!(*seen, stored, "a value was written after submit");
    }
    // ...what is stored was acknowledged, and every acknowledged post was written.
    let taken: Vec<&Post> = posts.iter().filter(|p| p.status == 200).collect();
    assert!(
        taken.iter().any(|p| stored == p.ssn.as_str()),
        "{stored} was never acknowledged"
    );
    // The submission queued a verification whose event lands at the newest end of the
    // log: read the log, page by page, only once it has (else a page could show an event
    // of the page before again).
    crate::verification::completed(&env.client(), &long_url);
    let activities = activities(&env);
    let written = activities
        .iter()
        .filter(|a| *a == "form_fields_submitted")
        .count();
    assert_eq!(written, taken.len() + 1, "one event per acknowledged post");
    assert_eq!(
        activities.iter().filter(|a| *a == "quiz_submitted").count(),
        1
    );
    if let Some(order) = write_order(&env) {
        let submitted = order.iter().position(|a| a == "quiz_submitted");
        let after: Vec<_> = order[submitted.expect("submitted") + 1..].iter().collect();
        assert!(
            !after.contains(&&"form_fields_submitted".to_owned()),
            "fields written after the submission: {after:?}"
        );
    }
}

fn api_names_are_visible_and_composed(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    let named = |field: &str, value: &str| {
        let mut body = json!({
            "email_address": PAIR.0,
            "mobile_number": PAIR.1,
            "first_name": "Ada",
            "last_name": "Lovelace",
        });
        body[field] = json!(value);
        client.call("profile/create", &body)
    };
    for (field, hidden) in [
        ("first_name", "Ada\u{202E}ecalevoL"),
        ("last_name", "Love\u{200D}lace"),
        ("middle_name", "\u{3164}"),
        ("city", "Toronto\u{2028}Ontario"),
        ("address_line_1", "1 Main St\u{2066}"),
    ] {
        let code = format!("{}_INVALID", field.to_uppercase());
        named(field, hidden).assert_error(400, &[code.as_str()]);
    }
    assert_eq!(
        client.call("profile/get", &pair()).status,
        400,
        "nothing was created"
    );
    // A name typed decomposed is stored composed.
    named("first_name", "Rene\u{301}e").assert_status(201);
    let got = client.call("profile/get", &pair());
    assert_eq!(
        got.assert_status(200)["profile"]["first_name"],
        "Ren\u{E9}e"
    );
}
