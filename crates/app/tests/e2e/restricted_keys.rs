//! Read-only API keys (contract §15): such a key calls every operation that reads, and
//! every other answers 403 `KEY_READ_ONLY` after authentication, changing nothing.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::Scenario;
use crate::client_pages::{post_json, standard_quiz, upload};
use crate::dashboard::{admin_of, page, signed_in};
use crate::support::client::unix_now;
use crate::support::{Backend, Client, Env, Receiver, jpeg, profile, sign_v1, with};
use crate::webhooks::{ALLOW_PRIVATE, deliveries, register};

pub const SCENARIOS: &[Scenario] = &[
    (
        "a_read_only_key_reads_everything_and_every_write_is_key_read_only_changing_nothing",
        reads_but_never_writes,
    ),
    (
        "a_read_only_key_is_named_by_the_cli_and_in_the_dashboards_key_list",
        named_where_keys_are_shown,
    ),
];

/// What the operations are called about: one of each kind of object.
struct Objects {
    template_id: String,
    long_url: String,
    document_id: String,
    file_id: String,
    file: Vec<u8>,
    webhook_id: String,
    delivery_id: String,
}

fn ada(extra: Value) -> Value {
    let mut body = json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    for (k, v) in extra.as_object().expect("object") {
        body[k] = v.clone();
    }
    body
}

/// Every operation that reads but the download (its answer is bytes), with a body.
fn reads(o: &Objects) -> Vec<(&'static str, Value)> {
    let page = json!({"offset": 0, "limit": 50});
    vec![
        ("profile/get", ada(json!({}))),
        ("profile/read", page.clone()),
        ("template/get", json!({"template_id": o.template_id})),
        ("template/read", page.clone()),
        ("quiz/get", json!({"url": o.long_url})),
        ("quiz/read", page.clone()),
        ("document/get", ada(json!({"document_id": o.document_id}))),
        ("document/read", ada(page.clone())),
        ("note/read", ada(page.clone())),
        ("event/read", ada(page.clone())),
        ("merchant/settings/get", json!({})),
        ("webhook/read", page.clone()),
        (
            "webhook/delivery/read",
            json!({"webhook_id": o.webhook_id, "limit": 50}),
        ),
        ("verification/get", json!({"url": o.long_url})),
        ("verification/read", ada(page.clone())),
        ("screening/get", ada(json!({}))),
    ]
}

/// Every operation that writes, with a body that a full key would have it carry out.
fn writes(o: &Objects, receiver: &str) -> Vec<(&'static str, Value)> {
    let list = json!({"passport_upload": 1, "selfie_upload": 2});
    vec![
        ("profile/create", profile("grace@example.com", "4165550199")),
        ("profile/update", ada(json!({"first_name": "Augusta"}))),
        ("profile/update-status", ada(json!({"status": "Approved"}))),
        ("profile/delete", ada(json!({}))),
        (
            "template/create",
            json!({"template_name": "Second", "list": list}),
        ),
        (
            "template/update",
            json!({"template_id": o.template_id, "template_name": "Renamed"}),
        ),
        (
            "quiz/create",
            with(ada(json!({})), "template", json!({"list": list})),
        ),
        ("quiz/expire", json!({"url": o.long_url})),
        (
            "quiz/extend",
            json!({"url": o.long_url, "quiz_expiry_days": 9}),
        ),
        ("quiz/delete", json!({"url": o.long_url})),
        (
            "document/update-status",
            ada(json!({"document_id": o.document_id, "status": "Approved"})),
        ),
        (
            "document/delete",
            ada(json!({"document_id": o.document_id})),
        ),
        ("note/create", ada(json!({"note": "Written by a reader"}))),
        ("merchant/settings/update", json!({"quiz_expiry_days": 12})),
        ("webhook/create", json!({"url": receiver})),
        (
            "webhook/update",
            json!({"webhook_id": o.webhook_id, "description": "changed", "enabled": 0}),
        ),
        ("webhook/delete", json!({"webhook_id": o.webhook_id})),
        ("webhook/rotate-secret", json!({"webhook_id": o.webhook_id})),
        (
            "webhook/delivery/retry",
            json!({"delivery_id": o.delivery_id}),
        ),
        ("verification/rerun", json!({"url": o.long_url})),
        (
            "screening/dispose",
            ada(json!({"list": "own", "entry_id": "L-1", "disposition": "confirmed"})),
        ),
    ]
}

