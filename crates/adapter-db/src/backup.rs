//! A consistent copy of the database while the service runs, and putting one back
//! (`idv backup`, `idv restore`). SQLite copies itself with `VACUUM INTO`, which reads one
//! snapshot of the database (WAL readers never block the writer) and writes a compact
//! file; PostgreSQL is copied by its own tools, `pg_dump` in the custom format (one
//! snapshot too) and `pg_restore`.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use diesel::RunQueryDsl;
use diesel::sql_types::{BigInt, Text};
use diesel_migrations::MigrationHarness;
use domain::ports::StoreError;

use crate::Database;
use crate::connection::{AnyConnection, Backend, Manager};
use crate::failure::Failure;

/// Which database a backup holds, and the file its copy is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackupKind {
    Sqlite,
    Postgres,
}

impl BackupKind {
    pub fn of(url: &str) -> Self {
        if Backend::from_url(url).is_sqlite() {
            Self::Sqlite
        } else {
            Self::Postgres
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Sqlite => "sqlite",
            Self::Postgres => "postgres",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        [Self::Sqlite, Self::Postgres]
            .into_iter()
            .find(|k| k.as_str() == raw)
    }

    /// The database's file inside a backup folder.
    pub fn file_name(self) -> &'static str {
        match self {
            Self::Sqlite => "database.sqlite3",
            Self::Postgres => "database.pgdump",
        }
    }
}

/// A database restored into something that already holds data, or a copy that failed.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0} is not empty: restore only into an empty database")]
    NotEmpty(String),
    #[error("{tool} failed on {database}: {detail}")]
    Tool {
        tool: &'static str,
        database: String,
        detail: String,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Database {
    /// Writes a consistent copy of the whole database to `to` (a file that must not
    /// exist), taken at one instant while writers go on, readable by its owner only.
    /// Returns the newest schema migration it holds.
    pub async fn snapshot(&self, to: PathBuf) -> Result<String, BackupError> {
        let copy = to.clone();
        let version = self.copy_to(to).await?;
        // SQLite and pg_dump create the copy under the umask (0644, commonly).
        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o600)).map_err(|e| {
            BackupError::Tool {
                tool: "chmod",
                database: self.backend.describe(),
                detail: e.to_string(),
            }
        })?;
        Ok(version)
    }

    async fn copy_to(&self, to: PathBuf) -> Result<String, BackupError> {
        match &self.backend {
            Backend::Sqlite(_) => {
                // The version is read just before the copy: migrations run only before a
                // server serves, never between the two.
                let version = self
                    .read(move |conn| {
                        let version = schema_version(conn)?;
                        diesel::sql_query("VACUUM INTO ?")
                            .bind::<Text, _>(to.display().to_string())
                            .execute(conn)?;
                        Ok(version)
                    })
                    .await?;
                Ok(version)
            }
            Backend::Postgres(url) => {
                let version = self.read(schema_version).await?;
                run_tool(
                    postgres_tool("pg_dump", url)
                        .arg("--format=custom")
                        .arg("--no-owner")
                        .arg("--no-privileges")
                        .arg("--file")
                        .arg(&to),
                    "pg_dump",
                    &self.backend,
                )?;
                Ok(version)
            }
        }
    }
}

/// The newest schema migration applied.
fn schema_version(conn: &mut AnyConnection) -> Result<String, Failure> {
    let applied = match conn {
        AnyConnection::Sqlite(c) => c.applied_migrations(),
        AnyConnection::Postgresql(c) => c.applied_migrations(),
    }
    .map_err(|e| Failure::Store(StoreError::Internal(e)))?;
    Ok(applied
        .iter()
        .map(ToString::to_string)
        .max()
        .unwrap_or_default())
}

/// Puts the copy `from` (made by `snapshot` of a database of the same kind) in place of
/// the database at `url`, which must be empty: a missing SQLite file, or a PostgreSQL
/// database without tables. Migrations and the master key are checked afterwards, by
/// `Database::migrate`.
pub fn restore(url: &str, from: &Path) -> Result<(), BackupError> {
    let backend = Backend::from_url(url);
    ensure_empty(&backend)?;
    match &backend {
        Backend::Sqlite(path) => {
            // The copy takes the backup file's mode; the database is private again after.
            std::fs::copy(from, path)
                .and_then(|_| std::fs::File::open(path)?.sync_all())
                .and_then(|()| crate::connection::create_private_file(path))
                .map_err(|e| BackupError::Tool {
                    tool: "copy",
                    database: backend.describe(),
                    detail: e.to_string(),
                })
        }
        Backend::Postgres(url) => run_tool(
            postgres_tool("pg_restore", url)
                .arg("--exit-on-error")
                .arg("--single-transaction")
                .arg("--no-owner")
                .arg("--no-privileges")
                .arg(from),
            "pg_restore",
            &backend,
        ),
    }
}

/// Refuses a database that holds anything.
fn ensure_empty(backend: &Backend) -> Result<(), BackupError> {
    let not_empty = || BackupError::NotEmpty(backend.describe());
    match backend {
        Backend::Sqlite(path) => match std::fs::metadata(path) {
            Ok(m) if m.len() > 0 => Err(not_empty()),
            _ => Ok(()),
        },
        Backend::Postgres(_) => {
            #[derive(diesel::QueryableByName)]
            struct Tables {
                #[diesel(sql_type = BigInt)]
                count: i64,
            }
            let mut conn = Manager(backend.clone())
                .connect_once()
                .map_err(|e| StoreError::Unavailable(Box::new(e)))?;
            let tables: Tables = diesel::sql_query(
                "SELECT count(*) AS count FROM pg_catalog.pg_tables \
                 WHERE schemaname = current_schema()",
            )
            .get_result(&mut conn)
            .map_err(|e| StoreError::Internal(Box::new(e)))?;
            if tables.count > 0 {
                return Err(not_empty());
            }
            Ok(())
        }
    }
}

