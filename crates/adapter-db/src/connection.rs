//! One connection type for both backends, and the pool that hands it out.

use std::time::{Duration, Instant};

use diesel::connection::SimpleConnection;
use diesel::{Connection, ConnectionError, PgConnection, SqliteConnection};

/// A connection to whichever database the URL named. Queries are written once against
/// this type; diesel dispatches them to the backend.
#[derive(diesel::MultiConnection)]
pub enum AnyConnection {
    Postgresql(PgConnection),
    Sqlite(SqliteConnection),
}

/// Runs `$body` with `$c` bound to the concrete connection behind an `AnyConnection`.
/// For hot queries: through `AnyConnection` diesel renders a query's SQL anew on every
/// run (about a tenth of a `profile/get`, measured with perf); on the concrete connection
/// the cached statement is used as is. `$body` is written once and compiled per backend.
macro_rules! on_concrete {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::connection::AnyConnection::Sqlite($c) => $body,
            $crate::connection::AnyConnection::Postgresql($c) => $body,
        }
    };
}
pub(crate) use on_concrete;

/// The backend a database URL selects: `postgres://` or `postgresql://` for PostgreSQL;
/// `sqlite://PATH` or a plain file path for SQLite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backend {
    Postgres(String),
    Sqlite(String),
}

impl Backend {
    pub fn from_url(url: &str) -> Self {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres(url.to_owned())
        } else {
            let path = url.strip_prefix("sqlite://").unwrap_or(url);
            Backend::Sqlite(path.to_owned())
        }
    }

    pub fn is_sqlite(&self) -> bool {
        matches!(self, Backend::Sqlite(_))
    }

    /// The URL without credentials, fit for logs.
    pub fn describe(&self) -> String {
        match self {
            Backend::Sqlite(path) => format!("sqlite://{path}"),
            Backend::Postgres(url) => {
                let rest = url.split_once("://").map_or(url.as_str(), |(_, r)| r);
                let host = rest.rsplit_once('@').map_or(rest, |(_, h)| h);
                format!("postgres://{host}")
            }
        }
    }
}

/// How long SQLite waits for a lock before giving up; writes are serialised in front of
/// SQLite anyway (see `Database::write`), so this only covers other processes.
const SQLITE_BUSY_TIMEOUT_MS: u32 = 5_000;

/// Hands r2d2 connections of the configured backend. diesel's own `ConnectionManager`
/// would try every backend in turn on any URL, hiding the real connection error.
#[derive(Debug, Clone)]
pub struct Manager(pub Backend);

impl Manager {
    /// One connection outside any pool.
    pub fn connect_once(&self) -> Result<AnyConnection, ConnectionError> {
        match &self.0 {
            Backend::Postgres(url) => {
                keep_tls_at_exit();
                PgConnection::establish(url).map(AnyConnection::Postgresql)
            }
            Backend::Sqlite(path) => {
                let mut conn = SqliteConnection::establish(path)?;
                // WAL is a property of the file, set once by `enable_wal`; these are
                // per connection.
                // secure_delete: freed pages are overwritten, so a deleted SSN or
                // profile does not linger in the file.
                conn.batch_execute(&format!(
                    "PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}; \
                     PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; \
                     PRAGMA secure_delete = ON;"
                ))
                .map_err(ConnectionError::CouldntSetupConfiguration)?;
                Ok(AnyConnection::Sqlite(conn))
            }
        }
    }
}

/// Tells the TLS library under libpq (OpenSSL) not to tear itself down when the process
/// exits. Its exit handler frees what a pool thread connecting at that moment (replacing
/// a broken connection) still uses: the process crashed on its way out, one run of the
/// port contract in many, and a small program exiting while threads connected crashed 46
/// times in 300 (docs/BENCHMARKS.md; the port contract's "exits cleanly while
/// connecting" now checks it). It counts only before OpenSSL's first use, so it comes
/// before every PostgreSQL connection; after the first, it does nothing.
pub fn keep_tls_at_exit() {
    openssl_sys::init();
}

/// Creates the SQLite file with mode 0600 if it is missing, and makes an existing one
/// 0600: SQLite gives its WAL and shared-memory files the database file's mode.
pub fn create_private_file(path: &str) -> std::io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
}

/// A pooled connection and what its last use said of it. A PostgreSQL connection can
/// break under the pool (a restart, a network cut), and the pool heals by testing one
/// before handing it out; a `SELECT 1` on every checkout, though, was two of the seven
/// round trips of a create (docs/BENCHMARKS.md). So a connection is tested only when
/// its last unit of work failed or it has not worked for `TRUSTED_FOR`.
pub struct Pooled {
    conn: AnyConnection,
    /// When it was opened, tested, or last carried a unit of work through.
    worked_at: Instant,
    /// Its last unit of work failed: the failure may have been the connection's.
    suspect: bool,
}