/// An answer without the envelope's fields, which differ on every request.
fn payload(mut body: Value) -> Value {
    if let Some(fields) = body.as_object_mut() {
        for volatile in [
            "http_status_code",
            "query_reference_id",
            "response_time",
            "query_at",
        ] {
            fields.remove(volatile);
        }
    }
    body
}

/// `value` with every quiz address in it redacted, as a read-only key is shown it: the
/// token of `.../quiz/{token}` and the code of `.../q/{code}` become `redacted`.
fn without_quiz_secrets(value: Value) -> Value {
    match value {
        Value::String(text) => Value::String(
            ["/quiz/", "/q/"]
                .iter()
                .find_map(|marker| {
                    let at = text.rfind(marker)?;
                    text.starts_with("http")
                        .then(|| format!("{}{marker}redacted", &text[..at]))
                })
                .unwrap_or(text),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_quiz_secrets).collect()),
        Value::Object(fields) => Value::Object(
            fields
                .into_iter()
                .map(|(k, v)| (k, without_quiz_secrets(v)))
                .collect(),
        ),
        other => other,
    }
}

/// What every read shows, and the file's bytes.
fn state(c: &Client, o: &Objects) -> (Vec<(&'static str, Value)>, Vec<u8>) {
    let shown = reads(o)
        .into_iter()
        .map(|(op, body)| {
            let reply = c.call(op, &body);
            (op, payload(reply.assert_status(200).clone()))
        })
        .collect();
    let download = c.call(
        "document/download",
        &ada(json!({"document_id": o.document_id, "file_id": o.file_id})),
    );
    assert_eq!(download.status, 200, "{}", download.body);
    (shown, download.bytes)
}

/// One of each object, made with the full key, every webhook delivery settled.
fn objects(env: &Env, receiver: &Receiver) -> Objects {
    let c = env.client();
    let (webhook_id, _) = register(env, &receiver.url(), None);
    let (token, long_url, _) = standard_quiz(env);
    let file = jpeg(20_000);
    let uploaded = upload(env, &token, "passport_upload", &[("passport.jpg", &file)]);
    let document_id = uploaded.assert_status(200)["document_id"]
        .as_str()
        .expect("document id")
        .to_owned();
    let got = c.call("document/get", &ada(json!({"document_id": document_id})));
    let file_id = got.assert_status(200)["document"]["data"][0]["file_id"]
        .as_str()
        .expect("file id")
        .to_owned();
    // Screened against a list of the merchant's own, so that it has a screening to read.
    c.call("merchant/settings/update", &json!({"screening": 1}))
        .assert_status(200);
    let list = env.server.db.data_dir.path().join("own.csv");
    std::fs::write(
        &list,
        "id,name,aliases,date_of_birth,country\nL-1,Ada Lovelace,,,\n",
    )
    .expect("a list written");
    let imported = env
        .server
        .idv()
        .args(["screening", "import", "--list", "own", "--kind", "internal"])
        .args(["--format", "csv"])
        .arg(&list)
        .output()
        .expect("idv runs");
    assert!(imported.status.success(), "{imported:?}");
    // Submitted, so that it has a verification to read; read once it completed.
    let quiz = |step: &str, body: Value| {
        post_json(env, &format!("/quiz/{token}/{step}"), body).assert_status(200);
    };
    quiz(
        "fields",
        json!({"address_line_1": "1 Main St", "city": "Toronto", "postal": "M5V 2T6", "country": "CA"}),
    );
    quiz(
        "agreement",
        json!({"full_name": "Ada Lovelace", "consent": true}),
    );
    quiz("submit", json!({}));
    crate::verification::completed(&c, &long_url);
    let template = c.call(
        "template/create",
        &json!({"template_name": "KYC", "list": {"passport_upload": 1}}),
    );
    let template_id = template.assert_status(201)["template_id"]
        .as_str()
        .expect("template id")
        .to_owned();
    c.call("note/create", &ada(json!({"note": "Called back"})))
        .assert_status(201);
    // Deliveries in flight would change what is read between two looks.
    let deadline = Instant::now() + Duration::from_secs(20);
    let settled = loop {
        let listed = deliveries(env, &webhook_id);
        if !listed.is_empty() && listed.iter().all(|d| d["status"] == "succeeded") {
            break listed;
        }
        assert!(Instant::now() < deadline, "deliveries settle: {listed:?}");
        std::thread::sleep(Duration::from_millis(100));
    };
    Objects {
        template_id,
        long_url,
        document_id,
        file_id,
        file,
        webhook_id,
        delivery_id: settled[0]["delivery_id"]
            .as_str()
            .expect("delivery id")
            .to_owned(),
    }
}

/// The operations the served OpenAPI document lists, split by whether a read-only key is
/// refused them (its 403 names `KEY_READ_ONLY`).
fn documented(env: &Env) -> (Vec<String>, Vec<String>) {
    let doc = env
        .client()
        .send("GET", "/api/v1/openapi.json", &[], b"")
        .assert_status(200)
        .clone();
    let (mut reading, mut writing) = (Vec::new(), Vec::new());
    for (path, item) in doc["paths"].as_object().expect("paths") {
        let op = path.trim_start_matches("/api/v1/").to_owned();
        let forbidden = item["post"]["responses"]["403"]["description"]
            .as_str()
            .unwrap_or_else(|| panic!("{path} documents its 403"));
        if forbidden.contains("KEY_READ_ONLY") {
            writing.push(op);
        } else {
            reading.push(op);
        }
    }
    reading.sort();
    writing.sort();
    (reading, writing)
}

fn sorted_names(calls: &[(&'static str, Value)]) -> Vec<String> {
    let mut names: Vec<String> = calls.iter().map(|(op, _)| (*op).to_owned()).collect();
    names.sort();
    names
}

fn reads_but_never_writes(backend: Backend) {
    let env = Env::start_with(backend, &[ALLOW_PRIVATE]);
    let receiver = Receiver::start();
    let o = objects(&env, &receiver);
    let full = env.client();
    let (reader, printed) = env.server.create_key_with(&env.merchant, &["--read-only"]);
    assert_eq!(printed["access"], "read_only", "{printed}");
    let reader_client = env.server.client(&reader);

    // This test covers every operation the API serves, each on the side it belongs to.
    let (documented_reads, documented_writes) = documented(&env);
    let mut covered_reads = sorted_names(&reads(&o));
    covered_reads.push("document/download".to_owned());
    covered_reads.sort();
    assert_eq!(covered_reads, documented_reads);
    assert_eq!(
        sorted_names(&writes(&o, &receiver.url())),
        documented_writes
    );

    // The read-only key reads exactly what the full key reads, but the quiz addresses:
    // a link lets its holder act as the client, and it is shown without its token and
    // code, which gets nowhere.
    let before = state(&full, &o);
    assert_eq!(before.1, o.file, "the uploaded bytes");
    let read = state(&reader_client, &o);
    assert_eq!(read.1, before.1);
    for ((op, seen), (_, whole)) in read.0.iter().zip(&before.0) {
        assert_eq!(*seen, without_quiz_secrets(whole.clone()), "{op}");
    }
    let shown = reader_client.call("quiz/get", &json!({"url": o.long_url}));
    let shown = shown.assert_status(200)["quiz"].clone();
    for field in ["long_url", "tiny_url"] {
        let address = shown[field].as_str().expect("an address");
        assert!(address.ends_with("/redacted"), "{field}: {address}");
        let path = address.split_once("//").map_or(address, |(_, rest)| rest);
        let path = &path[path.find('/').unwrap_or(0)..];
        let page = reader_client.send("GET", path, &[], b"");
        assert_eq!(page.status, 404, "{address} leads nowhere");
    }

    for (op, body) in writes(&o, &receiver.url()) {
        let reply = reader_client.call(op, &body);
        reply.assert_error(403, &["KEY_READ_ONLY"]);
        assert_eq!(
            reply.body["errors"][0]["description"], "This API key may only read.",
            "{op}"
        );
        assert_eq!(reply.header("Cache-Control"), Some("no-store"), "{op}");
    }
    // Refused before the body is read: an invalid one changes nothing either.
    reader_client
        .call("profile/delete", &json!({"email_address": 7}))
        .assert_error(403, &["KEY_READ_ONLY"]);
    // The path is the handler's, not a string to play with: variants serve nothing.
    for path in [
        "/api/v1/profile/delete/",
        "/api/v1//profile/delete",
        "/api/v1/profile/get/../delete",
        "/api/v1/PROFILE/DELETE",
    ] {
        let raw = ada(json!({})).to_string();
        let signature = sign_v1(&reader.api_secret, unix_now(), path, raw.as_bytes());
        let reply = reader_client.send(
            "POST",
            path,
            &[("Api-Key", &reader.api_key), ("Signature", &signature)],
            raw.as_bytes(),
        );
        assert_ne!(reply.status, 200, "{path}: {}", reply.body);
    }
    assert_eq!(state(&full, &o), before, "nothing changed");

    // Authentication comes first: a bad signature is 401 whatever the operation.
    for op in ["profile/delete", "profile/get"] {
        let path = format!("/api/v1/{op}");
        let signature = sign_v1("sec-wrong", unix_now(), &path, b"{}");
        reader_client
            .send(
                "POST",
                &path,
                &[("Api-Key", &reader.api_key), ("Signature", &signature)],
                b"{}",
            )
            .assert_error(401, &["SIGNATURE_INVALID"]);
    }

    // The full key still writes, and the reader sees what it wrote.
    full.call("profile/update-status", &ada(json!({"status": "Approved"})))
        .assert_status(200);
    let seen = reader_client.call("profile/get", &ada(json!({})));
    assert_eq!(
        seen.assert_status(200)["profile"]["status"],
        "Approved",
        "{}",
        seen.body
    );

    // Another merchant's read-only key finds nothing of this one's.
    let other = env.server.create_merchant("Globex");
    let (their_reader, _) = env.server.create_key_with(&other, &["--read-only"]);
    env.server
        .client(&their_reader)
        .call("profile/get", &ada(json!({})))
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
}

fn named_where_keys_are_shown(backend: Backend) {
    let env = Env::start(backend);
    let id = env.merchant.id.as_str();
    let shown = env
        .server
        .run(&["merchant", "key", "create", "--merchant", id, "--read-only"]);
    assert!(shown.contains("access:      read-only"), "{shown}");
    let reader = shown
        .lines()
        .find_map(|l| l.strip_prefix("api_key:"))
        .expect("the key is printed")
        .trim()
        .to_owned();
    let shown = env
        .server
        .run(&["merchant", "key", "create", "--merchant", id]);
    assert!(shown.contains("access:      full"), "{shown}");
    let (_, printed) = env.server.create_key_with(&env.merchant, &[]);
    assert_eq!(printed["access"], "full", "{printed}");
    let created = env
        .server
        .run(&["merchant", "create", "--name", "Globex", "--json"]);
    let created: Value = serde_json::from_str(created.trim()).expect("JSON");
    assert_eq!(created["access"], "full", "a merchant's first key");

    let password = admin_of(&env.server, id, "admin@example.com");
    let cookie = signed_in(&env, "admin@example.com", password);
    let listed = page(&env, "/dashboard/settings", &cookie).text();
    let row = |key: &str| -> String {
        let start = listed.find(key).unwrap_or_else(|| panic!("{key} listed"));
        let end = listed[start..].find("</tr>").expect("row ends") + start;
        listed[start..end].to_owned()
    };
    assert!(
        row(&reader).contains("<td>Read-only</td>"),
        "{}",
        row(&reader)
    );
    assert!(
        row(&env.merchant.api_key).contains("<td>Full</td>"),
        "{}",
        row(&env.merchant.api_key)
    );
}
