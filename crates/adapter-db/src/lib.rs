//! Storage for the domain's ports over diesel: SQLite (embedded, the default) or
//! PostgreSQL, chosen by the database URL, with one code path for both.

mod backup;
mod connection;
mod failure;
mod migrations;
mod outbox;
mod repositories;
mod schema;
mod sealing;
mod seed;
mod storage;
mod timestamps;
mod writer;

use domain::error::Report;
use std::sync::Arc;

use diesel::Connection;
use diesel::connection::SimpleConnection;
use std::path::PathBuf;

use domain::ports::{DeviceMarks, DocumentStore, StoreError, StoreResult};
use tracing::Span;

pub use backup::{BackupError, BackupKind, restore as restore_database};
use connection::{AnyConnection, Manager, POOL_TIMEOUT, Pool, PoolShape};
pub use connection::{Backend, keep_tls_at_exit};
use failure::Failure;
pub use migrations::data::KeyMismatch;
pub use migrations::rekey::{Batch, REKEY_PARTS, RekeyPart};
pub use repositories::profile_search::INDEX_BATCH;
pub use repositories::rate_limits::SharedLimiter;
use repositories::{verifications, webhooks};
pub use sealing::key_cache::{CachedKeys, MAX_STALENESS};
pub use sealing::vault::{MASTER_KEY_LEN, Vault, fingerprint_of};
pub use storage::copy::copy_file;
pub use storage::local::{FileStore, create_private_dir};
pub use storage::s3::ObjectFiles;
use writer::Writer;

/// A pool of connections to one database, and the units of work run on it.
#[derive(Clone)]
pub struct Database {
    pool: Pool,
    backend: Backend,
    /// SQLite takes one writer at a time: its writes go through one writer thread that
    /// commits waiting units of work together (`writer.rs`). `None` for PostgreSQL, which
    /// handles concurrent writers itself.
    writer: Option<Writer>,
    vault: Arc<Vault>,
    /// The merchants' signals, opened, as this server last read them.
    signal_index: Arc<repositories::signals::SignalIndex>,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database")
            .field("backend", &self.backend.describe())
            .finish()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("cannot connect to {0}: {1}")]
    Connect(String, String),
    #[error("cannot apply migrations to {0}: {1}")]
    Migrate(String, String),
    #[error("{0}")]
    WrongMasterKey(#[from] KeyMismatch),
}

