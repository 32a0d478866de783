//! The envelope every answer starts with (interface §2.1), the `Query-Reference-Id`
//! header and the request's log span.

use std::net::IpAddr;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::http::header::{
    CONTENT_LENGTH, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, RETRY_AFTER,
};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, HttpRequest, HttpResponse, Responder};
use serde::Serialize;
use time::OffsetDateTime;
use tracing::Instrument;
use utoipa::ToSchema;

use crate::dashboard::DashboardError;
use crate::edge::body::GivenUp;
use crate::error::{ApiError, ErrorItem};
use crate::timefmt::rfc3339;

pub const REFERENCE_HEADER: HeaderName = HeaderName::from_static("query-reference-id");

/// Facts about the request the envelope reports.
#[derive(Debug, Clone)]
pub struct RequestMeta {
    pub reference_id: String,
    pub query_at: OffsetDateTime,
    started: Instant,
}

impl RequestMeta {
    fn new() -> Self {
        Self {
            reference_id: ulid::Ulid::new().to_string(),
            query_at: OffsetDateTime::now_utc(),
            started: Instant::now(),
        }
    }

    fn of(req: &HttpRequest) -> Self {
        req.extensions()
            .get::<RequestMeta>()
            .cloned()
            .unwrap_or_else(Self::new)
    }

    /// The four envelope fields, then `body`'s fields in their order.
    fn envelope<T: Serialize>(
        &self,
        status: StatusCode,
        time_as_text: bool,
        body: T,
    ) -> Envelope<T> {
        let seconds = self.started.elapsed().as_secs_f64();
        // Millisecond precision; a two-decimal string where the interface shows one.
        let response_time = if time_as_text {
            ResponseTime::Text(format!("{seconds:.2}"))
        } else {
            ResponseTime::Seconds((seconds * 1000.0).round() / 1000.0)
        };
        Envelope {
            http_status_code: status.as_u16(),
            query_reference_id: self.reference_id.clone(),
            response_time,
            query_at: rfc3339(self.query_at),
            body,
        }
    }
}

/// Seconds; a two-decimal string in profile create and update, as the interface shows.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum ResponseTime {
    Seconds(f64),
    Text(String),
}

/// Every answer, success or error: the four envelope fields, then the operation's.
#[derive(Debug, Serialize, ToSchema)]
pub struct Envelope<T> {
    /// The HTTP status, repeated.
    pub http_status_code: u16,
    /// A fresh ULID per request, also in the `Query-Reference-Id` header; quote it to
    /// support.
    pub query_reference_id: String,
    pub response_time: ResponseTime,
    /// When the request arrived (RFC 3339, UTC).
    pub query_at: String,
    #[serde(flatten)]
    pub body: T,
}

/// An error answer's own field.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// Every problem of the request, at once.
    pub errors: Vec<ErrorItem>,
}

/// A successful answer: status 200 or 201 and the operation's fields.
#[derive(Debug)]
pub struct Reply<T> {
    status: StatusCode,
    body: T,
    time_as_text: bool,
}

impl<T: Serialize> Reply<T> {
    pub fn ok(body: T) -> Self {
        Self {
            status: StatusCode::OK,
            body,
            time_as_text: false,
        }
    }

    /// 202: queued, to be done shortly.
    pub fn accepted(body: T) -> Self {
        Self {
            status: StatusCode::ACCEPTED,
            ..Self::ok(body)
        }
    }

    pub fn created(body: T) -> Self {
        Self {
            status: StatusCode::CREATED,
            body,
            time_as_text: false,
        }
    }

    /// Profile create and update show `response_time` as a two-decimal string.
    pub fn with_response_time_as_text(mut self) -> Self {
        self.time_as_text = true;
        self
    }
}

impl<T: Serialize> Responder for Reply<T> {
    type Body = actix_web::body::BoxBody;

