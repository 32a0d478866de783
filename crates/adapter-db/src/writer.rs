//! Grouped commits for SQLite. SQLite takes one writer at a time, and each commit waits for
//! an fsync (`synchronous=FULL`): one commit per request caps writes at one fsync each.
//! Here one thread owns the write connection; requests hand it their unit of work, and it
//! runs every unit waiting at that moment inside one transaction, each in its own
//! savepoint (a failing unit rolls back only its own work), then commits once. A unit's
//! result is handed back only after that commit is durable: nothing is acknowledged that
//! a crash could lose.

use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

use diesel::connection::SimpleConnection;
use diesel::{Connection, RunQueryDsl};
use domain::error::Report;
use domain::ports::{StoreError, StoreResult};
use tokio::sync::oneshot;

use crate::connection::{AnyConnection, Manager};
use crate::failure::Failure;

/// Units of work committed together at most.
const MAX_GROUP: usize = 64;

/// What the writer calls with the outcome of the group's commit.
type Done = Box<dyn FnOnce(Result<(), StoreError>) + Send>;
/// A unit of work: runs in its savepoint (or is told why it cannot run), and says what to
/// answer once the commit is known.
type Job = Box<dyn FnOnce(Result<&mut AnyConnection, &StoreError>) -> Done + Send>;

/// The handle requests send their work through.
#[derive(Clone)]
pub(crate) struct Writer {
    jobs: Sender<Job>,
}

impl Writer {
    /// Starts the writer thread, which opens its own connection with `manager`.
    pub(crate) fn start(manager: Manager) -> Self {
        let (jobs, queue) = mpsc::channel::<Job>();
        thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || run(&manager, &queue))
            .expect("the writer thread starts");
        Self { jobs }
    }

    /// Runs `work` in its own savepoint of the next group; its result once committed.
    pub(crate) async fn write<T, F>(&self, work: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut AnyConnection) -> Result<T, Failure> + Send + 'static,
    {
        let (answer, answered) = oneshot::channel::<StoreResult<T>>();
        let span = tracing::Span::current();
        let job: Job = Box::new(move |conn| {
            let result = match conn {
                // Inside the group's transaction, diesel makes this a savepoint.
                Ok(conn) => span
                    .in_scope(|| conn.transaction(work))
                    .map_err(StoreError::from),
                Err(cause) => Err(copy(cause)),
            };
            Box::new(move |committed| {
                let outcome = match (result, committed) {
                    (Ok(value), Ok(())) => Ok(value),
                    (Ok(_), Err(e)) | (Err(e), _) => Err(e),
                };
                let _ = answer.send(outcome);
            })
        });
        self.jobs
            .send(job)
            .map_err(|_| StoreError::Internal("the SQLite writer has stopped".into()))?;
        answered
            .await
            .map_err(|_| StoreError::Internal("the SQLite writer dropped a unit of work".into()))?
    }
}

fn run(manager: &Manager, queue: &Receiver<Job>) {
    let mut conn: Option<AnyConnection> = None;
    while let Ok(first) = queue.recv() {
        let mut group = vec![first];
        while group.len() < MAX_GROUP {
            match queue.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        let mut c = match conn.take().map_or_else(|| connect(manager), Ok) {
            Ok(c) => c,
            Err(e) => {
                let cause = StoreError::Unavailable(Box::new(e));
                for job in group {
                    job(Err(&cause))(Ok(()));
                }
                continue;
            }
        };
        // A unit that panics loses its own answer (its caller sees an internal error);
        // the connection, in an unknown state, is replaced before the next group.
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut done = Vec::with_capacity(group.len());
            let committed = c
                .transaction::<_, Failure, _>(|tx| {
                    take_the_write_lock(tx)?;
                    for job in group {
                        done.push(job(Ok(tx)));
                    }
                    Ok(())
                })
                .map_err(StoreError::from);
            for answer in done {
                answer(committed.as_ref().map(|_| ()).map_err(copy));
            }
        }));
        if outcome.is_ok() {
            conn = Some(c);
        }
    }
}

/// The writer's connection. Each unit's savepoint journals the pages it changes that an
/// earlier unit of the group had changed (about 350 pages a group under a flood of
/// creates); SQLite keeps such a statement journal in a temporary file past 64 KiB, and
/// creating, writing and deleting those files took most of the writer's system calls
/// (docs/BENCHMARKS.md). In memory they cost a copy each, and are gone with the commit.
fn connect(manager: &Manager) -> Result<AnyConnection, diesel::ConnectionError> {
    let mut conn = manager.connect_once()?;
    conn.batch_execute("PRAGMA temp_store = MEMORY")
        .map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
    Ok(conn)
}

