//! Keeps SQLite's search index up with new profiles (`adapter_db::profile_search`): one
//! batch a second, and the next at once while batches come back full (after `idv seed`,
//! say). A search never misses a profile meanwhile: it reads the rows not indexed yet.
//! Once caught up, it merges the index's segments a small step at a time, looking for new
//! profiles between steps: merged inside the batches, they held the one writer for up to
//! 50 ms (migration 000022). Nothing to do on PostgreSQL, where it stops at once.

use std::time::Duration;

use adapter_db::{Database, INDEX_BATCH};
use domain::error::Report;

/// How often an idle indexer looks for new profiles.
const POLL: Duration = Duration::from_secs(1);

/// Starts the indexer on `db` (SQLite only).
pub fn start(db: Database) {
    if !db.is_sqlite() {
        return;
    }
    actix_web::rt::spawn(async move {
        loop {
            match db.index_profiles().await {
                Ok(INDEX_BATCH) => continue,
                Ok(_) => match db.merge_profile_search().await {
                    Ok(true) => continue,
                    Ok(false) => {}
                    Err(e) => {
                        tracing::warn!(error = %Report(&e), "merging the search index failed; tried again")
                    }
                },
                Err(e) => {
                    tracing::warn!(error = %Report(&e), "indexing profiles for search failed; tried again")
                }
            }
            actix_web::rt::time::sleep(POLL).await;
        }
    });
}
