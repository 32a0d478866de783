//! Webhook endpoints, their deliveries and the worker's claims, in memory.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use time::OffsetDateTime;

use super::{MemoryProfiles, page_of};
use crate::ids::{DeliveryId, WebhookId};
use crate::merchant::MerchantId;
use crate::outbox::Subscription;
use crate::paging::{Page, Paged};
use crate::ports::{StoreError, StoreResult, Subscriptions, WebhookRepository};
use crate::webhook::{Delivery, DeliveryStatus, DueDelivery, Webhook};

/// Webhook endpoints, over the same data as the deliveries the other repositories'
/// outbox entries owe, with the worker's claims.
#[derive(Debug)]
pub struct MemoryWebhooks {
    data: Arc<MemoryProfiles>,
    webhooks: Mutex<Vec<Webhook>>,
    /// When each claimed delivery's claim lapses.
    claims: Mutex<HashMap<DeliveryId, OffsetDateTime>>,
}

impl MemoryWebhooks {
    /// Endpoints beside `data`'s deliveries.
    pub fn new(data: Arc<MemoryProfiles>) -> Self {
        Self {
            data,
            webhooks: Mutex::default(),
            claims: Mutex::default(),
        }
    }
}

#[async_trait]
impl WebhookRepository for MemoryWebhooks {
    async fn insert(&self, webhook: &Webhook, max: usize) -> StoreResult<()> {
        let mut webhooks = self.webhooks.lock().expect("lock");
        let held = webhooks
            .iter()
            .filter(|w| w.merchant_id == webhook.merchant_id)
            .count();
        if held >= max {
            return Err(StoreError::LimitReached);
        }
        if webhooks.iter().any(|w| w.id == webhook.id) {
            return Err(StoreError::Duplicate);
        }
        webhooks.push(webhook.clone());
        Ok(())
    }

    async fn find(&self, merchant: &MerchantId, id: &WebhookId) -> StoreResult<Option<Webhook>> {
        let webhooks = self.webhooks.lock().expect("lock");
        Ok(webhooks
            .iter()
            .find(|w| &w.id == id && &w.merchant_id == merchant)
            .cloned())
    }

    async fn list(&self, merchant: &MerchantId, page: Page) -> StoreResult<Paged<Webhook>> {
        let webhooks = self.webhooks.lock().expect("lock");
        let theirs = webhooks.iter().filter(|w| &w.merchant_id == merchant);
        Ok(page_of(theirs.cloned().collect(), page))
    }

    async fn update(&self, webhook: &Webhook) -> StoreResult<()> {
        let mut webhooks = self.webhooks.lock().expect("lock");
        let stored = webhooks
            .iter_mut()
            .find(|w| w.id == webhook.id && w.merchant_id == webhook.merchant_id)
            .ok_or(StoreError::Missing)?;
        *stored = webhook.clone();
        Ok(())
    }

    async fn delete(&self, merchant: &MerchantId, id: &WebhookId) -> StoreResult<()> {
        let mut webhooks = self.webhooks.lock().expect("lock");
        let before = webhooks.len();
        webhooks.retain(|w| !(&w.id == id && &w.merchant_id == merchant));
        if webhooks.len() == before {
            return Err(StoreError::Missing);
        }
        let mut deliveries = self.data.deliveries.lock().expect("lock");
        deliveries.retain(|d| &d.webhook_id != id);
        Ok(())
    }

    async fn deliveries(&self, webhook: &WebhookId, page: Page) -> StoreResult<Paged<Delivery>> {
        let deliveries = self.data.deliveries.lock().expect("lock");
        let its = deliveries.iter().filter(|d| &d.webhook_id == webhook);
        Ok(page_of(its.cloned().collect(), page))
    }

    async fn find_delivery(
        &self,
        merchant: &MerchantId,
        id: &DeliveryId,
    ) -> StoreResult<Option<Delivery>> {
        let deliveries = self.data.deliveries.lock().expect("lock");
        Ok(deliveries
            .iter()
            .find(|d| &d.id == id && &d.merchant_id == merchant)
            .cloned())
    }

