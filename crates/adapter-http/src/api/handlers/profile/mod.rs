pub mod create;
pub mod delete;
pub mod get;
pub mod read;
pub mod update;
pub mod update_status;

use domain::error::Report;
use domain::profile::Profile;

use crate::api::handlers::State;

/// Screens a profile just created or renamed (contract §19). The change is already
/// acknowledged: a screening that fails now is made by the re-screening loop instead.
async fn screen(state: &State, profile: &Profile) {
    if let Err(e) = state.screening.after_change(profile).await {
        tracing::warn!(error = %Report(&e), "screening after a change failed; the loop retries");
    }
}
