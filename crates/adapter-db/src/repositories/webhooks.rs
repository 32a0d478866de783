//! `WebhookRepository`: endpoints, their deliveries and the worker's claims. The
//! deliveries are first written by the outbox (`outbox.rs`), with the change that owes them.

use std::collections::HashMap;

use async_trait::async_trait;
use diesel::dsl::{count_star, min};
use diesel::prelude::*;
use domain::event::Activity;
use domain::ids::{DeliveryId, WebhookId};
use domain::merchant::MerchantId;
use domain::paging::{Page, Paged};
use domain::ports::{StoreError, StoreResult, WebhookRepository};
use domain::webhook::{
    Delivery, DeliveryStatus, DueDelivery, EventFilter, RetiringSecret, Webhook, WebhookSecret,
    WebhookUrl,
};
use time::OffsetDateTime;

use crate::Database;
use crate::connection::AnyConnection;
use crate::failure::{Failure, corrupt};
use crate::repositories::paging::{newest_first, paged};
use crate::schema::{events, webhook_deliveries, webhooks};
use crate::sealing::vault::Vault;
use crate::timestamps::{from_db, to_db};

#[derive(Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = webhooks, treat_none_as_null = true)]
struct WebhookRow {
    id: String,
    merchant_id: String,
    url: String,
    events: String,
    description: String,
    enabled: bool,
    sealed_secret: Vec<u8>,
    sealed_previous: Option<Vec<u8>>,
    previous_until: Option<i64>,
    created_at: i64,
    updated_at: i64,
}

/// Removes the deliveries of a profile's events, delivered or not: their sealed messages
/// carry the profile's e-mail, mobile and quiz address, which must go with it.
pub(crate) fn forget_deliveries_of_profile(
    conn: &mut AnyConnection,
    profile: &str,
) -> Result<(), Failure> {
    let of_profile = events::table
        .filter(events::profile_id.eq(profile))
        .select(events::id);
    diesel::delete(
        webhook_deliveries::table.filter(webhook_deliveries::event_id.eq_any(of_profile)),
    )
    .execute(conn)?;
    Ok(())
}

/// What a secret is sealed under: bound to its endpoint and its role, so a sealed value
/// cannot be moved to another row or column.
pub(crate) fn secret_context(id: &str, previous: bool) -> String {
    let role = if previous { "previous" } else { "current" };
    format!("webhook:{id}:{role}")
}

impl WebhookRow {
    fn seal(w: &Webhook, vault: &Vault) -> StoreResult<Self> {
        let id = w.id.as_str();
        let seal = |secret: &WebhookSecret, previous| {
            vault
                .seal(secret.expose().as_bytes(), &secret_context(id, previous))
                .map_err(StoreError::from)
        };
        let previous = w.previous_secret.as_ref();
        Ok(Self {
            id: id.to_owned(),
            merchant_id: w.merchant_id.as_str().to_owned(),
            url: w.url.as_str().to_owned(),
            events: activity_names(&w.events),
            description: w.description.clone(),
            enabled: w.enabled,
            sealed_secret: seal(&w.secret, false)?,
            sealed_previous: previous.map(|p| seal(&p.secret, true)).transpose()?,
            previous_until: previous.map(|p| to_db(p.until)),
            created_at: to_db(w.created_at),
            updated_at: to_db(w.updated_at),
        })
    }

