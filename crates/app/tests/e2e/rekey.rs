//! `idv rekey` as the key-rotation runbook of `docs/DEPLOY.md` says (contract §15): the
//! service restarted on both keys, a rotation killed half-way (SIGKILL) while the service
//! keeps serving, run again to the end; then the service on the new key alone opens every
//! profile, file, API key, webhook secret and quiz link, and the old key opens nothing.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};

use crate::Scenario;
use crate::client_pages::upload;
use crate::support::receiver::Receiver;
use crate::support::{Backend, Env, MASTER_KEY, jpeg, profile, with};
use crate::webhooks::{ALLOW_PRIVATE, register};

pub const SCENARIOS: &[Scenario] = &[(
    "rekey_killed_half_way_resumes_and_leaves_the_old_key_opening_nothing",
    killed_and_resumed,
)];

const NEW_KEY: &str = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9f";
const CLIENTS: usize = 4;

/// A client the service acknowledged: its profile as read back, its quiz link, and its
/// passport's ids and bytes.
struct Client {
    pair: Value,
    profile: Value,
    long_url: String,
    document: String,
    file: String,
    bytes: Vec<u8>,
}

fn client(env: &Env, i: usize) -> Client {
    let pair = json!({
        "email_address": format!("rekey-{i}@example.com"),
        "mobile_number": format!("416555{:04}", 2000 + i),
    });
    let mut body = profile(
        pair["email_address"].as_str().expect("e-mail"),
        pair["mobile_number"].as_str().expect("mobile"),
    );
    body["ssn"] = json!(format!("{:09}", 123_450_000 + i));
    body["date_of_birth"] = json!("1980-01-02");
    body["template"] = json!({"list": {"passport_upload": 1}});
    let quiz = env.client().call("quiz/create", &body);
    let quiz = quiz.assert_status(201);
    let long_url = quiz["long_url"].as_str().expect("long_url").to_owned();
    let token = long_url.rsplit('/').next().expect("a token").to_owned();
    let mut bytes = jpeg(30_000 + i * 101);
    let at = bytes.len() / 2;
    bytes.splice(at..at + 8, (i as u64).to_be_bytes());
    let uploaded = upload(env, &token, "passport_upload", &[("passport.jpg", &bytes)]);
    let document = uploaded.assert_status(200)["document_id"]
        .as_str()
        .expect("document_id")
        .to_owned();
    let got = env.client().call(
        "document/get",
        &with(pair.clone(), "document_id", json!(document)),
    );
    let file = got.assert_status(200)["document"]["data"][0]["file_id"]
        .as_str()
        .expect("file_id")
        .to_owned();
    let profile = env.client().call("profile/get", &pair).assert_status(200)["profile"].clone();
    assert_eq!(profile["ssn"], body["ssn"], "{profile}");
    Client {
        pair,
        profile,
        long_url,
        document,
        file,
        bytes,
    }
}

/// Every client reads back as acknowledged: the profile (SSN and date of birth opened),
/// the file byte-identical, the quiz link open. Each call authenticates with the API key.
fn assert_everything_opens(env: &Env, clients: &[Client]) {
    for c in clients {
        let got = env.client().call("profile/get", &c.pair);
        assert_eq!(got.assert_status(200)["profile"], c.profile);
        let download = env.client().call(
            "document/download",
            &with(
                with(c.pair.clone(), "document_id", json!(c.document)),
                "file_id",
                json!(c.file),
            ),
        );
        assert_eq!(download.status, 200, "{}", download.text());
        assert!(download.bytes == c.bytes, "file {} byte-identical", c.file);
        // The address's path: the server's port changes with each restart.
        let after_host = &c.long_url[c.long_url.find("://").expect("an address") + 3..];
        let path = &after_host[after_host.find('/').expect("a path")..];
        let page = env
            .client()
            .send("GET", path, &[("Accept", "application/json")], b"");
        assert_eq!(page.status, 200, "the quiz link opens: {}", page.text());
    }
}

/// The key id in each stored file's header (`IDVF`, version 2, 8 bytes of key id).
fn file_key_ids(env: &Env) -> Vec<String> {
    let files = env.server.db.data_dir.path().join("files");
    let mut ids = Vec::new();
    for shard in std::fs::read_dir(files).expect("files").flatten() {
        for file in std::fs::read_dir(shard.path()).expect("a shard").flatten() {
            let bytes = std::fs::read(file.path()).expect("readable");
            assert_eq!(&bytes[..5], b"IDVF\x02", "{}", file.path().display());
            ids.push(hex::encode(&bytes[5..13]));
        }
    }
    ids
}

/// `idv migrate` with only `IDV_MASTER_KEY=key`: its error, or `None` if it succeeded.
fn migrate_with_only(env: &Env, key: &str) -> Option<String> {
    let out = env
        .server
        .idv()
        .env_remove("IDV_NEW_MASTER_KEY")
        .env("IDV_MASTER_KEY", key)
        .arg("migrate")
        .output()
        .expect("idv runs");
    (!out.status.success()).then(|| String::from_utf8_lossy(&out.stderr).into_owned())
}

