//! Looking for personal values in clear where the server keeps things: every file under
//! its data directory (the SQLite database, its journal, the sealed files) and, on
//! PostgreSQL, a whole `pg_dump`.

use std::path::{Path, PathBuf};

use super::Env;

/// Every file under `dir` but the server's own log (which names request paths, and so
/// the quiz tokens a test may look for elsewhere).
pub fn every_file_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            every_file_under(&path, out);
        } else if path.file_name().is_some_and(|n| n != "server.log") {
            out.push(path);
        }
    }
}

/// Whether `needle`'s bytes occur in `haystack`.
pub fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

/// Asserts that none of `secrets` is stored in clear: not in any file of the data
/// directory (which must hold the uploaded files), nor in a dump of PostgreSQL.
pub fn assert_stored_sealed(env: &Env, secrets: &[&str]) {
    let mut files = Vec::new();
    every_file_under(env.server.db.data_dir.path(), &mut files);
    assert!(
        files.iter().any(|f| f.to_string_lossy().contains("files")),
        "{files:?}"
    );
    for file in &files {
        let bytes = std::fs::read(file).expect("readable");
        for secret in secrets {
            assert!(
                !contains(&bytes, secret),
                "{secret} in clear in {}",
                file.display()
            );
        }
    }
    if let Some(url) = &env.server.db.url {
        let dump = std::process::Command::new("pg_dump")
            .arg(url)
            .output()
            .expect("pg_dump runs");
        assert!(
            dump.status.success(),
            "{}",
            String::from_utf8_lossy(&dump.stderr)
        );
        assert!(dump.stdout.len() > 1000, "a real dump");
        for secret in secrets {
            assert!(
                !contains(&dump.stdout, secret),
                "{secret} in clear in pg_dump"
            );
        }
    }
}

/// Asserts that the server logged none of `secrets`.
pub fn assert_not_logged(env: &Env, secrets: &[&str]) {
    let log = std::fs::read(env.server.db.data_dir.path().join("server.log")).expect("the log");
    assert!(!log.is_empty(), "the server logs");
    for secret in secrets {
        assert!(!contains(&log, secret), "{secret} in the server's log");
    }
}