    fn open(self, vault: &Vault) -> StoreResult<Webhook> {
        let open = |sealed: &[u8], previous| -> StoreResult<WebhookSecret> {
            let plain = vault
                .open(sealed, &secret_context(&self.id, previous))
                .map_err(|e| corrupt("webhooks.sealed_secret", e))?;
            let text =
                String::from_utf8(plain).map_err(|e| corrupt("webhooks.sealed_secret", e))?;
            Ok(WebhookSecret::stored(text))
        };
        let previous_secret = match (&self.sealed_previous, self.previous_until) {
            (Some(sealed), Some(until)) => Some(RetiringSecret {
                secret: open(sealed, true)?,
                until: from_db("webhooks.previous_until", until)?,
            }),
            _ => None,
        };
        Ok(Webhook {
            secret: open(&self.sealed_secret, false)?,
            previous_secret,
            events: stored_filter(&self.events)?,
            id: self.id.into(),
            merchant_id: MerchantId::new(self.merchant_id),
            url: WebhookUrl::stored(self.url),
            description: self.description,
            enabled: self.enabled,
            created_at: from_db("webhooks.created_at", self.created_at)?,
            updated_at: from_db("webhooks.updated_at", self.updated_at)?,
        })
    }
}

/// How an endpoint's activities are stored: names separated by commas, empty for all.
fn activity_names(filter: &EventFilter) -> String {
    let names: Vec<&str> = filter.activities().iter().map(Activity::as_str).collect();
    names.join(",")
}

/// The activities of an endpoint as stored by [`activity_names`].
pub(crate) fn stored_filter(names: &str) -> StoreResult<EventFilter> {
    let names: Vec<&str> = names.split(',').filter(|n| !n.is_empty()).collect();
    EventFilter::parse(&names).map_err(|e| corrupt("webhooks.events", e))
}

/// A delivery as listed: everything but what it sends.
#[derive(Queryable, Selectable)]
#[diesel(table_name = webhook_deliveries)]
struct DeliveryRow {
    id: String,
    webhook_id: String,
    merchant_id: String,
    event_id: String,
    activity: String,
    status: String,
    attempts: i32,
    last_status_code: Option<i32>,
    last_error: Option<String>,
    next_attempt_at: Option<i64>,
    created_at: i64,
    delivered_at: Option<i64>,
}

impl DeliveryRow {
    fn into_domain(self) -> StoreResult<Delivery> {
        let seconds = |column, s: Option<i64>| s.map(|s| from_db(column, s)).transpose();
        Ok(Delivery {
            activity: Activity::parse(&self.activity)
                .ok_or_else(|| corrupt("webhook_deliveries.activity", &self.activity))?,
            status: DeliveryStatus::parse(&self.status)
                .ok_or_else(|| corrupt("webhook_deliveries.status", &self.status))?,
            attempts: u32::try_from(self.attempts)
                .map_err(|e| corrupt("webhook_deliveries.attempts", e))?,
            last_status_code: self
                .last_status_code
                .map(u16::try_from)
                .transpose()
                .map_err(|e| corrupt("webhook_deliveries.last_status_code", e))?,
            next_attempt_at: seconds("webhook_deliveries.next_attempt_at", self.next_attempt_at)?,
            delivered_at: seconds("webhook_deliveries.delivered_at", self.delivered_at)?,
            created_at: from_db("webhook_deliveries.created_at", self.created_at)?,
            id: self.id.into(),
            webhook_id: self.webhook_id.into(),
            merchant_id: MerchantId::new(self.merchant_id),
            event_id: self.event_id.into(),
            last_error: self.last_error,
        })
    }
}

/// What a delivery's attempt changes.
#[derive(AsChangeset)]
#[diesel(table_name = webhook_deliveries, treat_none_as_null = true)]
struct DeliveryProgress {
    status: String,
    attempts: i32,
    last_status_code: Option<i32>,
    last_error: Option<String>,
    next_attempt_at: Option<i64>,
    delivered_at: Option<i64>,
    claimed_until: Option<i64>,
}

impl DeliveryProgress {
    fn of(d: &Delivery) -> Self {
        Self {
            status: d.status.as_str().to_owned(),
            attempts: i32::try_from(d.attempts).unwrap_or(i32::MAX),
            last_status_code: d.last_status_code.map(i32::from),
            last_error: d.last_error.clone(),
            // Rounded up: stored in whole seconds, a retry must never come earlier than
            // its schedule says (rounded down, a 4.5 s wait could shrink to 3.5 s).
            next_attempt_at: d
                .next_attempt_at
                .map(|at| to_db(at) + i64::from(at.nanosecond() > 0)),
            delivered_at: d.delivered_at.map(to_db),
            claimed_until: None,
        }
    }
}

