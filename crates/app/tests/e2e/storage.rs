//! Files on an S3-compatible store (moto): the exact bytes come back, the bucket holds
//! them only sealed, deletions leave no object behind, several instances share them, and
//! `idv storage migrate` moves a local store into a bucket.

use serde_json::{Value, json};

use crate::Scenario;
use crate::client_pages::{post_json, standard_quiz, upload};
use crate::support::{Backend, Env, S3, Server, TestDatabase, profile, with};

pub const SCENARIOS: &[Scenario] = &[
    (
        "s3_files_come_back_exact_are_sealed_in_the_bucket_and_leave_with_their_records",
        sealed_in_the_bucket,
    ),
    (
        "storage_migrate_copies_a_local_store_to_s3_and_serving_from_it_returns_every_file",
        migrate_to_s3,
    ),
];

/// What a client could not fake: a JPEG of several sealed chunks with a marker inside.
fn passport() -> Vec<u8> {
    let mut bytes = crate::support::jpeg(300_000);
    let at = bytes.len() / 2;
    bytes.splice(at..at + 20, b"PASSPORT-NO-X1234567".iter().copied());
    bytes
}

fn env_pairs(settings: &[(String, String)]) -> Vec<(&str, &str)> {
    settings
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

fn ada(extra: Value) -> Value {
    let mut body = json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    body
}

/// Uploads a passport through the quiz link; returns (document id, file id).
fn upload_passport(env: &Env, token: &str, bytes: &[u8]) -> (String, String) {
    upload_one(env, token, "passport_upload", "passport.jpg", bytes)
}

/// Uploads one file for `step`; returns (document id, file id).
fn upload_one(env: &Env, token: &str, step: &str, name: &str, bytes: &[u8]) -> (String, String) {
    let reply = upload(env, token, step, &[(name, bytes)]);
    let document = reply.assert_status(200)["document_id"]
        .as_str()
        .expect("document id")
        .to_owned();
    let got = env
        .client()
        .call("document/get", &ada(json!({"document_id": document})));
    let file = got.assert_status(200)["document"]["data"][0]["file_id"]
        .as_str()
        .expect("file id")
        .to_owned();
    (document, file)
}

fn download(env: &Env, document: &str, file: &str) -> Vec<u8> {
    let reply = env.client().call(
        "document/download",
        &ada(json!({"document_id": document, "file_id": file})),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.bytes
}

fn sealed_in_the_bucket(backend: Backend) {
    let s3 = S3::start();
    let settings = s3.env("tenant-a");
    let env = Env::start_with(backend, &env_pairs(&settings));
    let (token, _, _) = standard_quiz(&env);
    let bytes = passport();
    let (document, file) = upload_passport(&env, &token, &bytes);
    assert_eq!(download(&env, &document, &file), bytes, "the exact bytes");
    assert!(
        env.server.stored_files().is_empty(),
        "nothing on the local disk"
    );

    let keys = s3.keys();
    assert_eq!(
        keys,
        [format!("tenant-a/{file}")],
        "one object, under the prefix"
    );
    let stored = s3.object(&keys[0]);
    assert!(
        stored.len() > bytes.len(),
        "sealed: larger by its header and tags"
    );
    assert!(
        !stored.windows(20).any(|w| w == b"PASSPORT-NO-X1234567"),
        "the bucket never holds the document in clear"
    );
    assert!(!stored.windows(64).any(|w| w == &bytes[1000..1064]));

    env.client()
        .call("document/delete", &ada(json!({"document_id": document})))
        .assert_status(200);
    assert!(s3.keys().is_empty(), "a deleted document leaves no object");

    let (_, again) = upload_passport(&env, &token, &bytes);
    assert_eq!(s3.keys(), [format!("tenant-a/{again}")]);
    env.client()
        .call("profile/delete", &ada(json!({})))
        .assert_status(200);
    assert!(s3.keys().is_empty(), "a deleted profile leaves no object");
}

fn migrate_to_s3(backend: Backend) {
    let mut env = Env::start(backend);
    let (token, _, _) = standard_quiz(&env);
    let first = passport();
    let second = crate::support::png(70_000);
    let (doc_a, file_a) = upload_passport(&env, &token, &first);
    let (doc_b, file_b) = upload_one(&env, &token, "selfie_upload", "me.png", &second);
    assert_eq!(env.server.stored_files().len(), 2);

    let s3 = S3::start();
    let settings = s3.env("moved");
    let url = settings
        .iter()
        .find(|(k, _)| k == "IDV_STORAGE_URL")
        .map(|(_, v)| v.clone())
        .expect("url");
    // The AWS settings, without switching this server's own store yet.
    let aws: Vec<(String, String)> = settings
        .iter()
        .filter(|(k, _)| k.starts_with("AWS_"))
        .cloned()
        .collect();
    // `idv storage migrate --to URL` with this server's storage settings; its report.
    let migrate = || {
        let out = env
            .server
            .idv()
            .envs(aws.iter().map(|(k, v)| (k, v)))
            .args(["storage", "migrate", "--to", &url])
            .output()
            .expect("idv runs");
        assert!(
            out.status.success(),
            "storage migrate failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let report = migrate();
    assert!(report.contains("2 copied"), "{report}");
    let mut keys = s3.keys();
    keys.sort();
    let mut wanted = vec![format!("moved/{file_a}"), format!("moved/{file_b}")];
    wanted.sort();
    assert_eq!(keys, wanted);

    // Run again: nothing new to copy, everything verified.
    let again = migrate();
    assert!(
        again.contains("0 copied") && again.contains("2 already there"),
        "{again}"
    );

    // Served from the bucket now, with the local copies gone: every file comes back.
    env.server.kill();
    std::fs::remove_dir_all(env.server.db.data_dir.path().join("files")).expect("removed");
    env.server.set_env(&env_pairs(&settings));
    env.server.restart();
    assert_eq!(download(&env, &doc_a, &file_a), first);
    assert_eq!(download(&env, &doc_b, &file_b), second);
}

/// PostgreSQL and one bucket: a quiz sent through one instance is opened, filled and
/// uploaded through another, and its file downloaded through the first.
pub fn a_quiz_crosses_instances(backend: Backend) {
    let s3 = S3::start();
    let settings = s3.env("");
    let db = TestDatabase::create(backend);
    let shared = db.share();
    let first = Server::start_with(db, &env_pairs(&settings));
    let second = Server::start_with(shared, &env_pairs(&settings));
    let merchant = first.create_merchant("Acme");
    let body = with(
        profile("ada@example.com", "4165550123"),
        "template",
        json!({"list": {"passport_upload": 1, "date_of_birth_submit": 1}}),
    );
    let created = first.client(&merchant).call("quiz/create", &body);
    let long = created.assert_status(201)["long_url"]
        .as_str()
        .expect("long url")
        .to_owned();
    let token = long.rsplit('/').next().expect("token").to_owned();

    let through_second = Env {
        server: second,
        merchant: merchant.clone(),
    };
    let page = through_second
        .client()
        .send("GET", &format!("/quiz/{token}"), &[], b"");
    assert_eq!(page.status, 200);
    post_json(
        &through_second,
        &format!("/quiz/{token}/fields"),
        json!({"date_of_birth": "1990-12-10"}),
    )
    .assert_status(200);
    let bytes = passport();
    let (document, file) = upload_passport(&through_second, &token, &bytes);
    post_json(&through_second, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);

    let through_first = Env {
        server: first,
        merchant,
    };
    assert_eq!(download(&through_first, &document, &file), bytes);
    let log = through_first
        .client()
        .call("event/read", &ada(json!({"limit": 50})));
    let activities: Vec<&str> = log.assert_status(200)["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|e| e["activity"].as_str())
        .collect();
    for done in [
        "quiz_opened",
        "form_fields_submitted",
        "document_uploaded",
        "quiz_submitted",
    ] {
        assert!(activities.contains(&done), "{done} in {activities:?}");
    }
}
