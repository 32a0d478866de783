use std::sync::OnceLock;

use diesel::pg::Pg;
use diesel::query_builder::SqlQuery;
use diesel::sqlite::Sqlite;
use diesel::{Connection, PgConnection, QueryableByName, RunQueryDsl, SqliteConnection};
use tempfile::TempDir;

/// Where the PostgreSQL tests create their databases.
pub fn postgres_admin_url() -> String {
    std::env::var("IDV_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

/// Whether PostgreSQL answers; asked once per run.
pub fn postgres_reachable() -> Result<(), String> {
    static PROBE: OnceLock<Result<(), String>> = OnceLock::new();
    PROBE
        .get_or_init(|| {
            PgConnection::establish(&postgres_admin_url())
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
        .clone()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

/// A database of its own for one test, removed when dropped. The data directory (for
/// the master key, and the SQLite file) is a fresh temporary folder either way.
pub struct TestDatabase {
    pub data_dir: TempDir,
    pub url: Option<String>,
    postgres_name: Option<String>,
}

impl TestDatabase {
    pub fn create(backend: Backend) -> Self {
        let data_dir = tempfile::tempdir().expect("temporary data directory");
        match backend {
            Backend::Sqlite => Self {
                data_dir,
                url: None,
                postgres_name: None,
            },
            Backend::Postgres => {
                let name = format!("idv_test_{}", ulid::Ulid::new().to_string().to_lowercase());
                let mut admin =
                    PgConnection::establish(&postgres_admin_url()).expect("PostgreSQL reachable");
                diesel::sql_query(format!("CREATE DATABASE {name}"))
                    .execute(&mut admin)
                    .expect("test database created");
                let base = postgres_admin_url();
                let server = base.rsplit_once('/').map_or(base.as_str(), |(s, _)| s);
                Self {
                    data_dir,
                    url: Some(format!("{server}/{name}")),
                    postgres_name: Some(name),
                }
            }
        }
    }
}

impl TestDatabase {
    /// The same database for another server: its own data directory, the same URL. The
    /// first keeps it (and drops it at the end); SQLite files cannot be shared this way.
    pub fn share(&self) -> Self {
        assert!(self.url.is_some(), "only a PostgreSQL database is shared");
        Self {
            data_dir: tempfile::tempdir().expect("temporary data directory"),
            url: self.url.clone(),
            postgres_name: None,
        }
    }
}

impl TestDatabase {
    /// Runs `sql` on the database behind the server's back: the test owns it (to make
    /// time pass for a row, or to look at what is stored).
    pub fn execute(&self, sql: &str) -> usize {
        let query = diesel::sql_query(sql);
        match &self.url {
            Some(url) => query.execute(&mut self.postgres(url)),
            None => query.execute(&mut self.sqlite()),
        }
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
    }

    /// The rows `sql` selects.
    pub fn select<T>(&self, sql: &str) -> Vec<T>
    where
        T: QueryableByName<Pg> + QueryableByName<Sqlite> + 'static,
    {
        let query: SqlQuery = diesel::sql_query(sql);
        match &self.url {
            Some(url) => query.load(&mut self.postgres(url)),
            None => query.load(&mut self.sqlite()),
        }
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
    }

    fn postgres(&self, url: &str) -> PgConnection {
        PgConnection::establish(url).expect("PostgreSQL")
    }

    /// The server writes beside the test (its background jobs among them): wait for its
    /// lock as the server's own connections do, rather than fail with "database is locked".
    fn sqlite(&self) -> SqliteConnection {
        let file = self.data_dir.path().join("idv.sqlite3");
        let mut connection =
            SqliteConnection::establish(&file.display().to_string()).expect("SQLite");
        diesel::sql_query("PRAGMA busy_timeout = 30000")
            .execute(&mut connection)
            .expect("SQLite busy timeout");
        connection
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        if let Some(name) = &self.postgres_name
            && let Ok(mut admin) = PgConnection::establish(&postgres_admin_url())
        {
            let drop = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
            let _ = diesel::sql_query(drop).execute(&mut admin);
        }
    }
}
