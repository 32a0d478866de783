//! A per-address limit on the public quiz routes: a fixed window per client IP, kept in
//! memory (each instance counts its own traffic). Answers 429 `RATE_LIMITED` with
//! `Retry-After`.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::middleware::Next;
use actix_web::web;

use crate::error::ApiError;

const WINDOW: Duration = Duration::from_secs(60);

#[derive(Debug)]
pub struct RateLimiter {
    per_window: u32,
    windows: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl RateLimiter {
    /// `per_minute` requests per client address and minute.
    pub fn new(per_minute: u32) -> Self {
        Self {
            per_window: per_minute,
            windows: Mutex::default(),
        }
    }

    /// `Ok` to go on, or `Err(seconds to wait)`.
    fn admit(&self, ip: IpAddr, now: Instant) -> Result<(), u64> {
        let mut windows = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        if windows.len() > 100_000 {
            // Forget finished windows so that the map cannot grow without bound.
            windows.retain(|_, (start, _)| now.duration_since(*start) < WINDOW);
        }
        let (start, count) = windows.entry(ip).or_insert((now, 0));
        if now.duration_since(*start) >= WINDOW {
            *start = now;
            *count = 0;
        }
        if *count >= self.per_window {
            let wait = WINDOW.saturating_sub(now.duration_since(*start));
            return Err(wait.as_secs().max(1));
        }
        *count += 1;
        Ok(())
    }
}

pub async fn middleware(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let limiter = req.app_data::<web::Data<RateLimiter>>().cloned();
    if let (Some(limiter), Some(peer)) = (limiter, req.peer_addr())
        && let Err(wait) = limiter.admit(peer.ip(), Instant::now())
    {
        let mut error = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "RATE_LIMITED",
            "Too many requests; retry later.",
        );
        error.retry_after = Some(wait);
        // Answered with the error attached, so the envelope middleware renders it.
        return Ok(req.error_response(error).map_into_right_body());
    }
    Ok(next.call(req).await?.map_into_left_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_address_gets_its_own_window() {
        let limiter = RateLimiter::new(2);
        let (a, b): (IpAddr, IpAddr) = (
            "10.0.0.1".parse().expect("ip"),
            "10.0.0.2".parse().expect("ip"),
        );
        let t0 = Instant::now();
        assert!(limiter.admit(a, t0).is_ok());
        assert!(limiter.admit(a, t0).is_ok());
        assert_eq!(limiter.admit(a, t0 + Duration::from_secs(20)), Err(40));
        assert!(
            limiter.admit(b, t0).is_ok(),
            "another address is not limited"
        );
        assert!(limiter.admit(a, t0 + WINDOW).is_ok(), "a new window starts");
    }
}