fn killed_and_resumed(backend: Backend) {
    let mut env = Env::start_with(backend, &[ALLOW_PRIVATE]);
    let receiver = Receiver::start();
    let (_, webhook_secret) = register(&env, &receiver.url(), Some(&["profile_created"]));
    let clients: Vec<Client> = (0..CLIENTS).map(|i| client(&env, i)).collect();
    let old_ids = file_key_ids(&env);
    assert_eq!(old_ids.len(), CLIENTS);

    // Runbook step 1: the new key in a file of its own.
    let folder = tempfile::tempdir().expect("a folder");
    let key_file = folder.path().join("new.key");
    std::fs::write(&key_file, NEW_KEY).expect("written");
    let key_arg = key_file.display().to_string();
    let bad_file = folder.path().join("bad.key");
    std::fs::write(&bad_file, "not a key").expect("written");
    let bad = env
        .server
        .idv()
        .args(["rekey", "--new-key-file", &bad_file.display().to_string()])
        .output()
        .expect("idv runs");
    assert!(!bad.status.success());
    let said = String::from_utf8_lossy(&bad.stderr);
    assert!(said.contains("must be 64 hex characters"), "{said}");

    // Step 2: every instance restarted on both keys.
    env.server.kill();
    env.server.set_env(&[("IDV_NEW_MASTER_KEY", NEW_KEY)]);
    env.server.restart();
    assert_everything_opens(&env, &clients);

    // Step 3: `idv rekey`, here throttled and killed once it has made some progress.
    let mut rekey = env
        .server
        .idv()
        .args([
            "rekey",
            "--new-key-file",
            &key_arg,
            "--batch",
            "1",
            "--pause-ms",
            "200",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("idv rekey starts");
    let mut lines = BufReader::new(rekey.stdout.take().expect("stdout")).lines();
    let first = lines.next().expect("a first line").expect("text");
    let new_fingerprint = first
        .rsplit(' ')
        .next()
        .expect("the new key's fingerprint")
        .to_owned();
    assert_eq!(new_fingerprint.len(), 16, "{first}");
    assert!(!old_ids.contains(&new_fingerprint), "another key's id");
    let mut progress = Vec::new();
    while progress.len() < 3 {
        let line = lines.next().expect("progress goes on").expect("text");
        assert!(
            !line.starts_with("done"),
            "finished before the kill: {line}"
        );
        if line.contains("re-sealed so far") {
            progress.push(line);
        }
    }
    rekey.kill().expect("SIGKILL");
    let _ = rekey.wait();

    // Half-way: the files (walked last) are still under the old key, everything opens,
    // and an instance of the old key alone is refused.
    assert_eq!(file_key_ids(&env), old_ids, "after {progress:?}");
    assert_everything_opens(&env, &clients);
    let refused = migrate_with_only(&env, MASTER_KEY).expect("the old key alone is refused");
    assert!(refused.contains("rotation"), "{refused}");

    // Run again: it resumes and finishes.
    let out = env.server.run(&["rekey", "--new-key-file", &key_arg]);
    assert!(out.contains("files: done"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("done")), "{out}");
    assert!(!out.contains("123450"), "counts, never values: {out}");
    assert!(file_key_ids(&env).iter().all(|id| *id == new_fingerprint));

    // Step 4: the new key alone.
    env.server.kill();
    env.server.unset_env("IDV_NEW_MASTER_KEY");
    env.server.set_env(&[("IDV_MASTER_KEY", NEW_KEY)]);
    env.server.restart();
    assert_everything_opens(&env, &clients);
    // The webhook secret still signs, the API key (every call above) still authenticates.
    env.client()
        .call(
            "profile/create",
            &profile("after@example.com", "4165559999"),
        )
        .assert_status(201);
    // Up to a claim's lease: on PostgreSQL, deliveries an instance had claimed when it was
    // killed (the four clients' events, at step 2 on a slow machine) hold the merchant's
    // four places in flight for 60 s (docs/webhooks.md); on SQLite a restart frees them.
    let received = receiver.wait_until(Duration::from_secs(75), |r| {
        r.iter().any(|r| r.body.contains("after@example.com"))
    });
    let delivery = received
        .iter()
        .find(|r| r.body.contains("after@example.com"))
        .expect("the event was delivered");
    assert!(delivery.verifies_with(&webhook_secret), "{}", delivery.body);

    // The old key opens nothing: refused, naming the key it is not.
    let refused = migrate_with_only(&env, MASTER_KEY).expect("the old key is refused");
    assert!(
        refused.contains("is not the key of this database"),
        "{refused}"
    );
    assert!(
        migrate_with_only(&env, NEW_KEY).is_none(),
        "the new key opens"
    );
}
