//! The contract of a rate limiter ([`RateLimiter`]): the generic cell rate algorithm's
//! promises, whether the budget lives in one process or in a store several instances
//! share. Each check gets a fresh limiter of the quota [`LIMIT`].

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use super::CheckOn;
use crate::ports::{Quota, RateLimiter};

/// The quota every check's limiter is made with: three at once, then one every 20 s
/// (long enough that no budget refills while a check runs).
pub const LIMIT: Quota = Quota {
    interval: Duration::from_secs(20),
    burst: 3,
};

/// One promise of a limiter's contract, run on a fresh limiter of [`LIMIT`].
pub type LimiterCheck = CheckOn<Arc<dyn RateLimiter>>;

/// Every check, by a name that reads as the promise.
pub const LIMITER_CHECKS: &[(&str, LimiterCheck)] = checks![
    "a_key_spends_its_burst_then_is_told_how_long_to_wait" => burst_then_wait,
    "each_key_has_a_budget_of_its_own" => apart,
    "a_refused_request_spends_nothing" => refusal_is_free,
];

/// Spends `key`'s whole burst; panics if any of it is refused.
async fn spend_burst(limiter: &dyn RateLimiter, key: &str) {
    for n in 1..=LIMIT.burst {
        let answer = limiter.check(key).await;
        assert!(
            answer.is_ok(),
            "request {n} of the burst refused: {answer:?}"
        );
    }
}

/// The wait a refusal names: more than nothing, at most one interval.
fn refused_for(answer: Result<(), Duration>) -> Duration {
    let wait = answer.expect_err("refused past the burst");
    assert!(
        wait > Duration::ZERO && wait <= LIMIT.interval,
        "a refusal names a wait within one interval: {wait:?}"
    );
    wait
}

async fn burst_then_wait(limiter: Arc<dyn RateLimiter>) {
    spend_burst(&*limiter, "203.0.113.7").await;
    refused_for(limiter.check("203.0.113.7").await);
}

async fn apart(limiter: Arc<dyn RateLimiter>) {
    spend_burst(&*limiter, "key-a").await;
    refused_for(limiter.check("key-a").await);
    spend_burst(&*limiter, "key-b").await;
    refused_for(limiter.check("key-b").await);
    refused_for(limiter.check("key-a").await);
}

async fn refusal_is_free(limiter: Arc<dyn RateLimiter>) {
    spend_burst(&*limiter, "key").await;
    let first = refused_for(limiter.check("key").await);
    for _ in 0..5 {
        let again = refused_for(limiter.check("key").await);
        assert!(
            again <= first,
            "a refusal does not push the next request back: {again:?} after {first:?}"
        );
    }
}

/// Runs every check on a fresh limiter of [`LIMIT`] from `fresh`, each under its name;
/// panics naming every check that failed.
pub fn run_all(
    mut fresh: impl FnMut(Quota) -> Arc<dyn RateLimiter>,
    block_on: impl Fn(Pin<Box<dyn Future<Output = ()> + Send>>),
) {
    super::run_each(LIMITER_CHECKS, || fresh(LIMIT), block_on);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{FixedClock, MemoryLimiter};

    #[test]
    fn the_memory_limiter_keeps_the_contract() {
        run_all(
            |quota| Arc::new(MemoryLimiter::new(quota, Arc::new(FixedClock::default()))),
            futures_executor::block_on,
        );
    }
}
