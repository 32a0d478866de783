//! `idv backup` and `idv restore` as the runbook of `docs/DEPLOY.md` says (contract §15):
//! a backup taken during a write burst restores, into an empty database and data
//! directory, every profile and file acknowledged before it began, byte-identical; the
//! backup holds nothing of the master key; a restore refuses a non-empty target and
//! another key.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use serde_json::json;

use crate::Scenario;
use crate::client_pages::upload;
use crate::support::spy::{Seen, seen, spy};
use crate::support::{Backend, Env, MASTER_KEY, Server, TestDatabase, idv, jpeg, profile, with};

pub const SCENARIOS: &[Scenario] = &[(
    "backup_during_a_write_burst_restores_every_acknowledged_profile_and_file",
    during_a_burst,
)];

/// The run on PostgreSQL, of the database's tools: see [`postgres_tools_see_no_secret`].
pub const POSTGRES_TOOLS: &str =
    "postgres::pg_dump_and_pg_restore_get_the_password_in_their_environment_and_no_other_secret";

/// What the burst was told was stored: a profile, and a document with its file.
#[derive(Debug, Clone)]
struct Acknowledged {
    email: String,
    mobile: String,
    document: String,
    file: String,
    bytes: Vec<u8>,
}

/// Profiles wanted before the backup starts, at least.
const BEFORE: usize = 5;

/// One round of the burst: a quiz for a new client (which creates the profile), and a
/// passport uploaded through it. An error says which call was not acknowledged.
fn round(env: &Env, i: usize) -> Result<Acknowledged, String> {
    let email = format!("burst-{i}@example.com");
    let mobile = format!("416555{:04}", 1000 + i % 9000);
    let body = with(
        profile(&email, &mobile),
        "template",
        json!({"list": {"passport_upload": 1}}),
    );
    let quiz = env.client().try_call("quiz/create", &body)?;
    if quiz.status != 201 {
        return Err(format!("quiz/create: {}", quiz.text()));
    }
    let token = quiz.body["long_url"]
        .as_str()
        .and_then(|url| url.rsplit('/').next())
        .ok_or("no long_url")?
        .to_owned();
    let mut bytes = jpeg(40_000 + i * 97);
    let at = bytes.len() / 2;
    bytes.splice(at..at + 8, (i as u64).to_be_bytes());
    let uploaded = upload(env, &token, "passport_upload", &[("passport.jpg", &bytes)]);
    if uploaded.status != 200 {
        return Err(format!("upload: {}", uploaded.text()));
    }
    let document = uploaded.body["document_id"]
        .as_str()
        .ok_or("no document_id")?
        .to_owned();
    let pair = json!({"email_address": email, "mobile_number": mobile, "document_id": document});
    let got = env.client().try_call("document/get", &pair)?;
    let file = got.body["document"]["data"][0]["file_id"]
        .as_str()
        .ok_or_else(|| format!("document/get: {}", got.text()))?
        .to_owned();
    Ok(Acknowledged {
        email,
        mobile,
        document,
        file,
        bytes,
    })
}

/// Every file under `dir`, recursively, as bytes.
fn every_file(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).expect("readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(every_file(&path));
        } else {
            found.push((
                path.display().to_string(),
                std::fs::read(&path).expect("readable"),
            ));
        }
    }
    found
}

