//! Translation of driver errors into the domain's `StoreError`, at the adapter's edge.

use diesel::result::{DatabaseErrorKind, Error as DieselError};
use domain::error::Cause;
use domain::ports::StoreError;

/// Anything that can go wrong inside a unit of database work.
#[derive(Debug)]
pub(crate) enum Failure {
    Diesel(DieselError),
    Store(StoreError),
}

impl From<DieselError> for Failure {
    fn from(e: DieselError) -> Self {
        Failure::Diesel(e)
    }
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Self {
        Failure::Store(e)
    }
}

impl From<Failure> for StoreError {
    fn from(f: Failure) -> Self {
        match f {
            Failure::Store(e) => e,
            Failure::Diesel(DieselError::DatabaseError(kind, info)) => match kind {
                DatabaseErrorKind::UniqueViolation => StoreError::Duplicate,
                DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand => {
                    StoreError::Unavailable(Box::new(DieselError::DatabaseError(kind, info)))
                }
                // SQLite reports a lock held past the busy timeout this way.
                _ if info.message().contains("database is locked") => {
                    StoreError::Unavailable(Box::new(DieselError::DatabaseError(kind, info)))
                }
                _ => StoreError::Internal(Box::new(DieselError::DatabaseError(kind, info))),
            },
            Failure::Diesel(DieselError::NotFound) => StoreError::Missing,
            Failure::Diesel(other) => StoreError::Internal(Box::new(other)),
        }
    }
}

/// A stored value that no longer parses means the row was written by something other
/// than this service, or by a version with different rules.
pub(crate) fn corrupt(column: &str, reason: impl std::fmt::Display) -> StoreError {
    StoreError::Internal(format!("stored {column} is not valid: {reason}").into())
}

/// A fault met while doing something: what, and the error met, kept whole as its source.
#[derive(Debug, thiserror::Error)]
#[error("{what}")]
struct Fault {
    what: &'static str,
    #[source]
    cause: Cause,
}

/// A fault met while doing `what`, keeping `e` whole as its cause (`what: e` in the log).
pub(crate) fn fault(
    what: &'static str,
    e: impl std::error::Error + Send + Sync + 'static,
) -> Cause {
    Box::new(Fault {
        what,
        cause: Box::new(e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fault_says_what_was_being_done_and_keeps_what_went_wrong_as_its_source() {
        let cause = std::io::Error::other("disk full");
        let fault = fault("database task", cause);
        assert_eq!(fault.to_string(), "database task");
        let source = fault.source().expect("its cause");
        assert_eq!(source.to_string(), "disk full");
    }
}
