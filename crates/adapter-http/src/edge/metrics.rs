//! `GET /metrics` in the Prometheus text format (contract §15): requests by operation and
//! status, their latency, and the background queues' backlogs read at each scrape.
//!
//! Labels never carry a raw path: an API request is named by its operation
//! (`profile/get`), any other by its route template (`/q/:token`), so no token, id or
//! personal value reaches a label.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::CONTENT_TYPE;
use actix_web::middleware::Next;
use actix_web::{App, HttpRequest, HttpResponse, web};
use domain::ports::{Backlog, Backlogs, Clock};
use metrics_exporter_prometheus::PrometheusHandle;

use crate::api::handlers::fallback;
use crate::error::ApiError;

/// Requests answered, by `operation` and `status`.
pub const REQUESTS: &str = "idv_http_requests_total";
/// Seconds from a request's arrival to its answer, by `operation`.
pub const REQUEST_DURATION: &str = "idv_http_request_duration_seconds";
/// Verifications waiting for a worker.
const VERIFICATIONS_WAITING: &str = "idv_verification_queue_depth";
/// Seconds since the oldest waiting verification was queued (0 when none waits).
const VERIFICATIONS_OLDEST: &str = "idv_verification_queue_oldest_age_seconds";
/// Webhook deliveries still to be attempted.
const DELIVERIES_WAITING: &str = "idv_webhook_queue_depth";
/// Seconds since the oldest delivery still to be attempted became due (0 when none is).
const DELIVERIES_OLDEST: &str = "idv_webhook_queue_oldest_due_age_seconds";

/// The API's operations live under this prefix; their label is the rest.
const API_PREFIX: &str = "/api/v1/";
/// The label of a request no route matched (its path is whatever the client sent).
const UNMATCHED: &str = "unmatched";

/// Who may read `/metrics` where it is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// On the main address: only a client on this machine, talking to us directly.
    Loopback,
    /// On the operator's own metrics address (`IDV_METRICS_BIND`): whoever reaches it.
    Anyone,
}

/// What `/metrics` renders from: the recorder's handle and the queues.
#[derive(Clone)]
pub struct MetricsExport {
    pub handle: PrometheusHandle,
    pub backlogs: Arc<dyn Backlogs>,
    pub clock: Arc<dyn Clock>,
}

impl std::fmt::Debug for MetricsExport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MetricsExport")
    }
}

/// The route itself, for the main application (`Audience::Loopback`) or the metrics
/// listener (`Audience::Anyone`).
pub(crate) fn configure(
    export: MetricsExport,
    audience: Audience,
) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(web::Data::new(export))
            .app_data(web::Data::new(audience))
            .route("/metrics", web::get().to(scrape));
    }
}

/// The application of the separate metrics listener: `/metrics` and nothing else.
pub fn app(
    export: MetricsExport,
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    App::new().configure(configure(export, Audience::Anyone))
}

async fn scrape(
    req: HttpRequest,
    export: web::Data<MetricsExport>,
    audience: web::Data<Audience>,
) -> Result<HttpResponse, ApiError> {
    if **audience == Audience::Loopback && !is_local(&req) {
        // Answered as if there were nothing here: a stranger learns nothing of it.
        return fallback::not_found().await;
    }
    let now = export.clock.now();
    let age = |backlog: &Backlog| {
        backlog
            .oldest_due
            .map_or(0.0, |at| (now - at).as_seconds_f64().max(0.0))
    };
    let unavailable = |e: domain::ports::StoreError| {
        ApiError::from_status(
            actix_web::http::StatusCode::SERVICE_UNAVAILABLE,
            e.to_string(),
        )
    };
    let verifications = export.backlogs.verifications().await.map_err(unavailable)?;
    let deliveries = export
        .backlogs
        .webhook_deliveries()
        .await
        .map_err(unavailable)?;
    metrics::gauge!(VERIFICATIONS_WAITING).set(verifications.waiting as f64);
    metrics::gauge!(VERIFICATIONS_OLDEST).set(age(&verifications));
    metrics::gauge!(DELIVERIES_WAITING).set(deliveries.waiting as f64);
    metrics::gauge!(DELIVERIES_OLDEST).set(age(&deliveries));
    Ok(HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8"))
        .body(export.handle.render()))
}

/// Headers by which a proxy says it relayed a request: the standard ones and those of
/// the common proxies (nginx's `X-Real-IP`, Cloudflare's, Akamai's).
const RELAYED: [&str; 9] = [
    "forwarded",
    "x-forwarded-for",
    "x-forwarded-host",
    "x-forwarded-proto",
    "x-real-ip",
    "via",
    "true-client-ip",
    "x-client-ip",
    "cf-connecting-ip",
];

/// A request from this machine that no proxy relayed. The socket's peer decides, never
/// `X-Forwarded-For` (a trusted proxy must not make a remote client look local), and a
/// request a proxy on this machine forwarded carries one of the [`RELAYED`] headers: it
/// came from elsewhere.
fn is_local(req: &HttpRequest) -> bool {
    let loopback = req.peer_addr().is_some_and(|a| is_loopback(a.ip()));
    let relayed = RELAYED.iter().any(|h| req.headers().contains_key(*h));
    loopback && !relayed
}

fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        // An IPv4 peer on a dual-stack socket arrives as ::ffff:127.x.y.z.
        IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

/// Counts every answer by operation and status, and times it. Outermost, so it sees the
/// status the client gets.
pub(crate) async fn record(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let res = next.call(req).await?;
    let operation = operation(res.request().match_pattern().as_deref());
    let status = res.status().as_u16().to_string();
    metrics::counter!(REQUESTS, "operation" => operation.clone(), "status" => status).increment(1);
    metrics::histogram!(REQUEST_DURATION, "operation" => operation)
        .record(started.elapsed().as_secs_f64());
    Ok(res)
}

/// The label of a request matched to `pattern` (see the module's text). A template's
/// variable segment `{token}` (or `{name:regex}`) is written `:token`: braces inside a
/// label value are valid Prometheus text, but trip simple parsers.
fn operation(pattern: Option<&str>) -> String {
    let Some(pattern) = pattern else {
        return UNMATCHED.to_owned();
    };
    let mut label = String::with_capacity(pattern.len());
    let mut rest = pattern.strip_prefix(API_PREFIX).unwrap_or(pattern);
    while let Some((before, after)) = rest.split_once('{') {
        label.push_str(before);
        let (variable, after) = after.split_once('}').unwrap_or((after, ""));
        label.push(':');
        label.push_str(variable.split(':').next().unwrap_or_default());
        rest = after;
    }
    label.push_str(rest);
    label
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_operations_or_route_templates_never_paths() {
        assert_eq!(operation(Some("/api/v1/profile/get")), "profile/get");
        assert_eq!(operation(Some("/q/{token}")), "/q/:token");
        assert_eq!(
            operation(Some("/quiz/{token}/documents/{id}/file")),
            "/quiz/:token/documents/:id/file"
        );
        assert_eq!(operation(Some("/docs/{_:.*}")), "/docs/:_");
        assert_eq!(operation(None), "unmatched");
    }

    #[test]
    fn only_loopback_peers_are_local() {
        assert!(is_loopback("127.0.0.1".parse().expect("ip")));
        assert!(is_loopback("127.9.8.7".parse().expect("ip")));
        assert!(is_loopback("::1".parse().expect("ip")));
        assert!(is_loopback("::ffff:127.0.0.1".parse().expect("ip")));
        assert!(!is_loopback("10.0.0.1".parse().expect("ip")));
        assert!(!is_loopback("::ffff:10.0.0.1".parse().expect("ip")));
    }
}
