//! The merchant's dashboard (contract §10): its users, made on the server's machine.

use std::io::Write;
use std::process::Stdio;

use diesel::{Connection, PgConnection, QueryableByName, RunQueryDsl, SqliteConnection};
use serde_json::Value;

use crate::Scenario;
use crate::support::{Backend, Env, Server};

pub const SCENARIOS: &[Scenario] = &[(
    "dashboard_users_are_made_and_disabled_with_the_cli_and_stored_hashed",
    users_by_cli,
)];

/// `idv merchant user ...` with `stdin`; returns (success, stdout, stderr).
fn user_cmd(server: &Server, args: &[&str], stdin: &str) -> (bool, String, String) {
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
    let (ok, _, err) = user_cmd(
        server,
        &[
            "create",
            "--merchant",
            merchant,
            "--email",
            "REV@example.com",
        ],
        "",
    );
    assert!(!ok && err.contains("already exists"), "{err}");
    let (ok, _, err) = user_cmd(
        server,
        &[
            "create",
            "--merchant",
            merchant,
            "--email",
            "x@example.com",
            "--password-stdin",
        ],
        "short\n",
    );
    assert!(!ok && err.contains("at least 12"), "{err}");
    let (ok, _, err) = user_cmd(
        server,
        &[
            "create",
            "--merchant",
            "01NOSUCHMERCHANT",
            "--email",
            "y@example.com",
        ],
        "",
    );
    assert!(!ok && err.to_lowercase().contains("merchant"), "{err}");

    let (ok, _, err) = user_cmd(server, &["disable", "--email", "rev@example.com"], "");
    assert!(ok, "{err}");
    assert!(!stored(server, "rev@example.com").enabled);
    let (ok, _, _) = user_cmd(server, &["disable", "--email", "nobody@example.com"], "");
    assert!(!ok, "disabling an unknown user fails");
}
