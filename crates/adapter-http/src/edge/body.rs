//! Bounds on every request body: a size limit where a body is read, and, on every
//! route, time limits (`bounded`): a body that sends no byte for 15 s, or that misses
//! its pace, is answered 408 and its connection closed. A slow or silent sender cannot
//! hold a worker's buffer, or a connection, open for long.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use actix_web::body::MessageBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::StatusCode;
use actix_web::http::header::{CONTENT_TYPE, HeaderMap};
use actix_web::middleware::Next;
use actix_web::rt::time::timeout;
use actix_web::web::{self, BytesMut};
use actix_web::{HttpMessage, HttpRequest};
use futures_util::StreamExt;

use crate::error::ApiError;

/// How long a body may send nothing before it is given up.
pub const STALL_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a body other than an upload may take in all, unless set otherwise.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(60);
/// An upload's first seconds, which it may spend as slowly as it likes (short of
/// stalling): a phone's connection takes a moment to pick up speed.
const UPLOAD_GRACE: Duration = Duration::from_secs(10);
/// The average an upload must keep after its grace: 16 KiB/s, so 40 MiB take at most
/// about 43 minutes.
const UPLOAD_BYTES_PER_SECOND: u64 = 16 * 1024;

/// How long any body other than an upload may take in all (`IDV_BODY_DEADLINE_SECONDS`).
#[derive(Debug, Clone, Copy)]
pub struct BodyDeadline(pub Duration);

impl Default for BodyDeadline {
    fn default() -> Self {
        Self(DEFAULT_DEADLINE)
    }
}

/// What a body must keep up with, besides never stalling.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Pace {
    /// Whole within this long (API and form posts).
    Within(Duration),
    /// An upload: after a grace, at least this many bytes a second on average over the
    /// time after the grace. A larger upload gets more time, a trickle none.
    AtLeast {
        grace: Duration,
        bytes_per_second: u64,
    },
}

impl Pace {
    /// File uploads are the only multipart bodies; every other body is small.
    fn of(headers: &HeaderMap, deadline: BodyDeadline) -> Self {
        let multipart = headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.trim_start()
                    .to_ascii_lowercase()
                    .starts_with("multipart/")
            });
        if multipart {
            Self::AtLeast {
                grace: UPLOAD_GRACE,
                bytes_per_second: UPLOAD_BYTES_PER_SECOND,
            }
        } else {
            Self::Within(deadline.0)
        }
    }

    /// How long after the body began it fails, if `received` bytes are all it sends.
    fn due_after(self, received: u64) -> Duration {
        match self {
            Self::Within(deadline) => deadline,
            Self::AtLeast {
                grace,
                bytes_per_second,
            } => grace + Duration::from_secs_f64(received as f64 / bytes_per_second as f64),
        }
    }
}

/// Why a body was given up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Late {
    Stalled,
    TooSlow,
}

/// Whether a request's body was given up; in its extensions, for the envelope.
#[derive(Debug, Clone, Default)]
pub struct GivenUp(Rc<Cell<Option<Late>>>);

impl GivenUp {
    /// The 408 a request whose body was given up is answered, whatever its handler made
    /// of the cut body.
    pub fn of(req: &HttpRequest) -> Option<ApiError> {
        let late = req.extensions().get::<Self>()?.0.get()?;
        let description = match late {
            Late::Stalled => "The request body stopped arriving for 15 seconds.",
            Late::TooSlow => "The request body arrived too slowly.",
        };
        Some(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "REQUEST_TIMEOUT",
            description,
        ))
    }
}

/// Puts every request's body under its time limits (see the module's text).
pub async fn bounded(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let payload = req.take_payload();
    if matches!(payload, Payload::None) {
        return next.call(req).await;
    }
    let deadline = req
        .app_data::<web::Data<BodyDeadline>>()
        .map_or_else(BodyDeadline::default, |d| *d.get_ref());
    let pace = Pace::of(req.headers(), deadline);
    let given_up = GivenUp::default();
    req.extensions_mut().insert(given_up.clone());
    let started = Instant::now();
    let stream = futures_util::stream::unfold(Some((payload, 0u64)), move |state| {
        let given_up = given_up.clone();
        async move {
            let (mut payload, received) = state?;
            let due = started + pace.due_after(received);
            let now = Instant::now();
            let stall = now + STALL_TIMEOUT;
            let wait = due.min(stall).saturating_duration_since(now);
            match timeout(wait, payload.next()).await {
                Ok(Some(Ok(chunk))) => {
                    let received = received + chunk.len() as u64;
                    Some((Ok(chunk), Some((payload, received))))
                }
                Ok(Some(Err(e))) => Some((Err(e), None)),
                Ok(None) => None,
                Err(_) => {
                    let late = if stall <= due {
                        Late::Stalled
                    } else {
                        Late::TooSlow
                    };
                    given_up.0.set(Some(late));
                    let error = std::io::Error::new(std::io::ErrorKind::TimedOut, "body late");
                    Some((Err(PayloadError::Io(error)), None))
                }
            }
        }
    });
    // Fused: the multipart parser may poll again after the end.
    req.set_payload(Payload::Stream {
        payload: Box::pin(stream.fuse()),
    });
    next.call(req).await
}

fn unreadable(e: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(
        "REQUEST_BODY_INVALID",
        format!("The request body could not be read: {e}."),
    )
}

/// 413 `REQUEST_TOO_LARGE` for a body over `limit` bytes.
pub fn too_large(limit: usize) -> ApiError {
    let size = if limit >= 1024 * 1024 {
        format!("{} MiB", limit / (1024 * 1024))
    } else {
        format!("{} KiB", limit / 1024)
    };
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "REQUEST_TOO_LARGE",
        format!("The request body is larger than {size}."),
    )
}

/// The whole body, at most `limit` bytes.
pub async fn read(mut payload: Payload, limit: usize) -> Result<BytesMut, ApiError> {
    let mut body = BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(unreadable)?;
        if body.len() + chunk.len() > limit {
            return Err(too_large(limit));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::header::HeaderValue;

    fn pace_of(content_type: &str) -> Pace {
        let mut headers = HeaderMap::new();
        headers.insert(
            CONTENT_TYPE,
            HeaderValue::from_str(content_type).expect("value"),
        );
        Pace::of(&headers, BodyDeadline::default())
    }

    #[test]
    fn a_form_or_json_body_has_a_fixed_deadline() {
        for kind in ["application/json", "application/x-www-form-urlencoded"] {
            let pace = pace_of(kind);
            assert_eq!(pace.due_after(0), DEFAULT_DEADLINE);
            assert_eq!(pace.due_after(1 << 30), DEFAULT_DEADLINE);
        }
    }

    #[test]
    fn an_upload_earns_time_by_what_it_sent() {
        let pace = pace_of("multipart/form-data; boundary=x");
        assert_eq!(pace.due_after(0), UPLOAD_GRACE);
        assert_eq!(
            pace.due_after(16 * 1024),
            UPLOAD_GRACE + Duration::from_secs(1)
        );
        // 40 MiB at the slowest pace allowed.
        assert_eq!(
            pace.due_after(40 * 1024 * 1024),
            UPLOAD_GRACE + Duration::from_secs(2560)
        );
    }
}