/// The permission bits of `dir` and of everything under it.
fn modes(dir: &Path) -> Vec<(String, u32)> {
    let mode = |path: &Path| {
        std::fs::metadata(path)
            .expect("readable")
            .permissions()
            .mode()
            & 0o777
    };
    let mut found = vec![(dir.display().to_string(), mode(dir))];
    for entry in std::fs::read_dir(dir).expect("readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(modes(&path));
        } else {
            found.push((path.display().to_string(), mode(&path)));
        }
    }
    found
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn during_a_burst(backend: Backend) {
    let env = Arc::new(Env::start(backend));
    let acknowledged: Arc<Mutex<Vec<Acknowledged>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let burst = {
        let (env, acknowledged, stop) = (env.clone(), acknowledged.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut failures = Vec::new();
            for i in 0.. {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                match round(&env, i) {
                    Ok(done) => acknowledged.lock().expect("lock").push(done),
                    Err(e) => {
                        failures.push(e);
                        break;
                    }
                }
            }
            failures
        })
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while acknowledged.lock().expect("lock").len() < BEFORE {
        if burst.is_finished() || std::time::Instant::now() > deadline {
            stop.store(true, Ordering::Relaxed);
            panic!("the burst stalled: {:?}", burst.join());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // Everything in the list now was acknowledged before the backup began.
    let before = acknowledged.lock().expect("lock").clone();
    let folder = tempfile::tempdir().expect("a folder");
    let backup = folder.path().join("idv-backup");
    let backup_arg = backup.display().to_string();
    // An empty folder made beforehand, as an operator would, open to every user.
    std::fs::create_dir(&backup).expect("made");
    std::fs::set_permissions(&backup, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    // The runbook: `idv backup --to DIR`, with the service's own settings.
    let out = env.server.run(&["backup", "--to", &backup_arg]);
    assert!(out.contains("backup of"), "{out}");
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, Ordering::Relaxed);
    // Calls refused while the backup ran would be a failure of the online copy.
    let failures = burst.join().expect("the burst ran");
    assert!(
        failures.is_empty(),
        "refused during the burst: {failures:?}"
    );
    let after = acknowledged.lock().expect("lock").len();
    assert!(after > before.len(), "writes went on around the backup");

    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(backup.join("manifest.json")).expect("a manifest"),
    )
    .expect("JSON");
    assert_eq!(manifest["backend"], backend.name(), "{manifest}");
    assert!(manifest["files"].as_u64().expect("a count") >= before.len() as u64);
    assert_eq!(
        manifest["master_key_fingerprint"].as_str().map(str::len),
        Some(16)
    );

    // Only its owner reads the backup: the folder and every folder in it 0700, every
    // file 0600.
    for (path, mode) in modes(&backup) {
        let private = if Path::new(&path).is_dir() {
            0o700
        } else {
            0o600
        };
        assert_eq!(mode, private, "{path} is {mode:o}");
    }

    // Nothing of the master key in the backup, in any spelling.
    let key = hex::decode(MASTER_KEY).expect("hex");
    let spellings: Vec<Vec<u8>> = vec![
        key.clone(),
        MASTER_KEY.as_bytes().to_vec(),
        MASTER_KEY.to_uppercase().into_bytes(),
        base64::engine::general_purpose::STANDARD
            .encode(&key)
            .into_bytes(),
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(&key)
            .into_bytes(),
    ];
    for (path, bytes) in every_file(&backup) {
        for spelling in &spellings {
            assert!(!contains(&bytes, spelling), "the master key is in {path}");
        }
    }

    // The runbook: `idv restore --from DIR` into an empty database and data directory.
    let restored = TestDatabase::create(backend);
    let wrong_key = idv(&restored)
        .env("IDV_MASTER_KEY", "11".repeat(32))
        .args(["restore", "--from", &backup_arg])
        .output()
        .expect("idv runs");
    assert!(!wrong_key.status.success());
    let said = String::from_utf8_lossy(&wrong_key.stderr);
    assert!(
        said.contains("not the key this backup was taken under"),
        "{said}"
    );
    let out = idv(&restored)
        .args(["restore", "--from", &backup_arg])
        .output()
        .expect("idv runs");
    assert!(
        out.status.success(),
        "restore: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let again = idv(&restored)
        .args(["restore", "--from", &backup_arg])
        .output()
        .expect("idv runs");
    assert!(!again.status.success(), "a second restore over the first");
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(said.contains("not empty"), "{said}");

    let server = Server::start_with(restored, &[]);
    let client = server.client(&env.merchant);
    for done in &before {
        let pair = json!({"email_address": done.email, "mobile_number": done.mobile});
        client.call("profile/get", &pair).assert_status(200);
        let download = client.call(
            "document/download",
            &with(
                with(pair, "document_id", json!(done.document)),
                "file_id",
                json!(done.file),
            ),
        );
        assert_eq!(download.status, 200, "{}", download.text());
        assert!(
            download.bytes == done.bytes,
            "file of {} byte-identical",
            done.email
        );
    }
}

/// `idv backup` and `idv restore` on PostgreSQL with a password in the database's URL:
/// the tools they run find it in `PGPASSWORD`, never on their command line (where `ps`
/// shows it to every user), and find none of the service's other secrets.
pub fn postgres_tools_see_no_secret(backend: Backend) {
    let env = Env::start(backend);
    let url = env.server.db.url.clone().expect("PostgreSQL");
    // Trust authentication takes any password: the tools still connect.
    let password = "spy-hunter2";
    let with_password = |url: &str| url.replacen("postgres@", &format!("postgres:{password}@"), 1);
    assert_ne!(with_password(&url), url, "{url}");
    let spies = tempfile::tempdir().expect("a folder");
    spy(spies.path(), "pg_dump");
    spy(spies.path(), "pg_restore");
    let path = format!("{}:/usr/bin:/bin", spies.path().display());
    let storage_secret = "spy-aws-secret";
    let folder = tempfile::tempdir().expect("a folder");
    let backup = folder.path().join("backup");
    let backup_arg = backup.display().to_string();
    // Both tools run with a password in the URL, the spies first on the path and the
    // storage's secret in the environment.
    let run = |mut command: std::process::Command, url: &str, args: &[&str]| {
        let out = command
            .env("IDV_DATABASE_URL", with_password(url))
            .env("PATH", &path)
            .env("AWS_SECRET_ACCESS_KEY", storage_secret)
            .args(args)
            .output()
            .expect("idv runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(env.server.idv(), &url, &["backup", "--to", &backup_arg]);
    let restored = TestDatabase::create(backend);
    let restored_url = restored.url.clone().expect("PostgreSQL");
    run(
        idv(&restored),
        &restored_url,
        &["restore", "--from", &backup_arg],
    );

    for tool in ["pg_dump", "pg_restore"] {
        let Seen {
            cmdline, environ, ..
        } = seen(spies.path(), tool);
        assert!(cmdline.contains("--dbname"), "{cmdline}");
        assert!(
            !cmdline.contains(password),
            "{tool}'s command line: {cmdline}"
        );
        let variables: Vec<&str> = environ.lines().collect();
        assert!(
            variables.contains(&format!("PGPASSWORD={password}").as_str()),
            "{tool}: {environ}"
        );
        for secret in [MASTER_KEY, storage_secret] {
            assert!(!environ.contains(secret), "{tool} was given {secret}");
        }
    }
}
