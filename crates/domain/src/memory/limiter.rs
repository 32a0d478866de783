//! Rate limits in memory.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use time::OffsetDateTime;

use crate::ports::{Clock, Quota, RateLimiter};

/// Rate limits in memory: the generic cell rate algorithm on `clock`, one theoretical
/// arrival time per key. On a clock that stands still no budget ever refills.
pub struct MemoryLimiter {
    quota: Quota,
    clock: Arc<dyn Clock>,
    next: Mutex<HashMap<String, OffsetDateTime>>,
}

impl std::fmt::Debug for MemoryLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryLimiter")
            .field("quota", &self.quota)
            .finish()
    }
}

impl MemoryLimiter {
    /// A limiter of `quota` on `clock`.
    pub fn new(quota: Quota, clock: Arc<dyn Clock>) -> Self {
        Self {
            quota,
            clock,
            next: Mutex::default(),
        }
    }
}

#[async_trait]
impl RateLimiter for MemoryLimiter {
    async fn check(&self, key: &str) -> Result<(), std::time::Duration> {
        let now = self.clock.now();
        let interval = time::Duration::try_from(self.quota.interval).unwrap_or(time::Duration::MAX);
        let mut next = self.next.lock().expect("lock");
        let arrival = next.get(key).copied().unwrap_or(now).max(now);
        let allowed_at = arrival - interval * self.quota.burst.saturating_sub(1);
        if allowed_at > now {
            return Err((allowed_at - now).try_into().unwrap_or_default());
        }
        next.insert(key.to_owned(), arrival + interval);
        Ok(())
    }
}