    async fn save_delivery(&self, delivery: &Delivery, disable_endpoint: bool) -> StoreResult<()> {
        {
            let mut deliveries = self.data.deliveries.lock().expect("lock");
            let stored = deliveries
                .iter_mut()
                .find(|d| d.id == delivery.id)
                .ok_or(StoreError::Missing)?;
            *stored = Delivery {
                status: delivery.status,
                attempts: delivery.attempts,
                last_status_code: delivery.last_status_code,
                last_error: delivery.last_error.clone(),
                next_attempt_at: delivery.next_attempt_at,
                delivered_at: delivery.delivered_at,
                ..stored.clone()
            };
        }
        self.claims.lock().expect("lock").remove(&delivery.id);
        if disable_endpoint {
            let mut webhooks = self.webhooks.lock().expect("lock");
            if let Some(w) = webhooks.iter_mut().find(|w| w.id == delivery.webhook_id) {
                w.enabled = false;
            }
        }
        Ok(())
    }

    async fn claim_due(
        &self,
        now: OffsetDateTime,
        until: OffsetDateTime,
        max: usize,
        per_merchant: usize,
    ) -> StoreResult<Vec<DueDelivery>> {
        let deliveries = self.data.deliveries.lock().expect("lock").clone();
        let webhooks = self.webhooks.lock().expect("lock");
        let mut claims = self.claims.lock().expect("lock");
        let enabled = |id: &WebhookId| webhooks.iter().any(|w| &w.id == id && w.enabled);
        let claimed = |d: &Delivery| claims.get(&d.id).is_some_and(|lapses| *lapses > now);
        let pending = |d: &&Delivery| d.status == DeliveryStatus::Pending;
        let mut in_flight: HashMap<MerchantId, usize> = HashMap::new();
        for d in deliveries.iter().filter(pending).filter(|d| claimed(d)) {
            *in_flight.entry(d.merchant_id.clone()).or_default() += 1;
        }
        let mut due: Vec<&Delivery> = deliveries
            .iter()
            .filter(pending)
            .filter(|d| d.next_attempt_at.is_some_and(|at| at <= now))
            .filter(|d| !claimed(d) && enabled(&d.webhook_id))
            .collect();
        // Oldest first, ties by id: whole seconds make ties common.
        due.sort_by(|a, b| (a.next_attempt_at, &a.id).cmp(&(b.next_attempt_at, &b.id)));
        // Merchants take their turns in the order of their oldest due delivery.
        let mut merchants: Vec<&MerchantId> = Vec::new();
        for d in &due {
            if !merchants.contains(&&d.merchant_id) {
                merchants.push(&d.merchant_id);
            }
        }
        let mut chosen: Vec<Delivery> = Vec::new();
        for merchant in merchants {
            let busy = in_flight.get(merchant).copied().unwrap_or(0);
            let room = per_merchant.saturating_sub(busy).min(max - chosen.len());
            let theirs = due.iter().filter(|d| &d.merchant_id == merchant);
            chosen.extend(theirs.take(room).map(|d| (*d).clone()));
            if chosen.len() == max {
                break;
            }
        }
        let notifications = self.data.notifications.lock().expect("lock");
        let mut answer = Vec::new();
        for delivery in chosen {
            let webhook = webhooks.iter().find(|w| w.id == delivery.webhook_id);
            let notification = notifications.get(&delivery.id);
            if let (Some(webhook), Some(notification)) = (webhook, notification) {
                claims.insert(delivery.id.clone(), until);
                answer.push(DueDelivery {
                    webhook: webhook.clone(),
                    notification: notification.clone(),
                    delivery,
                });
            }
        }
        Ok(answer)
    }

    async fn release(&self, ids: &[DeliveryId]) -> StoreResult<()> {
        let mut claims = self.claims.lock().expect("lock");
        for id in ids {
            claims.remove(id);
        }
        Ok(())
    }
}

#[async_trait]
impl Subscriptions for MemoryWebhooks {
    async fn subscriptions(&self, merchant: &MerchantId) -> StoreResult<Vec<Subscription>> {
        let webhooks = self.webhooks.lock().expect("lock");
        Ok(webhooks
            .iter()
            .filter(|w| &w.merchant_id == merchant && w.enabled)
            .map(|w| Subscription {
                webhook_id: w.id.clone(),
                events: w.events.clone(),
            })
            .collect())
    }
}