/// The deliveries due at `$now`: pending, past their attempt time, not claimed (or their
/// claim lapsed), to enabled endpoints.
macro_rules! due_at {
    ($now:expr) => {
        webhook_deliveries::table
            .filter(webhook_deliveries::status.eq(DeliveryStatus::Pending.as_str()))
            .filter(webhook_deliveries::next_attempt_at.le($now))
            .filter(
                webhook_deliveries::claimed_until
                    .is_null()
                    .or(webhook_deliveries::claimed_until.le($now)),
            )
            .filter(
                webhook_deliveries::webhook_id.eq_any(
                    webhooks::table
                        .filter(webhooks::enabled.eq(true))
                        .select(webhooks::id),
                ),
            )
    };
}

/// Ids of up to `max` deliveries due at `now` that may be claimed: at most `per_merchant`
/// in flight for any merchant, counting its deliveries claimed before (by any instance)
/// and not yet saved, so one merchant's slow endpoints never take every attempt. The
/// merchants take their turns in the order of their oldest due delivery.
///
/// Counting and claiming must not interleave between claimers: on SQLite the single
/// writer runs one claim at a time; on PostgreSQL a claim holds a transaction-scoped
/// advisory lock (taken by `claim_due`).
fn claimable(
    conn: &mut AnyConnection,
    now: i64,
    max: usize,
    per_merchant: usize,
) -> Result<Vec<String>, Failure> {
    let in_flight: HashMap<String, i64> = webhook_deliveries::table
        .filter(webhook_deliveries::status.eq(DeliveryStatus::Pending.as_str()))
        .filter(webhook_deliveries::claimed_until.gt(now))
        .group_by(webhook_deliveries::merchant_id)
        .select((webhook_deliveries::merchant_id, count_star()))
        .load::<(String, i64)>(conn)?
        .into_iter()
        .collect();
    let mut waiting: Vec<(String, Option<i64>)> = due_at!(now)
        .group_by(webhook_deliveries::merchant_id)
        .select((
            webhook_deliveries::merchant_id,
            min(webhook_deliveries::next_attempt_at),
        ))
        .load(conn)?;
    waiting.sort_by_key(|(_, oldest)| *oldest);
    let mut ids = Vec::new();
    for (merchant, _) in waiting {
        let busy = in_flight.get(&merchant).copied().unwrap_or(0);
        let room = usize::try_from(busy)
            .map_or(0, |busy| per_merchant.saturating_sub(busy))
            .min(max - ids.len());
        if room == 0 {
            continue;
        }
        ids.extend(
            due_at!(now)
                .filter(webhook_deliveries::merchant_id.eq(&merchant))
                .order((
                    webhook_deliveries::next_attempt_at.asc(),
                    webhook_deliveries::id.asc(),
                ))
                .limit(i64::try_from(room).unwrap_or(i64::MAX))
                .select(webhook_deliveries::id)
                .load::<String>(conn)?,
        );
        if ids.len() == max {
            break;
        }
    }
    Ok(ids)
}

/// The PostgreSQL advisory lock a claim holds to its commit ("idv_whk" in ASCII): claims
/// by several instances count and claim one after the other.
const CLAIM_LOCK: i64 = 0x0069_6476_5f77_686b;

type ClaimedRow = (DeliveryRow, Vec<u8>, WebhookRow);

