//! The re-screening loop (contract §19): every few seconds, picks up the lists an import
//! changed and re-screens the profiles that owe it (never screened, screened against
//! another version of a list, or a day ago), a batch per merchant at a time and batch
//! after batch while any is owed, off the request path. On PostgreSQL one instance at a time does it, by a lease in the
//! database; the others only keep their indexes current.

use std::time::Duration;

use domain::error::Report;
use domain::services::ScreeningService;

/// How often the lists in force are looked at: an import reaches screenings within it.
const EVERY: Duration = Duration::from_secs(2);
/// How long an instance holds the re-screening past its last round: another takes over
/// once a holder has stopped for this long.
const LEASE: time::Duration = time::Duration::seconds(30);

/// Runs in the background for as long as the server does.
pub fn start(screening: ScreeningService) {
    // This instance's name in the lease: unique per process.
    let holder = ulid::Ulid::new().to_string();
    actix_web::rt::spawn(async move {
        loop {
            // While profiles are owed a screening, batch after batch; then a pause.
            match screening.rescreen_due(&holder, LEASE).await {
                Ok(Some(screened)) if screened > 0 => {
                    tracing::info!(profiles = screened, "profiles screened");
                    continue;
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %Report(&e), "re-screening failed; tried again"),
            }
            actix_web::rt::time::sleep(EVERY).await;
        }
    });
}