/// `program` (a PostgreSQL tool) for the database at `url`, its password (in the URL's
/// user part or its `password` parameter) given in `PGPASSWORD` rather than on the
/// command line, where `ps` shows it to every user of the machine. Of this process's
/// environment the tool gets only what finds and runs it and libpq's own settings
/// ([`for_postgres_tools`]): never the master key or the storage's credentials.
fn postgres_tool(program: &str, url: &str) -> Command {
    let (url, password) = without_password(url);
    let mut command = Command::new(program);
    command
        .env_clear()
        .envs(std::env::vars_os().filter(|(name, _)| for_postgres_tools(name)))
        .arg("--dbname")
        .arg(url);
    if let Some(password) = password {
        command.env("PGPASSWORD", password);
    }
    command
}

/// Whether a variable of this process's environment is passed to a PostgreSQL tool:
/// the search path, the home folder (`.pgpass`, libpq's certificates), the locale and
/// time zone, and libpq's own `PG*` settings.
fn for_postgres_tools(name: &std::ffi::OsStr) -> bool {
    const PASSED: &[&str] = &[
        "PATH",
        "HOME",
        "LANG",
        "LC_ALL",
        "LC_CTYPE",
        "LC_MESSAGES",
        "TZ",
        "TMPDIR",
    ];
    PASSED.iter().any(|passed| name == *passed)
        || name.to_str().is_some_and(|name| name.starts_with("PG"))
}

/// `url` without its password, and the password. A URL that does not parse is kept as
/// it is: the tool says what is wrong with it.
fn without_password(url: &str) -> (String, Option<String>) {
    let Ok(mut parsed) = url::Url::parse(url) else {
        return (url.to_string(), None);
    };
    let in_user_part = parsed.password().map(|p| {
        percent_encoding::percent_decode_str(p)
            .decode_utf8_lossy()
            .into_owned()
    });
    let in_query = parsed
        .query_pairs()
        .find(|(key, _)| key == "password")
        .map(|(_, value)| value.into_owned());
    if in_query.is_some() {
        let others: Vec<(String, String)> = parsed
            .query_pairs()
            .filter(|(key, _)| key != "password")
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        if others.is_empty() {
            parsed.set_query(None);
        } else {
            parsed.query_pairs_mut().clear().extend_pairs(others);
        }
    }
    // Only a URL with a host can hold a password; one without has none to take out.
    let _ = parsed.set_password(None);
    (parsed.to_string(), in_query.or(in_user_part))
}

fn run_tool(
    command: &mut Command,
    tool: &'static str,
    backend: &Backend,
) -> Result<(), BackupError> {
    let failed = |detail: String| BackupError::Tool {
        tool,
        database: backend.describe(),
        detail,
    };
    let output = command.output().map_err(|e| {
        failed(format!(
            "cannot run it ({e}); is it installed and on the PATH?"
        ))
    })?;
    if output.status.success() {
        return Ok(());
    }
    Err(failed(format!(
        "{}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr).trim()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_reaches_the_tools_in_their_environment_never_their_arguments() {
        let (url, password) = without_password("postgres://idv:s%40cr%2Bt@db:5432/idv");
        assert_eq!(url, "postgres://idv@db:5432/idv");
        assert_eq!(password.as_deref(), Some("s@cr+t"));
        let (url, password) =
            without_password("postgresql://idv@db/idv?sslmode=require&password=hunter2");
        assert_eq!(url, "postgresql://idv@db/idv?sslmode=require");
        assert_eq!(password.as_deref(), Some("hunter2"));
        let (url, password) = without_password("postgres://postgres@127.0.0.1:5432/idv");
        assert_eq!(url, "postgres://postgres@127.0.0.1:5432/idv");
        assert_eq!(password, None);
        // A URL that does not parse is left for the tool to refuse.
        assert_eq!(
            without_password("not a url"),
            ("not a url".to_string(), None)
        );

        let command = postgres_tool("pg_dump", "postgres://idv:hunter2@db/idv?password=x");
        let arguments: Vec<String> = command
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert!(
            arguments
                .iter()
                .all(|a| !a.contains("hunter2") && !a.contains("=x")),
            "{arguments:?}"
        );
        let environment: Vec<(String, String)> = command
            .get_envs()
            .filter_map(|(k, v)| Some((k.to_str()?.to_string(), v?.to_str()?.to_string())))
            .collect();
        assert!(
            environment.contains(&("PGPASSWORD".to_string(), "x".to_string())),
            "{environment:?}"
        );
        // Cargo gives every test process CARGO_MANIFEST_DIR: the tool is not given it.
        assert!(std::env::var_os("CARGO_MANIFEST_DIR").is_some());
        assert!(
            environment
                .iter()
                .all(|(k, _)| for_postgres_tools(k.as_ref())),
            "{environment:?}"
        );
    }

    #[test]
    fn the_tools_get_libpqs_settings_and_none_of_the_servers() {
        for passed in ["PATH", "HOME", "PGSSLROOTCERT", "PGSERVICEFILE", "LANG"] {
            assert!(for_postgres_tools(passed.as_ref()), "{passed}");
        }
        for kept in [
            "IDV_MASTER_KEY",
            "AWS_SECRET_ACCESS_KEY",
            "IDV_DATABASE_URL",
            "CARGO_MANIFEST_DIR",
        ] {
            assert!(!for_postgres_tools(kept.as_ref()), "{kept}");
        }
    }
}
