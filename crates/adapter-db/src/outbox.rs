//! The outbox (contract §9): an [`Entry`] (an event and the webhook deliveries the domain
//! decided it owes) persisted whole in the transaction of the change it records. Nothing
//! here decides who is owed what; this module seals what a delivery will send, writes the
//! rows (the event's as [`EventRow`]), and tells the domain which endpoints listen
//! ([`Subscriptions`]).

use async_trait::async_trait;
use diesel::dsl::exists;
use diesel::prelude::*;
use domain::event::{Activity, Event, EventStatus};
use domain::merchant::MerchantId;
use domain::outbox::{Entry, Subscription};
use domain::ports::{StoreError, StoreResult, Subscriptions};
use domain::profile::ProfileId;
use domain::webhook::{DeliveryStatus, Notification};
use serde::{Deserialize, Serialize};

use crate::Database;
use crate::connection::{AnyConnection, on_concrete};
use crate::failure::{Failure, corrupt, fault};
use crate::schema::{events, webhook_deliveries, webhooks};
use crate::sealing::vault::{Column, Vault};
use crate::timestamps::{from_db, to_db};

/// An entry ready to be written: its rows, the deliveries' message already sealed, so the
/// transaction only writes.
pub(crate) struct SealedEntry {
    event: EventRow,
    deliveries: Vec<NewDelivery>,
}

/// `None` is written as NULL, as for `ProfileRow`.
#[derive(Insertable)]
#[diesel(table_name = webhook_deliveries, treat_none_as_default_value = false)]
struct NewDelivery {
    id: String,
    webhook_id: String,
    merchant_id: String,
    event_id: String,
    activity: String,
    status: String,
    attempts: i32,
    next_attempt_at: Option<i64>,
    created_at: i64,
    sealed_message: Vec<u8>,
}

impl Database {
    /// `entry`'s rows, sealed under this database's key.
    pub(crate) fn sealed(&self, entry: &Entry) -> StoreResult<SealedEntry> {
        // One message per event, shared by its deliveries: it names the profile by
        // e-mail and mobile, so it is sealed (bound to the event's id).
        let message = match entry.deliveries.is_empty() {
            true => Vec::new(),
            false => StoredMessage::seal(&Notification::of(&entry.event), &self.vault)?,
        };
        let deliveries = entry
            .deliveries
            .iter()
            .map(|d| NewDelivery {
                id: d.id.to_string(),
                webhook_id: d.webhook_id.to_string(),
                merchant_id: d.merchant_id.as_str().to_owned(),
                event_id: d.event_id.to_string(),
                activity: d.activity.as_str().to_owned(),
                status: DeliveryStatus::Pending.as_str().to_owned(),
                attempts: 0,
                next_attempt_at: d.next_attempt_at.map(to_db),
                created_at: to_db(d.created_at),
                sealed_message: message.clone(),
            })
            .collect();
        Ok(SealedEntry {
            event: EventRow::seal(&entry.event, &self.vault)?,
            deliveries,
        })
    }
}

/// Writes `entry` inside the change's transaction: the event, then each delivery whose
/// endpoint still exists and is enabled (one deleted or disabled since the domain read
/// the subscriptions is owed nothing any more; the event is kept either way).
pub(crate) fn persist(conn: &mut AnyConnection, entry: &SealedEntry) -> Result<(), Failure> {
    // Every write of the API runs it: on the concrete connection, prepared once.
    on_concrete!(conn, |c| diesel::insert_into(events::table)
        .values(&entry.event)
        .execute(c))?;
    for delivery in &entry.deliveries {
        let listening = webhooks::table
            .filter(webhooks::id.eq(&delivery.webhook_id))
            .filter(webhooks::merchant_id.eq(&delivery.merchant_id))
            .filter(webhooks::enabled.eq(true));
        if diesel::select(exists(listening)).get_result(conn)? {
            // One statement per delivery: diesel's batch insert does not span both
            // backends.
            diesel::insert_into(webhook_deliveries::table)
                .values(delivery)
                .execute(conn)?;
        }
    }
    Ok(())
}

#[async_trait]
impl Subscriptions for Database {
    async fn subscriptions(&self, merchant: &MerchantId) -> StoreResult<Vec<Subscription>> {
        let merchant = merchant.as_str().to_owned();
        // Read before every write that logs an event (each create), and at most
        // `MAX_WEBHOOKS` rows through `webhooks_by_merchant`: on SQLite the hop to a
        // blocking thread cost a fifth of the create rate (docs/BENCHMARKS.md).
        let rows: Vec<(String, String)> = self
            .read_point(move |conn| {
                Ok(webhooks::table
                    .filter(webhooks::merchant_id.eq(&merchant))
                    .filter(webhooks::enabled.eq(true))
                    .select((webhooks::id, webhooks::events))
                    .load(conn)?)
            })
            .await?;
        rows.into_iter()
            .map(|(id, names)| {
                Ok(Subscription {
                    webhook_id: id.into(),
                    events: crate::repositories::webhooks::stored_filter(&names)?,
                })
            })
            .collect()
    }
}

