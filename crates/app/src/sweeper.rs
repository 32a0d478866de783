//! The file sweeper: at start and then hourly, removes uploads never finished and stored
//! files that no document names (contract §8, "Deletion and crashes").

use std::time::Duration;

use domain::services::DocumentService;

const EVERY: Duration = Duration::from_secs(60 * 60);

/// Runs in the background for as long as the server does.
pub fn start(documents: DocumentService) {
    actix_web::rt::spawn(async move {
        let mut ticks = actix_web::rt::time::interval(EVERY);
        loop {
            ticks.tick().await;
            match documents.sweep_files().await {
                Ok(report) if report.partial_uploads + report.orphan_files > 0 => tracing::info!(
                    partial_uploads = report.partial_uploads,
                    orphan_files = report.orphan_files,
                    "file sweep removed leftovers"
                ),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "file sweep failed; retried in an hour"),
            }
        }
    });
}
