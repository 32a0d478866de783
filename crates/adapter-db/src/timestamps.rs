//! Timestamps are stored as unix seconds: the interface shows second precision, and an
//! integer compares and sorts the same way on every backend.

use domain::ports::StoreError;
use time::OffsetDateTime;

use crate::failure::corrupt;

pub(crate) fn to_db(t: OffsetDateTime) -> i64 {
    t.unix_timestamp()
}

pub(crate) fn from_db(column: &str, seconds: i64) -> Result<OffsetDateTime, StoreError> {
    OffsetDateTime::from_unix_timestamp(seconds).map_err(|e| corrupt(column, e))
}
