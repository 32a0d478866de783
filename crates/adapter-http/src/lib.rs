//! The HTTP side of the service: the signed merchant API of `docs/api.md` over actix-web.
//! Converts JSON to domain inputs and domain results (and errors) to the interface's
//! layouts; holds no business rule of its own.

mod api;
mod dashboard;
mod edge;
mod envelope;
mod error;
mod fields;
mod file_answer;
mod pages;
mod qr;
mod state;
mod timefmt;

use actix_web::middleware::from_fn;
use actix_web::{App, web};

pub use api::signed::MAX_BODY_BYTES;
pub use api::{auth, openapi};
pub use dashboard::{Access as DashboardAccess, DashboardSettings};
pub use edge::body::BodyDeadline;
pub use edge::client_addr::TrustedProxies;
pub use edge::connections::ConnectionCap;
pub use edge::metrics::{self, MetricsExport};
pub use edge::ratelimit::{FailureGate, InProcess, RateLimits};
pub use envelope::REFERENCE_HEADER;
pub use error::ApiError;
pub use state::{ApiState, Readiness};

/// Every dashboard address, from its route table: the method, the path pattern
/// (`{name}` for a segment the handler reads) and who may reach it. The e2e guard walks
/// it, so no address escapes the checks.
pub fn dashboard_routes() -> Vec<(&'static str, String, DashboardAccess)> {
    dashboard::routes()
}

/// Builds the application: routes, envelope middleware, shared state. `metrics`: serve
/// `/metrics` here, to loopback clients only (`None` when it has a listener of its own).
pub fn app(
    state: ApiState,
    limits: web::Data<RateLimits>,
    proxies: web::Data<TrustedProxies>,
    dashboard: DashboardSettings,
    body_deadline: BodyDeadline,
    metrics: Option<MetricsExport>,
    document: web::Data<openapi::ApiDocument>,
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    App::new()
        .app_data(web::Data::new(state))
        .app_data(limits)
        .app_data(proxies)
        .app_data(web::Data::new(dashboard))
        .app_data(web::Data::new(body_deadline))
        .app_data(document)
        .configure(api::routes::configure)
        .configure(pages::configure)
        .configure(dashboard::configure)
        .configure(|cfg| {
            if let Some(export) = metrics {
                metrics::configure(export, metrics::Audience::Loopback)(cfg);
            }
        })
        .default_service(web::to(api::handlers::fallback::not_found))
        // Inside the envelope, which answers a body given up with 408.
        .wrap(from_fn(edge::body::bounded))
        .wrap(from_fn(envelope::middleware))
        .wrap(from_fn(metrics::record))
}
