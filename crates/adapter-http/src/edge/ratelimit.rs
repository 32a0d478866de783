//! Rate limits (contract §8), behind the domain's `RateLimiter` port so that a store shared
//! by several instances (PostgreSQL, contract §11) can take the in-process one's place:
//! - the merchant API, per API key, counted once a request is authenticated;
//! - failed authentications, per client address (a key id travels in clear, so a stranger
//!   must not be able to spend a merchant's budget: failures count only here);
//! - the client's quiz pages, per client address.
//!
//! Past a limit: 429 `RATE_LIMITED` with `Retry-After`.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web;
use async_trait::async_trait;
use domain::ports::{Quota, RateLimiter};
use governor::DefaultKeyedRateLimiter;
use governor::clock::{Clock, DefaultClock};

use crate::edge::client_addr::client_ip;
use crate::error::ApiError;

/// Keys whose budget is full again are forgotten once the table holds this many.
const FORGET_AFTER_KEYS: usize = 100_000;

/// GCRA in this process's memory (governor).
pub struct InProcess {
    limiter: DefaultKeyedRateLimiter<String>,
    clock: DefaultClock,
}

impl std::fmt::Debug for InProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("InProcess")
    }
}

impl InProcess {
    pub fn new(quota: Quota) -> Self {
        let burst = NonZeroU32::new(quota.burst).unwrap_or(NonZeroU32::MIN);
        let quota = governor::Quota::with_period(quota.interval)
            .unwrap_or_else(|| governor::Quota::per_second(NonZeroU32::MAX))
            .allow_burst(burst);
        Self {
            limiter: DefaultKeyedRateLimiter::keyed(quota),
            clock: DefaultClock::default(),
        }
    }
}

#[async_trait]
impl RateLimiter for InProcess {
    async fn check(&self, key: &str) -> Result<(), Duration> {
        if self.limiter.len() > FORGET_AFTER_KEYS {
            self.limiter.retain_recent();
        }
        self.limiter
            .check_key(&key.to_owned())
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }
}

/// Failed authentications per client address. Past the limit the address is refused
/// before any signature is computed, until its budget refills.
pub struct FailureGate {
    limiter: Option<Box<dyn RateLimiter>>,
    blocked: Mutex<HashMap<IpAddr, Instant>>,
}

impl FailureGate {
    pub fn new(limiter: Option<Box<dyn RateLimiter>>) -> Self {
        Self {
            limiter,
            blocked: Mutex::default(),
        }
    }

    /// How long `ip` must still wait, if it is blocked.
    pub fn blocked(&self, ip: IpAddr) -> Option<Duration> {
        let blocked = self.blocked.lock().unwrap_or_else(|p| p.into_inner());
        let until = *blocked.get(&ip)?;
        until.checked_duration_since(Instant::now())
    }

    /// Counts a failure of `ip`; `Some(wait)` when it passed the limit with it.
    pub async fn record_failure(&self, ip: IpAddr) -> Option<Duration> {
        let wait = self.limiter.as_ref()?.check(&ip.to_string()).await.err()?;
        let mut blocked = self.blocked.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        if blocked.len() > FORGET_AFTER_KEYS {
            blocked.retain(|_, until| *until > now);
        }
        blocked.insert(ip, now + wait);
        Some(wait)
    }
}

impl std::fmt::Debug for FailureGate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FailureGate")
    }
}

/// Every limit of the service, shared by all workers of an instance (and, with a shared
/// limiter, by all instances).
pub struct RateLimits {
    /// Per API key; `None`: off.
    pub api: Option<Box<dyn RateLimiter>>,
    pub auth_failures: FailureGate,
    /// Per client address on the quiz pages; `None`: off.
    pub client_pages: Option<Box<dyn RateLimiter>>,
    /// Dashboard sign-in attempts per client address, counted before any password is
    /// hashed; `None`: off.
    pub sign_in: Option<Box<dyn RateLimiter>>,
}

impl std::fmt::Debug for RateLimits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RateLimits")
    }
}

/// The limit on the client's quiz routes, by client address.
pub async fn client_pages(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let limits = req.app_data::<web::Data<RateLimits>>().cloned();
    if let Some(limiter) = limits.as_ref().and_then(|l| l.client_pages.as_ref())
        && let Err(wait) = limiter.check(&client_ip(req.request()).to_string()).await
    {
        // Answered with the error attached, so the envelope middleware renders it.
        return Ok(req
            .error_response(ApiError::rate_limited(wait))
            .map_into_right_body());
    }
    Ok(next.call(req).await?.map_into_left_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn per_minute(count: u32) -> InProcess {
        InProcess::new(Quota::per_minute(count).expect("limited"))
    }

    #[test]
    fn the_in_process_limiter_keeps_the_contract() {
        domain::contract::limits::run_all(
            |quota| std::sync::Arc::new(InProcess::new(quota)),
            |check| actix_web::rt::System::new().block_on(check),
        );
    }

    #[actix_web::test]
    async fn a_per_second_quota_allows_its_burst_then_its_rate() {
        let limiter = InProcess::new(Quota::per_second(10, 20).expect("limited"));
        for _ in 0..20 {
            assert!(limiter.check("k").await.is_ok());
        }
        let wait = limiter.check("k").await.expect_err("burst spent");
        assert!(wait <= Duration::from_millis(100), "{wait:?}");
    }

    #[test]
    fn a_zero_limit_is_no_limit() {
        assert!(Quota::per_second(0, 0).is_none());
        assert!(Quota::per_minute(0).is_none());
    }

    #[actix_web::test]
    async fn an_address_past_its_failures_is_blocked_until_they_refill() {
        let gate = FailureGate::new(Some(Box::new(per_minute(2))));
        let ip: IpAddr = "203.0.113.1".parse().expect("ip");
        assert_eq!(gate.record_failure(ip).await, None);
        assert_eq!(gate.record_failure(ip).await, None);
        assert!(gate.blocked(ip).is_none());
        assert!(gate.record_failure(ip).await.is_some());
        assert!(gate.blocked(ip).is_some());
        let other: IpAddr = "203.0.113.2".parse().expect("ip");
        assert!(gate.blocked(other).is_none());
    }
}
