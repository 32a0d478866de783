use std::sync::Arc;

use actix_web::HttpServer;
use adapter_http::ApiState;

use crate::cli::ServeArgs;
use crate::wiring::{self, DatabaseReadiness};

/// How long in-flight requests may take to finish after SIGTERM/SIGINT.
const SHUTDOWN_GRACE_SECONDS: u64 = 30;

pub async fn run(args: ServeArgs) -> anyhow::Result<()> {
    let db = wiring::open_migrated(&args.storage)?;
    let services = wiring::services(&db);
    let state = ApiState {
        profiles: services.profiles,
        merchants: services.merchants,
        clock: services.clock,
        readiness: Arc::new(DatabaseReadiness(db.clone())),
    };
    let server = HttpServer::new(move || adapter_http::app(state.clone()))
        .shutdown_timeout(SHUTDOWN_GRACE_SECONDS)
        .bind(args.bind)?;
    let bound = server.addrs();
    let public_url = args
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{}", bound.first().copied().unwrap_or(args.bind)));
    for addr in &bound {
        // On stdout, for scripts and tests that start the server on port 0.
        println!("listening on http://{addr}");
    }
    tracing::info!(database = %db.describe(), %public_url, "serving");
    // actix-web stops gracefully on SIGTERM and SIGINT.
    server.run().await?;
    tracing::info!("stopped");
    Ok(())
}
