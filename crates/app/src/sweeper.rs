//! The housekeeping loop: at start and then hourly, erases the personal data retention
//! says must go (contract §15), then removes uploads never finished and stored files that
//! no document names (contract §8, "Deletion and crashes"), among them any file an
//! erasure could not remove at once.

use std::time::Duration;

use domain::error::Report;
use domain::services::{DocumentService, RetentionService};

const EVERY: Duration = Duration::from_secs(60 * 60);

/// Runs in the background for as long as the server does.
pub fn start(documents: DocumentService, retention: RetentionService) {
    actix_web::rt::spawn(async move {
        let mut ticks = actix_web::rt::time::interval(EVERY);
        loop {
            ticks.tick().await;
            erase_due(&retention).await;
            sweep_files(&documents).await;
        }
    });
}

/// Counts only: whom was erased is in each profile's log, never in this one.
async fn erase_due(retention: &RetentionService) {
    match retention.erase_due().await {
        Ok(report) => tracing::info!(
            profiles_erased = report.profiles_erased,
            files_removed = report.files_removed,
            profiles_skipped = report.profiles_skipped,
            "retention checked"
        ),
        Err(e) => tracing::warn!(error = %Report(&e), "retention failed; retried in an hour"),
    }
}

async fn sweep_files(documents: &DocumentService) {
    match documents.sweep_files().await {
        Ok(report) if report.partial_uploads + report.orphan_files > 0 => tracing::info!(
            partial_uploads = report.partial_uploads,
            orphan_files = report.orphan_files,
            "file sweep removed leftovers"
        ),
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %Report(&e), "file sweep failed; retried in an hour"),
    }
}