/// How long a connection that worked is handed out again without a test.
const TRUSTED_FOR: Duration = Duration::from_secs(1);

impl Pooled {
    fn new(conn: AnyConnection) -> Self {
        Self {
            conn,
            worked_at: Instant::now(),
            suspect: false,
        }
    }

    /// Records how a unit of work on this connection ended.
    pub fn record<T, E>(&mut self, outcome: &Result<T, E>) {
        if outcome.is_ok() {
            self.worked_at = Instant::now();
            self.suspect = false;
        } else {
            self.suspect = true;
        }
    }

    fn trusted(&self) -> bool {
        !self.suspect && self.worked_at.elapsed() < TRUSTED_FOR
    }
}

impl std::ops::Deref for Pooled {
    type Target = AnyConnection;

    fn deref(&self) -> &AnyConnection {
        &self.conn
    }
}

impl std::ops::DerefMut for Pooled {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        &mut self.conn
    }
}

impl r2d2::ManageConnection for Manager {
    type Connection = Pooled;
    type Error = ConnectionError;

    fn connect(&self) -> Result<Pooled, ConnectionError> {
        self.connect_once().map(Pooled::new)
    }

    fn is_valid(&self, conn: &mut Pooled) -> Result<(), ConnectionError> {
        if conn.trusted() {
            return Ok(());
        }
        let tested = conn.batch_execute("SELECT 1");
        conn.record(&tested);
        tested.map_err(ConnectionError::CouldntSetupConfiguration)
    }

    fn has_broken(&self, _conn: &mut Pooled) -> bool {
        false
    }
}

/// Puts an SQLite file in WAL mode (readers never wait for the writer). Done once before
/// the pool opens its connections, which would otherwise race for the lock it takes.
pub fn enable_wal(path: &str) -> Result<(), ConnectionError> {
    let mut conn = SqliteConnection::establish(path)?;
    conn.batch_execute(&format!(
        "PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}; PRAGMA journal_mode = WAL;"
    ))
    .map_err(ConnectionError::CouldntSetupConfiguration)
}

/// The answer of `PRAGMA wal_checkpoint`: `busy` is 1 when a reader or writer kept the
/// checkpoint from finishing.
#[derive(diesel::QueryableByName)]
struct Checkpoint {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    busy: i32,
}

/// On SQLite, copies the write-ahead log into the database file and truncates the log to
/// nothing; whether it got that far (a reader on an older snapshot keeps the log until a
/// later checkpoint). Nothing to do on PostgreSQL.
pub(crate) fn checkpoint_wal(conn: &mut AnyConnection) -> Result<bool, crate::failure::Failure> {
    use diesel::RunQueryDsl;
    match conn {
        AnyConnection::Sqlite(c) => {
            let done: Checkpoint =
                diesel::sql_query("PRAGMA wal_checkpoint(TRUNCATE)").get_result(c)?;
            Ok(done.busy == 0)
        }
        AnyConnection::Postgresql(_) => Ok(true),
    }
}

pub type Pool = r2d2::Pool<Manager>;

/// PostgreSQL connections per instance: its queries mostly wait on the network and the
/// server, so a handful overlap well whatever the cores.
const POSTGRES_POOL_SIZE: u32 = 8;

/// SQLite page cache shared out among the pooled (reading) connections, in KiB. Each
/// connection keeps its own cache, so the budget, not the connection count, bounds the
/// memory; fewer connections each cache more of it (docs/BENCHMARKS.md).
const SQLITE_READ_CACHE_KIB: u32 = 32 * 1024;

/// How many connections the pool holds, and the page cache of each (SQLite's only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolShape {
    pub size: u32,
    pub page_cache: Option<PageCache>,
}

impl PoolShape {
    /// SQLite reads from a warm file are CPU work: one connection per core the process may
    /// run on (its affinity, as `taskset` sets it) and one spare, so a read waiting on the
    /// disk does not idle a core; never fewer than two, never more than eight.
    pub fn for_backend(backend: &Backend, cores: usize) -> Self {
        if !backend.is_sqlite() {
            return Self {
                size: POSTGRES_POOL_SIZE,
                page_cache: None,
            };
        }
        let size = u32::try_from(cores)
            .unwrap_or(u32::MAX)
            .saturating_add(1)
            .clamp(2, 8);
        Self {
            size,
            page_cache: Some(PageCache {
                kib: SQLITE_READ_CACHE_KIB / size,
            }),
        }
    }
}