#[async_trait]
impl WebhookRepository for Database {
    async fn insert(&self, webhook: &Webhook, max: usize) -> StoreResult<()> {
        let row = WebhookRow::seal(webhook, &self.vault)?;
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        self.write(move |conn| {
            // Concurrent registrations of one merchant count one after the other.
            crate::repositories::merchants::lock_merchant(conn, &row.merchant_id)?;
            let held: i64 = webhooks::table
                .filter(webhooks::merchant_id.eq(&row.merchant_id))
                .count()
                .get_result(conn)?;
            if held >= max {
                return Err(Failure::Store(StoreError::LimitReached));
            }
            diesel::insert_into(webhooks::table)
                .values(&row)
                .execute(conn)?;
            Ok(())
        })
        .await
    }

    async fn find(&self, merchant: &MerchantId, id: &WebhookId) -> StoreResult<Option<Webhook>> {
        let (merchant, id) = (merchant.as_str().to_owned(), id.to_string());
        let row = self
            .read(move |conn| {
                Ok(webhooks::table
                    .find(id)
                    .filter(webhooks::merchant_id.eq(merchant))
                    .select(WebhookRow::as_select())
                    .get_result(conn)
                    .optional()?)
            })
            .await?;
        row.map(|r| r.open(&self.vault)).transpose()
    }

    async fn list(&self, merchant: &MerchantId, page: Page) -> StoreResult<Paged<Webhook>> {
        let merchant = merchant.as_str().to_owned();
        let rows = self
            .read(move |conn| {
                Ok(newest_first!(
                    conn,
                    webhooks::table.filter(webhooks::merchant_id.eq(merchant)),
                    webhooks::id,
                    page,
                    WebhookRow
                ))
            })
            .await?;
        paged(rows, |r| r.open(&self.vault))
    }

    async fn update(&self, webhook: &Webhook) -> StoreResult<()> {
        let row = WebhookRow::seal(webhook, &self.vault)?;
        self.write(move |conn| {
            let changed = diesel::update(
                webhooks::table
                    .find(&row.id)
                    .filter(webhooks::merchant_id.eq(&row.merchant_id)),
            )
            .set(&row)
            .execute(conn)?;
            if changed == 0 {
                return Err(Failure::Store(StoreError::Missing));
            }
            Ok(())
        })
        .await
    }

    async fn delete(&self, merchant: &MerchantId, id: &WebhookId) -> StoreResult<()> {
        let (merchant, id) = (merchant.as_str().to_owned(), id.to_string());
        self.write(move |conn| {
            let deleted = diesel::delete(
                webhooks::table
                    .find(&id)
                    .filter(webhooks::merchant_id.eq(&merchant)),
            )
            .execute(conn)?;
            if deleted == 0 {
                return Err(Failure::Store(StoreError::Missing));
            }
            // Foreign keys cascade too; explicit, as for profiles, so that SQLite's
            // foreign_keys pragma does not decide.
            diesel::delete(
                webhook_deliveries::table.filter(webhook_deliveries::webhook_id.eq(&id)),
            )
            .execute(conn)?;
            Ok(())
        })
        .await
    }

    async fn deliveries(&self, webhook: &WebhookId, page: Page) -> StoreResult<Paged<Delivery>> {
        let webhook = webhook.to_string();
        let rows = self
            .read(move |conn| {
                Ok(newest_first!(
                    conn,
                    webhook_deliveries::table.filter(webhook_deliveries::webhook_id.eq(webhook)),
                    webhook_deliveries::id,
                    page,
                    DeliveryRow
                ))
            })
            .await?;
        paged(rows, DeliveryRow::into_domain)
    }

    async fn find_delivery(
        &self,
        merchant: &MerchantId,
        id: &DeliveryId,
    ) -> StoreResult<Option<Delivery>> {
        let (merchant, id) = (merchant.as_str().to_owned(), id.to_string());
        let row = self
            .read(move |conn| {
                Ok(webhook_deliveries::table
                    .find(id)
                    .filter(webhook_deliveries::merchant_id.eq(merchant))
                    .select(DeliveryRow::as_select())
                    .get_result(conn)
                    .optional()?)
            })
            .await?;
        row.map(DeliveryRow::into_domain).transpose()
    }

