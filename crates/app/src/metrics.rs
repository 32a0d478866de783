//! The process's metrics recorder (served at `/metrics` by `adapter-http`) and what the
//! background workers count into it.

use std::time::Duration;

use adapter_http::metrics::REQUEST_DURATION;
use anyhow::Context;
use domain::verification::Verification;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Checks run, by `check` (its API name) and `outcome` (its status).
const CHECKS: &str = "idv_verification_checks_total";

/// Latency buckets in seconds: from a cached read (a millisecond) to an upload's minute.
const LATENCY_BUCKETS: [f64; 14] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 15.0, 60.0,
];

/// How often histograms are folded into their buckets between scrapes, so what they
/// hold stays bounded however rarely the operator scrapes.
const UPKEEP: Duration = Duration::from_secs(5);

/// Installs the process-wide recorder; its handle renders the text. Call once, inside
/// the runtime.
pub fn install() -> anyhow::Result<PrometheusHandle> {
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(REQUEST_DURATION.to_owned()), &LATENCY_BUCKETS)
        .and_then(PrometheusBuilder::install_recorder)
        .context("installing the metrics recorder")?;
    let upkeep = handle.clone();
    actix_web::rt::spawn(async move {
        loop {
            actix_web::rt::time::sleep(UPKEEP).await;
            upkeep.run_upkeep();
        }
    });
    Ok(handle)
}

/// Counts the checks a completed verification ran: names and outcomes only, nothing of
/// whom they were about.
pub fn checks_run(verification: &Verification) {
    for check in &verification.checks {
        metrics::counter!(
            CHECKS,
            "check" => check.name.as_str(),
            "outcome" => check.status.as_str()
        )
        .increment(1);
    }
}
