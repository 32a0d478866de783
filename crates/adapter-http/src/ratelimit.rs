//! Rate limits (contract §8), behind a small port (`Limiter`) so that a store shared by
//! several instances can take the in-process one's place:
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
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::client_addr::client_ip;
use crate::error::ApiError;

/// A budget of requests per key.
pub trait Limiter: Send + Sync + std::fmt::Debug {
    /// Takes one request from `key`'s budget; `Err(wait)` when none is left.
    fn check(&self, key: &str) -> Result<(), Duration>;
}

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
        Self {
            limiter: DefaultKeyedRateLimiter::keyed(quota),
            clock: DefaultClock::default(),
        }
    }

    /// `rate` per second with bursts of `burst`; `None` when `rate` is 0 (no limit).
    pub fn per_second(rate: u32, burst: u32) -> Option<Self> {
        let rate = NonZeroU32::new(rate)?;
        let burst = NonZeroU32::new(burst).unwrap_or(rate);
        Some(Self::new(Quota::per_second(rate).allow_burst(burst)))
    }

    /// `count` per minute, all of it usable at once; `None` when `count` is 0.
    pub fn per_minute(count: u32) -> Option<Self> {
        NonZeroU32::new(count).map(|n| Self::new(Quota::per_minute(n)))
    }
}

impl Limiter for InProcess {
    fn check(&self, key: &str) -> Result<(), Duration> {
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
#[derive(Debug)]
pub struct FailureGate {
    limiter: Option<Box<dyn Limiter>>,
    blocked: Mutex<HashMap<IpAddr, Instant>>,
}

impl FailureGate {
    pub fn new(limiter: Option<Box<dyn Limiter>>) -> Self {
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
    pub fn record_failure(&self, ip: IpAddr) -> Option<Duration> {
        let wait = self.limiter.as_ref()?.check(&ip.to_string()).err()?;
        let mut blocked = self.blocked.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        if blocked.len() > FORGET_AFTER_KEYS {
            blocked.retain(|_, until| *until > now);
        }
        blocked.insert(ip, now + wait);
        Some(wait)
    }
}

/// Every limit of the service, shared by all workers of an instance.
#[derive(Debug)]
pub struct RateLimits {
    /// Per API key; `None`: off.
    pub api: Option<Box<dyn Limiter>>,
    pub auth_failures: FailureGate,
    /// Per client address on the quiz pages; `None`: off.
    pub client_pages: Option<Box<dyn Limiter>>,
}

/// The limit on the client's quiz routes, by client address.
pub async fn client_pages(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let limits = req.app_data::<web::Data<RateLimits>>().cloned();
    if let Some(limiter) = limits.as_ref().and_then(|l| l.client_pages.as_ref())
        && let Err(wait) = limiter.check(&client_ip(req.request()).to_string())
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

    #[test]
    fn each_key_has_its_own_budget() {
        let limiter = InProcess::per_minute(2).expect("limited");
        assert!(limiter.check("a").is_ok());
        assert!(limiter.check("a").is_ok());
        let wait = limiter.check("a").expect_err("over");
        assert!(
            wait > Duration::from_secs(20) && wait <= Duration::from_secs(30),
            "{wait:?}"
        );
        assert!(limiter.check("b").is_ok(), "another key is not limited");
    }

    #[test]
    fn a_zero_limit_is_no_limit() {
        assert!(InProcess::per_second(0, 0).is_none());
        assert!(InProcess::per_minute(0).is_none());
    }

    #[test]
    fn an_address_past_its_failures_is_blocked_until_they_refill() {
        let gate = FailureGate::new(InProcess::per_minute(2).map(|l| Box::new(l) as _));
        let ip: IpAddr = "203.0.113.1".parse().expect("ip");
        assert_eq!(gate.record_failure(ip), None);
        assert_eq!(gate.record_failure(ip), None);
        assert!(gate.blocked(ip).is_none());
        assert!(gate.record_failure(ip).is_some());
        assert!(gate.blocked(ip).is_some());
        let other: IpAddr = "203.0.113.2".parse().expect("ip");
        assert!(gate.blocked(other).is_none());
    }
}