impl Database {
    /// Opens a pool on the database at `url`. Nothing is created or migrated yet.
    pub fn open(url: &str, vault: Arc<Vault>) -> Result<Self, OpenError> {
        let backend = Backend::from_url(url);
        if let Backend::Sqlite(path) = &backend {
            let failed = |e: String| OpenError::Connect(backend.describe(), e);
            connection::create_private_file(path).map_err(|e| failed(e.to_string()))?;
            connection::enable_wal(path).map_err(|e| failed(e.to_string()))?;
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let shape = PoolShape::for_backend(&backend, cores);
        let mut pool = r2d2::Pool::builder().max_size(shape.size);
        if let Some(cache) = shape.page_cache {
            pool = pool.connection_customizer(Box::new(cache));
        }
        let pool = pool
            .connection_timeout(POOL_TIMEOUT)
            // A PostgreSQL connection can break under us (a restart, a network cut): one
            // that failed or idled is tested before use (`Pooled`), so the pool heals
            // itself. A SQLite file cannot break so; testing it would cost a query.
            .test_on_check_out(!backend.is_sqlite())
            .build(Manager(backend.clone()))
            .map_err(|e| OpenError::Connect(backend.describe(), e.to_string()))?;
        let writer = backend
            .is_sqlite()
            .then(|| Writer::start(Manager(backend.clone())));
        Ok(Self {
            pool,
            backend,
            writer,
            vault,
            signal_index: Arc::default(),
        })
    }

    /// Applies every pending migration of this backend, checks the master key against
    /// the database (recording its fingerprint on first use), then seals whatever an
    /// earlier version stored in clear. Returns the names of the schema migrations run.
    /// A wrong master key is refused before anything is written.
    pub fn migrate(&self, now_unix: i64) -> Result<Vec<String>, OpenError> {
        let describe = || self.backend.describe();
        let mut conn = self
            .pool
            .get()
            .map_err(|e| OpenError::Connect(describe(), e.to_string()))?;
        let failed = |e: Failure| OpenError::Migrate(describe(), StoreError::from(e).to_string());
        // Instances started together take turns: the first migrates and records the
        // master key's fingerprint, the others find both done.
        migrations::schema::exclusively(&mut conn, |conn| self.migrate_on(conn, now_unix))
            .map_err(failed)?
    }

    fn migrate_on(
        &self,
        conn: &mut AnyConnection,
        now_unix: i64,
    ) -> Result<Vec<String>, OpenError> {
        let describe = || self.backend.describe();
        let applied =
            migrations::schema::run(conn).map_err(|e| OpenError::Migrate(describe(), e))?;
        let failed = |e: Failure| OpenError::Migrate(describe(), StoreError::from(e).to_string());
        migrations::data::check_master_key(conn, &self.vault, now_unix).map_err(failed)??;
        let sealed =
            migrations::data::seal_stored_values(conn, &self.vault, now_unix).map_err(failed)?;
        if let Some(rows) = sealed.filter(|rows| *rows > 0) {
            tracing::info!(
                rows,
                "sealed personal values stored in clear by an earlier version"
            );
        }
        let hashed =
            migrations::data::hash_quiz_links(conn, &self.vault, now_unix).map_err(failed)?;
        if let Some(rows) = hashed.filter(|rows| *rows > 0) {
            tracing::info!(
                rows,
                "hashed quiz links stored in clear by an earlier version"
            );
        }
        // The clear values just replaced would stay in SQLite's write-ahead log until a
        // checkpoint: take it now (nothing else uses the database yet).
        if sealed.or(hashed).is_some_and(|rows| rows > 0)
            && !connection::checkpoint_wal(conn).map_err(failed)?
        {
            tracing::warn!("the write-ahead log could not be truncated after sealing");
        }
        Ok(applied)
    }

    /// For a server about to serve: on SQLite, where one server holds the database, the
    /// webhook deliveries and verifications a crashed server had claimed are freed at
    /// once rather than when their lease runs out. Nothing on PostgreSQL, where other
    /// instances may be alive.
    pub async fn free_crashed_claims(&self) -> StoreResult<usize> {
        if !self.backend.is_sqlite() {
            return Ok(0);
        }
        self.write(|conn| Ok(webhooks::forget_claims(conn)? + verifications::forget_claims(conn)?))
            .await
    }

    /// Whether this is an SQLite file (one writer; a search index kept behind the writes).
    pub fn is_sqlite(&self) -> bool {
        self.backend.is_sqlite()
    }

    pub fn describe(&self) -> String {
        self.backend.describe()
    }

    /// The master key's fingerprint (a keyed digest; it reveals nothing of the key).
    pub fn master_key_fingerprint(&self) -> &str {
        self.vault.fingerprint()
    }

    /// The marks of browsers users signed in from, signed under this database's master
    /// key (see `sealing/device_marks.rs`).
    pub fn device_marks(&self) -> Arc<dyn DeviceMarks> {
        self.vault.clone()
    }

    /// The file store at `url`, sealing files with this database's master key (see
    /// `file_store`).
    pub fn file_store(
        &self,
        url: Option<&str>,
        default_root: PathBuf,
    ) -> Result<Arc<dyn DocumentStore>, String> {
        file_store(url, default_root, self.vault.clone())
    }

    /// After a deletion on SQLite: the erased rows are zeroed in the database file
    /// (`secure_delete`), but the write-ahead log still holds earlier images of their
    /// pages until it is checkpointed and truncated, which this does. Best effort: when
    /// a reader keeps the log, it is said in the log and the next checkpoint takes it.
    async fn checkpoint_after_erasure(&self) {
        if !self.backend.is_sqlite() {
            return;
        }
        match self.read(connection::checkpoint_wal).await {
            Ok(true) => {}
            Ok(false) => tracing::warn!(
                "the write-ahead log could not be truncated after a deletion (a reader holds it); a later checkpoint will"
            ),
            Err(e) => {
                tracing::warn!(error = %Report(&e), "checkpointing the write-ahead log after a deletion failed")
            }
        }
    }

    /// Whether the database answers now (readiness probe).
    pub async fn ping(&self) -> StoreResult<()> {
        self.read(|conn| Ok(conn.batch_execute("SELECT 1")?)).await
    }

    /// Runs `work` on a pooled connection, off the async runtime.
    async fn read<T, F>(&self, work: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut AnyConnection) -> Result<T, Failure> + Send + 'static,
    {
        let pool = self.pool.clone();
        self.blocking(move || {
            let mut conn = checkout(&pool)?;
            let outcome = work(&mut conn);
            conn.record(&outcome);
            outcome
        })
        .await
    }

    /// Runs `work`, a read of one row by a unique key (or of the few rows an index names
    /// at once: a merchant's webhooks), where it is awaited when that can be done at once:
    /// on SQLite, with a connection free in the pool. Such a read takes
    /// tens of microseconds (an index walk in the mapped file, and in WAL mode a reader
    /// does not wait for the writer); the hop to a blocking thread and back cost more
    /// than the read itself, and was a tenth of a `profile/get` (docs/BENCHMARKS.md).
    /// On PostgreSQL a read waits on the network, and with every connection busy it
    /// would wait on the pool: those go through `read`.
    async fn read_point<T, F>(&self, work: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut AnyConnection) -> Result<T, Failure> + Send + 'static,
    {
        if self.backend.is_sqlite()
            && let Some(mut conn) = self.pool.try_get()
        {
            let outcome = work(&mut conn);
            conn.record(&outcome);
            return outcome.map_err(StoreError::from);
        }
        self.read(work).await
    }

    /// Runs `work` as one unit: everything it writes is committed together or not at all,
    /// and durable when this returns. On SQLite it joins the writer's next group commit;
    /// on PostgreSQL it runs in its own transaction on a pooled connection.
    async fn write<T, F>(&self, work: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut AnyConnection) -> Result<T, Failure> + Send + 'static,
    {
        if let Some(writer) = &self.writer {
            return writer.write(work).await;
        }
        let pool = self.pool.clone();
        self.blocking(move || {
            let mut pooled = checkout(&pool)?;
            let conn: &mut AnyConnection = &mut pooled;
            let outcome = conn.transaction(work);
            pooled.record(&outcome);
            outcome
        })
        .await
    }

    async fn blocking<T, F>(&self, job: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce() -> Result<T, Failure> + Send + 'static,
    {
        let span = Span::current();
        tokio::task::spawn_blocking(move || span.in_scope(job).map_err(StoreError::from))
            .await
            .map_err(|e| StoreError::Internal(failure::fault("database task", e)))?
    }
}

fn checkout(pool: &Pool) -> Result<r2d2::PooledConnection<Manager>, Failure> {
    pool.get()
        .map_err(|e| Failure::Store(StoreError::Unavailable(Box::new(e))))
}

/// Whether the database at `url` already holds data sealed under some master key: the
/// fingerprint of that key (or "unknown" for a database from before fingerprints that
/// holds API secrets). Opens nothing that does not exist: a missing SQLite file is `None`.
/// Used before a new master key would be made, which must never happen for such a database.
pub fn sealed_under(url: &str) -> Result<Option<String>, OpenError> {
    let backend = Backend::from_url(url);
    if let Backend::Sqlite(path) = &backend
        && !std::path::Path::new(path).exists()
    {
        return Ok(None);
    }
    let mut conn = Manager(backend.clone())
        .connect_once()
        .map_err(|e| OpenError::Connect(backend.describe(), e.to_string()))?;
    Ok(migrations::data::sealed_under(&mut conn))
}

/// The file store at `url` (contract §11), sealing files under `vault`'s master key:
/// `file:///PATH` or, by default, the local store under `default_root`;
/// `s3://BUCKET[/PREFIX]` for an S3-compatible store configured by the `AWS_*` variables.
/// Needs no database: a restore checks the store is empty before any database exists.
pub fn file_store(
    url: Option<&str>,
    default_root: PathBuf,
    vault: Arc<Vault>,
) -> Result<Arc<dyn DocumentStore>, String> {
    match url.map(str::trim).filter(|u| !u.is_empty()) {
        None => Ok(Arc::new(FileStore::new(default_root, vault))),
        Some(url) if url.starts_with("s3://") => Ok(Arc::new(ObjectFiles::s3(url, vault)?)),
        Some(url) => match url.strip_prefix("file://") {
            Some(path) if path.starts_with('/') => Ok(Arc::new(FileStore::new(path, vault))),
            _ => Err(format!(
                "IDV_STORAGE_URL must be file:///ABSOLUTE/PATH or s3://BUCKET[/PREFIX], not {url}"
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With every pooled connection taken, a point read neither fails nor holds the
    /// runtime's thread: it waits on a blocking thread for the first connection given
    /// back (`read_point`'s fallback; the lookup without the hop is tested in
    /// `tests/sqlite_repositories.rs`).
    #[tokio::test]
    async fn a_point_read_waits_off_the_runtime_while_every_connection_is_taken() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("idv.sqlite3");
        let db = Database::open(&path.display().to_string(), Arc::new(Vault::new(&[7; 32])))
            .expect("opened");
        let taken: Vec<_> = (0..db.pool.max_size())
            .map(|_| checkout(&db.pool).expect("a pooled connection"))
            .collect();
        let read = db.read_point(|conn| Ok(conn.batch_execute("SELECT 1")?));
        tokio::pin!(read);
        assert!(
            futures_util::poll!(&mut read).is_pending(),
            "with no connection free, the read waits on a blocking thread"
        );
        drop(taken);
        read.await.expect("the read ran on a connection given back");
    }
}
