//! The verification workers (contract §13): run inside `serve`, one per core at most,
//! each claiming the oldest pending verification, running its checks and writing the
//! result. A job whose worker dies (a crash) is claimed again when its claim lapses.
//! They stop with the process: an unfinished job simply runs again after a restart.

use std::time::Duration;

use domain::DomainError;
use domain::error::Report;
use domain::services::VerificationService;

/// How often an idle worker looks for a job.
const POLL: Duration = Duration::from_millis(250);

/// Starts `workers` workers (at least one).
pub fn start(service: VerificationService, workers: usize) {
    for _ in 0..workers.max(1) {
        let service = service.clone();
        actix_web::rt::spawn(async move {
            loop {
                match service.run_next().await {
                    Ok(Some(done)) => {
                        crate::metrics::checks_run(&done);
                        tracing::info!(
                            verification = %done.id,
                            status = done.status.as_str(),
                            "verification completed"
                        );
                        continue;
                    }
                    Ok(None) => {}
                    // Erased meanwhile (nothing is left to verify, nor to retry), or
                    // completed by the worker that took up this one's lapsed claim.
                    Err(DomainError::NotFound(_)) => continue,
                    Err(e) => {
                        tracing::warn!(error = %Report(&e), "a verification failed; it runs again")
                    }
                }
                actix_web::rt::time::sleep(POLL).await;
            }
        });
    }
}
