//! Reading a request body with bounds: a size limit, and a stall limit (a body that sends
//! no byte for 15 s is answered 408 and its connection closed), on every route that reads
//! one. A slow or silent sender cannot hold a worker's buffer open for long.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use actix_web::dev::Payload;
use actix_web::error::PayloadError;
use actix_web::http::StatusCode;
use actix_web::rt::time::timeout;
use actix_web::web::{Bytes, BytesMut};
use futures_util::{Stream, StreamExt};

use crate::error::ApiError;

/// How long a body may send nothing before it is given up.
pub const STALL_TIMEOUT: Duration = Duration::from_secs(15);

pub fn request_timeout() -> ApiError {
    ApiError::new(
        StatusCode::REQUEST_TIMEOUT,
        "REQUEST_TIMEOUT",
        "The request body stopped arriving for 15 seconds.",
    )
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
pub async fn read(payload: Payload, limit: usize) -> Result<BytesMut, ApiError> {
    let (stream, stalled) = guarded(payload);
    let mut stream = std::pin::pin!(stream);
    let mut body = BytesMut::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| stalled.explain(unreadable(e)))?;
        if body.len() + chunk.len() > limit {
            return Err(too_large(limit));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// The payload as a stream that ends in an error when it stalls; `stalled` tells that
/// error from others (a multipart parser wraps the errors of its input).
pub fn guarded(payload: Payload) -> (impl Stream<Item = Result<Bytes, PayloadError>>, Stalled) {
    let stalled = Stalled(Arc::new(AtomicBool::new(false)));
    let flag = stalled.clone();
    let stream = futures_util::stream::unfold(Some(payload), move |state| {
        let flag = flag.clone();
        async move {
            let mut payload = state?;
            match timeout(STALL_TIMEOUT, payload.next()).await {
                Ok(Some(item)) => Some((item, Some(payload))),
                Ok(None) => None,
                Err(_) => {
                    flag.0.store(true, Ordering::SeqCst);
                    let error = std::io::Error::new(std::io::ErrorKind::TimedOut, "body stalled");
                    Some((Err(PayloadError::Io(error)), None))
                }
            }
        }
    });
    // Fused: the multipart parser may poll again after the end.
    (stream.fuse(), stalled)
}

/// Whether a guarded payload ran out of time.
#[derive(Debug, Clone)]
pub struct Stalled(Arc<AtomicBool>);

impl Stalled {
    /// 408 if the body stalled, else the error as it is.
    pub fn explain(&self, error: ApiError) -> ApiError {
        if self.0.load(Ordering::SeqCst) {
            request_timeout()
        } else {
            error
        }
    }
}
