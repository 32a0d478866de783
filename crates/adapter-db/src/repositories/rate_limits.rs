//! Rate limits shared by the instances on one PostgreSQL database: the generic cell rate
//! algorithm in one atomic statement per check, over the unlogged `rate_limits` table.

use domain::error::Report;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use domain::ports::{Quota, RateLimiter};

use crate::Database;

/// Takes one request from a key's budget, on the database's clock (instances' clocks may
/// differ; the database's is the one they share). The row's `tat` moves on by `interval`
/// per request accepted; a request is accepted when that leaves `tat` at most
/// `interval × burst` ahead of now. Refused: the wait until it would be, in microseconds.
const CHECK: &str = "
WITH now AS (SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::BIGINT AS us),
taken AS (
    INSERT INTO rate_limits AS r (key, tat)
    SELECT $1, now.us + $2 FROM now
    ON CONFLICT (key) DO UPDATE
        SET tat = GREATEST(r.tat, (SELECT us FROM now)) + $2
        WHERE GREATEST(r.tat, (SELECT us FROM now)) + $2 - $3 <= (SELECT us FROM now)
    RETURNING 0::BIGINT AS wait
)
SELECT COALESCE(
    (SELECT wait FROM taken),
    (SELECT GREATEST(r.tat + $2 - $3 - now.us, 1) FROM rate_limits r, now WHERE r.key = $1),
    0
) AS wait";

/// Rows whose budget is whole again carry nothing: they are dropped now and then.
const FORGET: &str = "
DELETE FROM rate_limits
WHERE tat < (EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::BIGINT";

/// Checks between two cleanups.
const FORGET_EVERY: u64 = 10_000;

#[derive(QueryableByName)]
struct Wait {
    #[diesel(sql_type = BigInt)]
    wait: i64,
}

/// One limit (API keys, failed authentications, quiz pages) counted in the database.
pub struct SharedLimiter {
    db: Database,
    /// Keeps the limits' keys apart in the one table.
    scope: &'static str,
    interval_us: i64,
    window_us: i64,
    checks: AtomicU64,
}

impl std::fmt::Debug for SharedLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedLimiter")
            .field("scope", &self.scope)
            .finish()
    }
}

impl Database {
    /// A limit shared by every instance on this database, on PostgreSQL; `None` on
    /// SQLite, where one server holds the database and counts in its own memory.
    pub fn shared_limiter(&self, scope: &'static str, quota: Quota) -> Option<SharedLimiter> {
        if self.backend.is_sqlite() {
            return None;
        }
        let interval_us = i64::try_from(quota.interval.as_micros()).unwrap_or(i64::MAX);
        Some(SharedLimiter {
            db: self.clone(),
            scope,
            interval_us,
            window_us: interval_us.saturating_mul(i64::from(quota.burst.max(1))),
            checks: AtomicU64::new(0),
        })
    }
}

#[async_trait]
impl RateLimiter for SharedLimiter {
    async fn check(&self, key: &str) -> Result<(), Duration> {
        let key = format!("{}:{key}", self.scope);
        let (interval, window) = (self.interval_us, self.window_us);
        let forget = self.checks.fetch_add(1, Ordering::Relaxed) % FORGET_EVERY == FORGET_EVERY - 1;
        // One statement, atomic on its own: run on a pooled connection, outside the
        // writer and without a transaction of its own.
        let checked = self
            .db
            .read(move |conn| {
                if forget {
                    diesel::sql_query(FORGET).execute(conn)?;
                }
                let wait: Wait = diesel::sql_query(CHECK)
                    .bind::<Text, _>(key)
                    .bind::<BigInt, _>(interval)
                    .bind::<BigInt, _>(window)
                    .get_result(conn)?;
                Ok(wait.wait)
            })
            .await;
        match checked {
            Ok(0) => Ok(()),
            Ok(wait_us) => Err(Duration::from_micros(wait_us.unsigned_abs())),
            Err(e) => {
                // A limit that cannot be counted now does not refuse the request: the
                // request's own work meets the same database and fails there if it must.
                tracing::warn!(scope = self.scope, error = %Report(&e), "rate limit not checked");
                Ok(())
            }
        }
    }
}
