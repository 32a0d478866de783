use std::net::TcpListener;
use std::sync::Arc;

use actix_web::{HttpServer, web};
use adapter_http::{ApiState, RateLimiter};

use crate::cli::ServeArgs;
use crate::wiring::{self, DatabaseReadiness};

/// How long in-flight requests may take to finish after SIGTERM/SIGINT.
const SHUTDOWN_GRACE_SECONDS: u64 = 30;

pub async fn run(args: ServeArgs) -> anyhow::Result<()> {
    let db = wiring::open_migrated(&args.storage)?;
    // Bound before the services are built: with port 0 the public URL's default needs
    // the port actually given.
    let listener = TcpListener::bind(args.bind)?;
    let bound = listener.local_addr()?;
    let public_url = args
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{bound}"));
    let services = wiring::services(&db, wiring::file_store(&args.storage), &public_url);
    let state = ApiState {
        profiles: services.profiles,
        merchants: services.merchants,
        templates: services.templates,
        quizzes: services.quizzes,
        client: services.client,
        documents: services.documents,
        notes: services.notes,
        clock: services.clock,
        readiness: Arc::new(DatabaseReadiness(db.clone())),
    };
    // One limiter for all workers, so the limit is per instance, not per worker.
    let limiter = web::Data::new(RateLimiter::new(args.client_rate_limit));
    let server = HttpServer::new(move || adapter_http::app(state.clone(), limiter.clone()))
        .shutdown_timeout(SHUTDOWN_GRACE_SECONDS)
        .listen(listener)?;
    // On stdout, for scripts and tests that start the server on port 0.
    println!("listening on http://{bound}");
    tracing::info!(database = %db.describe(), %public_url, "serving");
    // actix-web stops gracefully on SIGTERM and SIGINT.
    server.run().await?;
    tracing::info!("stopped");
    Ok(())
}