/// What a delivery sends beyond its row's columns, as sealed in `sealed_message`.
#[derive(Serialize, Deserialize)]
pub(crate) struct StoredMessage {
    details: String,
    template_used: String,
    url: String,
    status: String,
    created_at: i64,
    email_address: String,
    mobile_number: String,
    document_id: Option<String>,
    quiz_url: Option<String>,
}

pub(crate) fn message_context(event_id: &str) -> String {
    format!("webhook-message:{event_id}")
}

impl StoredMessage {
    fn seal(n: &Notification, vault: &Vault) -> StoreResult<Vec<u8>> {
        let message = Self {
            details: n.details.clone(),
            template_used: n.template_used.clone(),
            url: n.url.clone(),
            status: n.status.as_str().to_owned(),
            created_at: to_db(n.created_at),
            email_address: n.email_address.clone(),
            mobile_number: n.mobile_number.clone(),
            document_id: n.document_id.as_ref().map(ToString::to_string),
            quiz_url: n.quiz_url.clone(),
        };
        let json = serde_json::to_vec(&message)
            .map_err(|e| StoreError::Internal(fault("webhook message", e)))?;
        vault
            .seal(&json, &message_context(n.event_id.as_str()))
            .map_err(StoreError::from)
    }

    /// The notification a stored delivery sends.
    pub(crate) fn open(
        sealed: &[u8],
        event_id: &str,
        activity: domain::event::Activity,
        vault: &Vault,
    ) -> StoreResult<Notification> {
        let column = "webhook_deliveries.sealed_message";
        let json = vault
            .open(sealed, &message_context(event_id))
            .map_err(|e| corrupt(column, e))?;
        let m: Self = serde_json::from_slice(&json).map_err(|e| corrupt(column, e))?;
        Ok(Notification {
            event_id: event_id.into(),
            activity,
            details: m.details,
            template_used: m.template_used,
            url: m.url,
            status: EventStatus::parse(&m.status).ok_or_else(|| corrupt(column, &m.status))?,
            created_at: from_db(column, m.created_at)?,
            email_address: m.email_address,
            mobile_number: m.mobile_number,
            document_id: m.document_id.map(Into::into),
            quiz_url: m.quiz_url,
        })
    }
}

/// An event as the `events` table keeps it; `None` is written as NULL (a profile-less
/// event's `profile_id`).
#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = events, treat_none_as_default_value = false)]
pub(crate) struct EventRow {
    id: String,
    merchant_id: String,
    profile_id: Option<String>,
    activity: String,
    details: String,
    template_used: String,
    url: String,
    status: String,
    created_at: i64,
}

/// A quiz event's `url` is the quiz's short address, whose code opens the quiz: sealed
/// like a personal field (events without a quiz keep their empty `url`).
pub(crate) const EVENT_URL: Column = Column("events.url");

impl EventRow {
    pub(crate) fn seal(e: &Event, vault: &Vault) -> StoreResult<Self> {
        let id = e.id.to_string();
        let url = match e.url.as_str() {
            "" => String::new(),
            url => vault.seal_field(EVENT_URL, &id, url)?,
        };
        Ok(Self {
            id,
            merchant_id: e.merchant_id.as_str().to_owned(),
            profile_id: e.profile_id.as_ref().map(|p| p.as_str().to_owned()),
            activity: e.activity.as_str().to_owned(),
            details: e.details.clone(),
            template_used: e.template_used.clone(),
            url,
            status: e.status.as_str().to_owned(),
            created_at: to_db(e.created_at),
        })
    }

    pub(crate) fn open(self, vault: &Vault) -> StoreResult<Event> {
        let url = match self.url.as_str() {
            "" => String::new(),
            sealed => vault.open_field(EVENT_URL, &self.id, sealed)?,
        };
        let activity = Activity::parse(&self.activity)
            .ok_or_else(|| corrupt("events.activity", &self.activity))?;
        let status = EventStatus::parse(&self.status)
            .ok_or_else(|| corrupt("events.status", &self.status))?;
        Ok(Event {
            id: self.id.into(),
            merchant_id: MerchantId::new(self.merchant_id),
            profile_id: self.profile_id.map(ProfileId::new),
            activity,
            details: self.details,
            template_used: self.template_used,
            url,
            status,
            created_at: from_db("events.created_at", self.created_at)?,
            subject: None,
        })
    }
}