    async fn save_delivery(&self, delivery: &Delivery, disable_endpoint: bool) -> StoreResult<()> {
        let (id, webhook_id) = (delivery.id.to_string(), delivery.webhook_id.to_string());
        let progress = DeliveryProgress::of(delivery);
        self.write(move |conn| {
            let changed = diesel::update(webhook_deliveries::table.find(&id))
                .set(&progress)
                .execute(conn)?;
            if changed == 0 {
                return Err(Failure::Store(StoreError::Missing));
            }
            if disable_endpoint {
                diesel::update(webhooks::table.find(&webhook_id))
                    .set(webhooks::enabled.eq(false))
                    .execute(conn)?;
            }
            Ok(())
        })
        .await
    }

    async fn claim_due(
        &self,
        now: OffsetDateTime,
        until: OffsetDateTime,
        max: usize,
        per_merchant: usize,
    ) -> StoreResult<Vec<DueDelivery>> {
        let (now, until) = (to_db(now), to_db(until));
        // Looked for first on a reader: most polls find nothing (or only merchants with
        // no room), and on SQLite a claim is a write that would wait for, and cost, a
        // commit.
        let any_due = self
            .read(move |conn| Ok(!claimable(conn, now, 1, per_merchant)?.is_empty()))
            .await?;
        if !any_due {
            return Ok(Vec::new());
        }
        let rows: Vec<ClaimedRow> = self
            .write(move |conn| {
                if let AnyConnection::Postgresql(c) = conn {
                    diesel::sql_query("SELECT pg_advisory_xact_lock($1)")
                        .bind::<diesel::sql_types::BigInt, _>(CLAIM_LOCK)
                        .execute(c)?;
                }
                let ids = claimable(conn, now, max, per_merchant)?;
                if ids.is_empty() {
                    return Ok(Vec::new());
                }
                diesel::update(
                    webhook_deliveries::table.filter(webhook_deliveries::id.eq_any(&ids)),
                )
                .set(webhook_deliveries::claimed_until.eq(until))
                .execute(conn)?;
                Ok(webhook_deliveries::table
                    .inner_join(webhooks::table)
                    .filter(webhook_deliveries::id.eq_any(&ids))
                    .order((
                        webhook_deliveries::next_attempt_at.asc(),
                        webhook_deliveries::id.asc(),
                    ))
                    .select((
                        DeliveryRow::as_select(),
                        webhook_deliveries::sealed_message,
                        WebhookRow::as_select(),
                    ))
                    .load(conn)?)
            })
            .await?;
        rows.into_iter()
            .map(|(delivery, message, webhook)| {
                let delivery = delivery.into_domain()?;
                let notification = crate::outbox::StoredMessage::open(
                    &message,
                    delivery.event_id.as_str(),
                    delivery.activity,
                    &self.vault,
                )?;
                Ok(DueDelivery {
                    delivery,
                    webhook: webhook.open(&self.vault)?,
                    notification,
                })
            })
            .collect()
    }

    async fn release(&self, ids: &[DeliveryId]) -> StoreResult<()> {
        let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
        self.write(move |conn| {
            diesel::update(webhook_deliveries::table.filter(webhook_deliveries::id.eq_any(&ids)))
                .set(webhook_deliveries::claimed_until.eq(None::<i64>))
                .execute(conn)?;
            Ok(())
        })
        .await
    }
}

/// Frees every claim (see `Database::free_crashed_claims`).
pub(crate) fn forget_claims(conn: &mut AnyConnection) -> Result<usize, Failure> {
    Ok(diesel::update(
        webhook_deliveries::table.filter(webhook_deliveries::claimed_until.is_not_null()),
    )
    .set(webhook_deliveries::claimed_until.eq(None::<i64>))
    .execute(conn)?)
}
