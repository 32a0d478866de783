//! The extractor behind every merchant endpoint: content type, size limit, API key and
//! signature (checked on the raw bytes), what the key may do, then the JSON object.

use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;

use actix_web::http::StatusCode;
use actix_web::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use domain::audit::Auditor;
use domain::merchant::{ApiKey, ApiKeyId, KeyAccess, MerchantId, OperationKind};
use domain::quiz::{QuizLinks, redacted_address};
use domain::services::Initiator;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::api::auth::{self, Scheme};
use crate::edge::body;
use crate::edge::client_addr::client_ip;
use crate::edge::ratelimit::RateLimits;
use crate::envelope;
use crate::error::ApiError;
use crate::fields;
use crate::state::ApiState;

/// Largest request body accepted.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// An authenticated merchant request and its JSON object body.
#[derive(Debug)]
pub struct Signed {
    pub merchant: MerchantId,
    pub body: Map<String, Value>,
    /// The key that signed it.
    pub key: ApiKeyId,
    /// What that key may do.
    pub access: KeyAccess,
    /// The client address it came from.
    pub address: IpAddr,
}

impl Signed {
    /// The quiz addresses this request is shown: a read-only key sees them without
    /// their token and code (a link is the client's credential, and a key that may only
    /// read must not act as the client through one).
    pub fn shown(&self, links: QuizLinks) -> QuizLinks {
        match self.access {
            KeyAccess::Full => links,
            KeyAccess::ReadOnly => links.redacted(),
        }
    }

    /// The same for one address, as an event recorded it.
    pub fn shown_address(&self, url: &str) -> String {
        match self.access {
            KeyAccess::Full => url.to_owned(),
            KeyAccess::ReadOnly => redacted_address(url),
        }
    }

    /// Who acts through this request, and from where, for the audit trail.
    pub fn initiator(&self) -> Initiator {
        Initiator {
            auditor: Auditor::ApiKey(self.key.clone()),
            address: self.address.to_string(),
        }
    }

    /// The body read as the operation's request type `R`, then converted into the
    /// domain's values `T`: every violation of the request in one answer.
    pub fn parse<R, T>(&self) -> Result<T, ApiError>
    where
        R: DeserializeOwned,
        T: TryFrom<R, Error = ApiError>,
    {
        fields::parse::<R, T>(&self.body)
    }
}

impl FromRequest for Signed {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let payload = payload.take();
        Box::pin(async move { extract(req, payload).await })
    }
}

async fn extract(req: HttpRequest, payload: Payload) -> Result<Signed, ApiError> {
    let state = req
        .app_data::<web::Data<ApiState>>()
        .ok_or_else(|| ApiError::internal("ApiState is not registered"))?;
    let limits = req
        .app_data::<web::Data<RateLimits>>()
        .ok_or_else(|| ApiError::internal("RateLimits is not registered"))?;
    let ip = client_ip(&req);
    envelope::log_client_address(ip);
    // An address that failed too often is refused before any work is done for it.
    if let Some(wait) = limits.auth_failures.blocked(ip) {
        return Err(ApiError::rate_limited(wait));
    }
    check_content_type(&req)?;
    let bytes = read_body(&req, payload).await?;

    let (key, scheme) = match authenticate(state, &req, &bytes).await {
        Ok(found) => found,
        Err(refusal) if refusal.status == StatusCode::UNAUTHORIZED => {
            return Err(match limits.auth_failures.record_failure(ip).await {
                Some(wait) => ApiError::rate_limited(wait),
                None => refusal,
            });
        }
        Err(other) => return Err(other),
    };
    if !key.admits(ip) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "IP_ADDRESS_DENIED",
            "This Api-Key may not be used from this address.",
        ));
    }
    if let Some(limiter) = &limits.api
        && let Err(wait) = limiter.check(key.key.as_str()).await
    {
        return Err(ApiError::rate_limited(wait));
    }
    // After the rate limit: a refused call is still one the key made.
    let kind = req
        .app_data::<OperationKind>()
        .ok_or_else(|| ApiError::internal("the operation's kind is not registered"))?;
    if !key.access.permits(*kind) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "KEY_READ_ONLY",
            "This API key may only read.",
        ));
    }

    let body = match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(body)) => body,
        Ok(_) => return Err(body_invalid("The request body must be a JSON object.")),
        Err(e) => {
            return Err(body_invalid(format!(
                "The request body is not valid JSON: {e}."
            )));
        }
    };
    let body = match scheme {
        Scheme::V1 => body,
        // Only what the signature covers is read.
        Scheme::Compat => match auth::drop_empty(Value::Object(body)) {
            Some(Value::Object(covered)) => covered,
            _ => Map::new(),
        },
    };
    Ok(Signed {
        merchant: key.merchant_id,
        body,
        key: key.key,
        access: key.access,
        address: ip,
    })
}

/// The key named by `Api-Key`, if it is enabled and the signature is its holder's.
async fn authenticate(
    state: &ApiState,
    req: &HttpRequest,
    bytes: &[u8],
) -> Result<(ApiKey, Scheme), ApiError> {
    let header = |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok());
    let api_key = header("Api-Key")
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .ok_or_else(|| {
            ApiError::unauthorized("API_KEY_REQUIRED", "The Api-Key header is required.")
        })?;
    let key = state
        .merchants
        .find_key(&api_key.into())
        .await?
        .ok_or_else(|| ApiError::unauthorized("API_KEY_INVALID", "The Api-Key is not known."))?;
    // Only a key that exists is named: the header of a stranger is whatever they wrote.
    envelope::log_key_id(key.key.as_str());
    if !key.enabled {
        return Err(ApiError::unauthorized(
            "API_KEY_DISABLED",
            "This Api-Key has been disabled.",
        ));
    }
    let scheme = auth::verify(
        &key,
        header("Signature"),
        req.path(),
        bytes,
        state.clock.now(),
    )?;
    Ok((key, scheme))
}

fn body_invalid(description: impl Into<String>) -> ApiError {
    ApiError::bad_request("REQUEST_BODY_INVALID", description)
}

/// An absent content type is read as JSON (the hosted product allowed it); any other
/// than JSON is refused.
fn check_content_type(req: &HttpRequest) -> Result<(), ApiError> {
    let Some(value) = req.headers().get(CONTENT_TYPE) else {
        return Ok(());
    };
    let essence = value
        .to_str()
        .unwrap_or_default()
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    if essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
    {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "CONTENT_TYPE_INVALID",
            "Send the body as application/json.",
        ))
    }
}

/// Reads the body, refusing early on a declared or actual size over the limit.
async fn read_body(req: &HttpRequest, payload: Payload) -> Result<web::BytesMut, ApiError> {
    let declared = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES) {
        return Err(body::too_large(MAX_BODY_BYTES));
    }
    body::read(payload, MAX_BODY_BYTES).await
}