/// Takes the database's write lock at the start of a group's transaction (`BEGIN` alone
/// defers it). Otherwise a unit that reads first pins a snapshot, and a commit by another
/// process meanwhile (an `idv` command beside the server) makes the unit's first write
/// fail at once with "database is locked" instead of waiting its turn: a write statement
/// takes the lock, waiting up to the busy timeout, even when it changes nothing.
fn take_the_write_lock(conn: &mut AnyConnection) -> Result<(), Failure> {
    diesel::sql_query("DELETE FROM data_migrations WHERE 0").execute(conn)?;
    Ok(())
}

/// The same failure, for each unit of a group: its causes written out, as a cause is not
/// `Clone`.
fn copy(e: &StoreError) -> StoreError {
    let cause = Report(e).to_string().into();
    match e {
        StoreError::Unavailable(_) => StoreError::Unavailable(cause),
        _ => StoreError::Internal(cause),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc::sync_channel;
    use std::time::Duration;

    use diesel::connection::SimpleConnection;

    use super::*;
    use crate::connection::{Backend, enable_wal};

    fn count(conn: &mut AnyConnection) -> Result<i64, Failure> {
        #[derive(diesel::QueryableByName)]
        struct Count {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        let row: Count = diesel::sql_query("SELECT count(*) AS n FROM t").get_result(conn)?;
        Ok(row.n)
    }

    /// The savepoints' journals are kept in memory, not in temporary files (`connect`).
    #[tokio::test]
    async fn the_writer_journals_its_savepoints_in_memory() {
        let dir = tempfile::tempdir().expect("scratch");
        let path = dir.path().join("journal.sqlite3").display().to_string();
        enable_wal(&path).expect("wal");
        Manager(Backend::Sqlite(path.clone()))
            .connect_once()
            .expect("connection")
            .batch_execute("CREATE TABLE data_migrations (name TEXT);")
            .expect("table");
        #[derive(diesel::QueryableByName)]
        struct TempStore {
            #[diesel(sql_type = diesel::sql_types::Integer)]
            temp_store: i32,
        }
        let writer = Writer::start(Manager(Backend::Sqlite(path)));
        let store = writer
            .write(|conn| Ok(diesel::sql_query("PRAGMA temp_store").get_result::<TempStore>(conn)?))
            .await
            .expect("asked");
        assert_eq!(store.temp_store, 2, "2 is MEMORY");
    }

    /// Two writers on one file, as the server and an `idv` command are: a unit that reads
    /// before it writes, while the other writer commits, still writes (it holds the lock
    /// from its transaction's start, so the other waits its turn).
    #[tokio::test]
    async fn a_unit_that_reads_first_is_not_refused_by_another_process_committing() {
        let dir = tempfile::tempdir().expect("scratch");
        let path = dir.path().join("two-writers.sqlite3").display().to_string();
        enable_wal(&path).expect("wal");
        let manager = || Manager(Backend::Sqlite(path.clone()));
        manager()
            .connect_once()
            .expect("connection")
            .batch_execute("CREATE TABLE data_migrations (name TEXT); CREATE TABLE t (x INTEGER);")
            .expect("tables");
        let (ours, theirs) = (Writer::start(manager()), Writer::start(manager()));
        let (read, has_read) = sync_channel::<()>(1);
        let (committed, has_committed) = sync_channel::<()>(1);
        let first = ours.write(move |conn| {
            let before = count(conn)?;
            read.send(()).expect("signal");
            // The other writer cannot commit now; it is given a second to try.
            let _ = has_committed.recv_timeout(Duration::from_secs(1));
            diesel::sql_query("INSERT INTO t (x) VALUES (1)").execute(conn)?;
            Ok(before)
        });
        let second = async {
            tokio::task::spawn_blocking(move || has_read.recv())
                .await
                .expect("waited")
                .expect("signal");
            let written = theirs
                .write(|conn| {
                    diesel::sql_query("INSERT INTO t (x) VALUES (2)").execute(conn)?;
                    Ok(())
                })
                .await;
            let _ = committed.send(());
            written
        };
        let (first, second) = tokio::join!(first, second);
        assert_eq!(first.expect("the unit that read first wrote"), 0);
        second.expect("the other writer waited its turn");
        let rows = theirs.write(count).await.expect("counted");
        assert_eq!(rows, 2);
    }
}
