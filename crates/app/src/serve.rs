use std::net::TcpListener;
use std::sync::Arc;

use actix_web::{HttpServer, web};
use adapter_http::{
    ApiState, BodyDeadline, ConnectionCap, DashboardSettings, FailureGate, InProcess,
    MetricsExport, RateLimits, TrustedProxies,
};
use adapter_webhook::HttpSender;
use anyhow::Context;
use domain::ports::{Quota, RateLimiter};
use domain::quiz::UploadLimits;
use ipnet::IpNet;

use crate::cli::{LogArgs, ServeArgs};
use crate::wiring::{self, DatabaseReadiness};
use crate::{
    analysis_cmd, metrics, screener, search_indexer, sweeper, system, verification_worker,
    webhook_worker,
};

/// How long in-flight requests may take to finish after SIGTERM/SIGINT.
const SHUTDOWN_GRACE_SECONDS: u64 = 30;

pub async fn run(args: ServeArgs, log: &LogArgs) -> anyhow::Result<()> {
    let db = wiring::open_migrated(&args.storage)?;
    // Bound before the services are built: with port 0 the public URL's default needs
    // the port actually given.
    let listener = TcpListener::bind(args.bind)?;
    let bound = listener.local_addr()?;
    let public_url = args
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{bound}"));
    let limits = UploadLimits {
        max_documents: args.quiz_max_documents,
        max_bytes: args.quiz_max_bytes,
    };
    let services = wiring::services(
        &db,
        wiring::file_store(&db, &args.storage)?,
        wiring::Tuning {
            public_url: &public_url,
            limits,
            webhook_allow_private: args.webhook_allow_private,
        },
        Arc::new(analysis_cmd::for_the_server(&args.analysis, log)?),
    );
    let proxies = args
        .trusted_proxies
        .iter()
        .filter(|p| !p.trim().is_empty())
        .map(|p| p.trim().parse::<IpNet>())
        .collect::<Result<Vec<_>, _>>()
        .context("IDV_TRUSTED_PROXIES must be comma-separated CIDRs")?;
    sweeper::start(services.documents.clone(), services.retention.clone());
    search_indexer::start(db.clone());
    screener::start(services.screening.clone());
    // One verification at a time per core at most, beside the API (contract §13).
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    verification_worker::start(services.verifications.clone(), cores);
    let freed = db.free_crashed_claims().await?;
    if freed > 0 {
        tracing::info!(
            claims = freed,
            "freed webhook deliveries and verifications claimed before a crash"
        );
    }
    let sender =
        HttpSender::new(args.webhook_allow_private).context("building the webhook client")?;
    let worker = webhook_worker::Worker::start(services.webhooks.clone(), Arc::new(sender));
    let state = ApiState {
        services,
        readiness: Arc::new(DatabaseReadiness(db.clone())),
    };
    // One set of limits for all workers, so a limit is per instance; on PostgreSQL they
    // are counted in the database, so a limit holds across instances (contract §11).
    let limiter = |scope, quota: Option<Quota>| -> Option<Box<dyn RateLimiter>> {
        let quota = quota?;
        Some(match db.shared_limiter(scope, quota) {
            Some(shared) => Box::new(shared),
            None => Box::new(InProcess::new(quota)),
        })
    };
    let burst = args.api_rate_limit.saturating_mul(2);
    let limits = web::Data::new(RateLimits {
        api: limiter("api", Quota::per_second(args.api_rate_limit, burst)),
        auth_failures: FailureGate::new(limiter(
            "auth",
            Quota::per_minute(args.auth_failure_limit),
        )),
        client_pages: limiter("page", Quota::per_minute(args.client_rate_limit)),
        sign_in: limiter("signin", Quota::per_minute(args.sign_in_limit)),
    });
    let proxies = TrustedProxies::new(proxies);
    let open_files = system::raise_open_files_limit();
    let total = args
        .max_connections
        .unwrap_or_else(|| system::connections_for(open_files));
    tracing::info!(open_files, connections = total, "connection bounds");
    let connections = ConnectionCap::new(args.max_connections_per_address, total, proxies.clone());
    let proxies = web::Data::new(proxies);
    let body_deadline = BodyDeadline(std::time::Duration::from_secs(args.body_deadline_seconds));
    let dashboard = DashboardSettings {
        secure_cookies: public_url.starts_with("https://"),
        public_origin: origin_of(&public_url),
    };
    let export = MetricsExport {
        handle: metrics::install()?,
        backlogs: Arc::new(db.clone()),
        clock: state.clock.clone(),
    };
    // With a metrics address of its own, the main address does not serve `/metrics`.
    let (on_main, metrics_server) = match args.metrics_bind {
        Some(address) => {
            let export = export.clone();
            let server = HttpServer::new(move || adapter_http::metrics::app(export.clone()))
                .workers(1)
                .shutdown_timeout(SHUTDOWN_GRACE_SECONDS)
                .bind(address)
                .with_context(|| format!("binding IDV_METRICS_BIND {address}"))?;
            (None, Some(server))
        }
        None => (Some(export), None),
    };
    let document = web::Data::new(wiring::api_document());
    let server = HttpServer::new(move || {
        adapter_http::app(
            state.clone(),
            limits.clone(),
            proxies.clone(),
            dashboard.clone(),
            body_deadline,
            on_main.clone(),
            document.clone(),
        )
    })
    .on_connect(move |io, connection| connections.on_connect(io, connection))
    .shutdown_timeout(SHUTDOWN_GRACE_SECONDS)
    .listen(listener)?;
    // On stdout, for scripts and tests that start the server on port 0.
    println!("listening on http://{bound}");
    if let Some(metrics) = metrics_server {
        // Logged, not printed: scripts read the one line above and may close stdout.
        for address in metrics.addrs() {
            tracing::info!(%address, "serving /metrics");
        }
        // Stops with the process; a scrape in flight does not matter.
        actix_web::rt::spawn(metrics.run());
    }
    tracing::info!(database = %db.describe(), %public_url, "serving");
    // actix-web stops gracefully on SIGTERM and SIGINT.
    let served = server.run().await;
    // After the last request: attempts in flight finish, or are given back.
    worker.stop().await;
    served?;
    tracing::info!("stopped");
    Ok(())
}

/// `scheme://host[:port]` of an address: what a browser sends as `Origin` for a page
/// under it.
fn origin_of(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("http", url));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    format!("{scheme}://{authority}")
}

#[cfg(test)]
mod tests {
    use super::origin_of;

    #[test]
    fn the_origin_is_the_scheme_and_authority_of_the_public_address() {
        assert_eq!(
            origin_of("https://idv.example.com/base/path?x=1"),
            "https://idv.example.com"
        );
        assert_eq!(origin_of("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
    }
}
