use domain::webhook::{Delivery, Webhook};
use serde::Serialize;
use utoipa::ToSchema;

use super::paging::Paging;
use crate::timefmt::rfc3339;

/// An endpoint, without its secret.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookView {
    pub webhook_id: String,
    pub url: String,
    /// Activity names received; empty: all.
    pub events: Vec<String>,
    pub description: String,
    /// 1 while deliveries are attempted; a 410 answer sets it to 0.
    pub enabled: u8,
    pub created_at: String,
}

impl WebhookView {
    pub fn of(w: &Webhook) -> Self {
        Self {
            webhook_id: w.id.to_string(),
            url: w.url.as_str().to_owned(),
            events: w
                .events
                .activities()
                .iter()
                .map(|a| a.as_str().to_owned())
                .collect(),
            description: w.description.clone(),
            enabled: u8::from(w.enabled),
            created_at: rfc3339(w.created_at),
        }
    }
}

/// webhook/create: the endpoint and its secret, shown only here.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookCreated {
    #[serde(flatten)]
    pub webhook: WebhookView,
    /// `whsec_` + base64 of 32 random bytes: verifies `webhook-signature`.
    pub secret: String,
}

/// webhook/read.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookList {
    #[serde(flatten)]
    pub paging: Paging,
    pub webhooks: Vec<WebhookView>,
}

/// webhook/delete.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookDeleted {
    pub webhook_id: String,
    /// Always 1.
    pub deleted: u8,
    pub deleted_at: String,
}

/// webhook/rotate-secret: the new secret; the old one keeps signing for 24 h.
#[derive(Debug, Serialize, ToSchema)]
pub struct SecretRotated {
    pub webhook_id: String,
    pub secret: String,
}

/// One event owed to an endpoint.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryView {
    pub delivery_id: String,
    /// Also the `webhook-id` header of every attempt.
    pub event_id: String,
    /// The activity.
    #[serde(rename = "type")]
    pub kind: String,
    /// `pending`, `succeeded` or `failed`.
    pub status: String,
    pub attempts: u32,
    /// `null` when the last attempt got no answer (or none was made).
    pub last_status_code: Option<u16>,
    pub last_error: Option<String>,
    /// `null` once succeeded or failed.
    pub next_attempt_at: Option<String>,
    pub created_at: String,
    pub delivered_at: Option<String>,
}

impl DeliveryView {
    pub fn of(d: &Delivery) -> Self {
        Self {
            delivery_id: d.id.to_string(),
            event_id: d.event_id.to_string(),
            kind: d.activity.as_str().to_owned(),
            status: d.status.as_str().to_owned(),
            attempts: d.attempts,
            last_status_code: d.last_status_code,
            last_error: d.last_error.clone(),
            next_attempt_at: d.next_attempt_at.map(rfc3339),
            created_at: rfc3339(d.created_at),
            delivered_at: d.delivered_at.map(rfc3339),
        }
    }
}

/// webhook/delivery/read: an endpoint's deliveries, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryList {
    #[serde(flatten)]
    pub paging: Paging,
    pub webhook_id: String,
    pub deliveries: Vec<DeliveryView>,
}
