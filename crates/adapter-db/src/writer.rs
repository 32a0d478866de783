//! Grouped commits for SQLite. SQLite takes one writer at a time, and each commit waits for
//! an fsync (`synchronous=FULL`): one commit per request caps writes at one fsync each.
//! Here one thread owns the write connection; requests hand it their unit of work, and it
//! runs every unit waiting at that moment inside one transaction, each in its own
//! savepoint (a failing unit rolls back only its own work), then commits once. A unit's
//! result is handed back only after that commit is durable: nothing is acknowledged that
//! a crash could lose.

use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

use diesel::Connection;
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
        let mut c = match conn.take().map_or_else(|| manager.connect_once(), Ok) {
            Ok(c) => c,
            Err(e) => {
                let cause = StoreError::Unavailable(e.to_string());
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

/// The same failure, for each unit of a group.
fn copy(e: &StoreError) -> StoreError {
    match e {
        StoreError::Unavailable(m) => StoreError::Unavailable(m.clone()),
        other => StoreError::Internal(other.to_string()),
    }
}
