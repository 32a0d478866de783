//! Who is calling: the `Api-Key` header names a merchant's credential, the `Signature`
//! header proves the caller holds its secret and binds the body to the path.

mod compat;
mod signature;

pub use compat::{drop_empty, http_build_query};
pub use signature::{SIGNATURE_TOLERANCE_SECONDS, sign_v1};

use domain::merchant::{ApiKey, ExposeSecret};
use time::OffsetDateTime;

use crate::error::ApiError;

/// Which scheme signed a request: what the server may read of the body depends on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// The raw bytes are signed: all of the body may be read.
    V1,
    /// `http_build_query` of the body is signed, which leaves out nulls and empty
    /// containers: those must be dropped before the body is read ([`drop_empty`]).
    Compat,
}

/// Checks `header` against the request. `v1` is always accepted; the compatibility
/// scheme only for keys created with it enabled.
pub fn verify(
    key: &ApiKey,
    header: Option<&str>,
    path: &str,
    body: &[u8],
    now: OffsetDateTime,
) -> Result<Scheme, ApiError> {
    let header = header
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .ok_or_else(|| {
            ApiError::unauthorized("SIGNATURE_REQUIRED", "The Signature header is required.")
        })?;
    if signature::looks_like_v1(header) {
        return signature::verify_v1(
            key.secret.expose_secret().as_bytes(),
            header,
            path,
            body,
            now,
        )
        .map(|()| Scheme::V1);
    }
    if key.compat_signature && compat::verify(key.secret.expose_secret().as_bytes(), header, body) {
        return Ok(Scheme::Compat);
    }
    Err(invalid_signature())
}

pub(crate) fn invalid_signature() -> ApiError {
    ApiError::unauthorized(
        "SIGNATURE_INVALID",
        "The Signature header does not match this request. See docs/api.md, Signatures.",
    )
}