    fn respond_to(self, req: &HttpRequest) -> HttpResponse {
        let meta = RequestMeta::of(req);
        HttpResponse::build(self.status).json(meta.envelope(
            self.status,
            self.time_as_text,
            self.body,
        ))
    }
}

fn render_error(meta: &RequestMeta, error: &ApiError) -> HttpResponse {
    if error.status.is_server_error() {
        // Logged once, here, inside the request's span (which carries the reference id).
        tracing::error!(
            http.status = error.status.as_u16(),
            error.cause = error.cause.as_deref().unwrap_or("-"),
            "request failed"
        );
    }
    let body = ErrorBody {
        errors: error.errors.clone(),
    };
    let mut response = HttpResponse::build(error.status);
    if let Some(seconds) = error.retry_after {
        response.insert_header((RETRY_AFTER, seconds.to_string()));
    }
    response.json(meta.envelope(error.status, false, body))
}

/// Names, in the request's log span, the client address a signed request came from.
pub fn log_client_address(ip: IpAddr) {
    tracing::Span::current().record("client_address", tracing::field::display(ip));
}

/// Names, in the request's log span, the API key a signed request names: its id, which
/// travels in clear in `Api-Key`, never its secret.
pub fn log_key_id(key_id: &str) {
    tracing::Span::current().record("key_id", tracing::field::display(key_id));
}

/// Copies onto an error's envelope the headers its scope gave the bare error (security
/// headers, `no-store`): an error answer keeps them. Only those that describe the replaced
/// body are left behind.
fn keep_scope_headers(scope_headers: &HeaderMap, envelope: &mut HeaderMap) {
    let own: Vec<HeaderName> = envelope.keys().cloned().collect();
    for (name, value) in scope_headers {
        if name != CONTENT_TYPE && name != CONTENT_LENGTH && !own.contains(name) {
            envelope.append(name.clone(), value.clone());
        }
    }
}

/// Gives each request its reference id and span, puts the id in a response header, and
/// wraps every `ApiError`, wherever it was raised, in the envelope.
pub async fn middleware(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let meta = RequestMeta::new();
    req.extensions_mut().insert(meta.clone());
    let span = tracing::info_span!(
        "request",
        query_reference_id = %meta.reference_id,
        http.method = %req.method(),
        http.path = %crate::edge::redact::path(req.path()),
        http.status = tracing::field::Empty,
        duration_ms = tracing::field::Empty,
        key_id = tracing::field::Empty,
        client_address = tracing::field::Empty,
    );
    let result = next.call(req).instrument(span.clone()).await;
    let _entered = span.enter();
    let mut response = match result {
        Ok(res) => {
            // Errors raised by actix itself (a form body over its limit, say) get the
            // envelope too, under the code their status stands for.
            let status = res.status();
            // A body given up for being late is answered 408, whatever the handler made
            // of what arrived.
            // A dashboard error is already its page, and stays one.
            let api_error = GivenUp::of(res.request()).or_else(|| {
                let e = res.response().error()?;
                if e.as_error::<DashboardError>().is_some() {
                    return None;
                }
                Some(
                    e.as_error::<ApiError>()
                        .cloned()
                        .unwrap_or_else(|| ApiError::from_status(status, e.to_string())),
                )
            });
            match api_error {
                Some(error) => {
                    let scope_headers = res.headers().clone();
                    let mut res = res.into_response(render_error(&meta, &error));
                    keep_scope_headers(&scope_headers, res.headers_mut());
                    res
                }
                None => res.map_into_boxed_body(),
            }
        }
        Err(e) => return Err(e),
    };
    if let Ok(value) = HeaderValue::from_str(&meta.reference_id) {
        response.headers_mut().insert(REFERENCE_HEADER, value);
    }
    span.record("http.status", response.status().as_u16());
    span.record("duration_ms", meta.started.elapsed().as_millis() as u64);
    tracing::info!("request served");
    Ok(response)
}
