//! The background queues' backlogs for the metrics: one count and one minimum per queue,
//! each served by the queue's partial index (`verifications_pending`,
//! `webhook_deliveries_due`), so a scrape costs two index reads.

use async_trait::async_trait;
use diesel::dsl::{count_star, min};
use diesel::prelude::*;
use domain::ports::{Backlog, Backlogs, StoreResult};
use domain::verification::VerificationStatus;
use domain::webhook::DeliveryStatus;

use crate::Database;
use crate::connection::AnyConnection;
use crate::failure::Failure;
use crate::schema::{verifications, webhook_deliveries};
use crate::timestamps::from_db;

#[async_trait]
impl Backlogs for Database {
    async fn verifications(&self) -> StoreResult<Backlog> {
        self.read(|conn: &mut AnyConnection| {
            let (waiting, oldest) = verifications::table
                .filter(verifications::status.eq(VerificationStatus::Pending.as_str()))
                .select((count_star(), min(verifications::created_at)))
                .get_result::<(i64, Option<i64>)>(conn)?;
            backlog("verifications.created_at", waiting, oldest)
        })
        .await
    }

    async fn webhook_deliveries(&self) -> StoreResult<Backlog> {
        self.read(|conn: &mut AnyConnection| {
            let (waiting, oldest) = webhook_deliveries::table
                .filter(webhook_deliveries::status.eq(DeliveryStatus::Pending.as_str()))
                .select((count_star(), min(webhook_deliveries::next_attempt_at)))
                .get_result::<(i64, Option<i64>)>(conn)?;
            backlog("webhook_deliveries.next_attempt_at", waiting, oldest)
        })
        .await
    }
}

fn backlog(column: &str, waiting: i64, oldest: Option<i64>) -> Result<Backlog, Failure> {
    Ok(Backlog {
        waiting: u64::try_from(waiting).unwrap_or_default(),
        oldest_due: oldest.map(|at| from_db(column, at)).transpose()?,
    })
}