/// How much of the database file each reading SQLite connection maps into its address
/// space (SQLite's own ceiling, 2 GiB, is the limit). A read of a mapped page is a memory
/// access, not a `pread` copied into the page cache and evicted again: at a million
/// profiles, reads spread over all of them keep about 0.9 of the rate of a small database
/// rather than 0.6 (docs/BENCHMARKS.md). The mapped pages are the kernel's page cache,
/// shared and reclaimable (`RssFile`); the process's own memory (`RssAnon`) does not grow.
/// The cost: a disk that fails a read under a mapping stops the process with SIGBUS
/// rather than answering 503 (docs/DEPLOY.md). Writes never go through the mapping.
const SQLITE_READ_MMAP_BYTES: u64 = 1 << 31;

/// Gives each pooled (reading) SQLite connection its share of the page cache budget and
/// its mapping of the file. The writer's connection keeps SQLite's defaults: it touches
/// the pages it changes, not a working set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageCache {
    pub kib: u32,
}

impl r2d2::CustomizeConnection<Pooled, ConnectionError> for PageCache {
    fn on_acquire(&self, conn: &mut Pooled) -> Result<(), ConnectionError> {
        // A negative cache_size is a size in KiB rather than a count of pages.
        conn.batch_execute(&format!(
            "PRAGMA cache_size = -{}; PRAGMA mmap_size = {SQLITE_READ_MMAP_BYTES};",
            self.kib
        ))
        .map_err(ConnectionError::CouldntSetupConfiguration)
    }
}

/// How long a request waits for a pooled connection before the database counts as
/// unavailable (503) rather than slow.
pub const POOL_TIMEOUT: Duration = Duration::from_secs(5);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_scheme_picks_the_backend() {
        assert!(matches!(
            Backend::from_url("postgres://u@h/db"),
            Backend::Postgres(_)
        ));
        assert!(matches!(
            Backend::from_url("postgresql://u@h/db"),
            Backend::Postgres(_)
        ));
        assert_eq!(
            Backend::from_url("sqlite:///tmp/x.db"),
            Backend::Sqlite("/tmp/x.db".into())
        );
        assert_eq!(
            Backend::from_url("./idv.db"),
            Backend::Sqlite("./idv.db".into())
        );
    }

    #[test]
    fn sqlite_pools_follow_the_cores_within_one_cache_budget() {
        let sqlite = Backend::from_url("./idv.db");
        let shapes: Vec<_> = [1, 2, 4, 64]
            .iter()
            .map(|&cores| PoolShape::for_backend(&sqlite, cores))
            .collect();
        assert_eq!(
            shapes.iter().map(|s| s.size).collect::<Vec<_>>(),
            [2, 3, 5, 8]
        );
        for shape in shapes {
            let total = shape.page_cache.expect("a cache for SQLite").kib * shape.size;
            assert!(total <= SQLITE_READ_CACHE_KIB && total > SQLITE_READ_CACHE_KIB - shape.size);
        }
        let postgres = PoolShape::for_backend(&Backend::from_url("postgres://h/db"), 1);
        assert_eq!(postgres.size, POSTGRES_POOL_SIZE);
        assert_eq!(postgres.page_cache, None);
    }

    #[test]
    fn pooled_sqlite_connections_get_their_share_of_the_page_cache_and_map_the_file() {
        use diesel::RunQueryDsl;
        use diesel::sql_types::BigInt;
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("idv.sqlite3").display().to_string();
        let pool = r2d2::Pool::builder()
            .max_size(1)
            .connection_customizer(Box::new(PageCache { kib: 4321 }))
            .build(Manager(Backend::Sqlite(path)))
            .expect("pool");
        let mut conn = pool.get().expect("connection");
        let AnyConnection::Sqlite(sqlite) = &mut **conn else {
            panic!("a SQLite path gave another backend");
        };
        let size: i64 = diesel::select(diesel::dsl::sql::<BigInt>(
            "(SELECT cache_size FROM pragma_cache_size())",
        ))
        .get_result(sqlite)
        .expect("cache_size");
        assert_eq!(size, -4321);
        // SQLite answers the size it took, clamped to its ceiling: 0 would mean no mapping.
        #[derive(diesel::QueryableByName)]
        struct Mapped {
            #[diesel(sql_type = BigInt)]
            mmap_size: i64,
        }
        let mapped: Mapped = diesel::sql_query("PRAGMA mmap_size")
            .get_result(sqlite)
            .expect("mmap_size");
        assert!(
            mapped.mmap_size >= 1 << 30,
            "{} bytes mapped",
            mapped.mmap_size
        );
    }

    #[test]
    fn descriptions_hide_credentials() {
        let pg = Backend::from_url("postgres://user:secret@db.internal:5432/idv");
        assert_eq!(pg.describe(), "postgres://db.internal:5432/idv");
    }
}
