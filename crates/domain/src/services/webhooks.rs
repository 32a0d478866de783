use std::sync::Arc;

use time::Duration;

use crate::error::{DomainError, Resource};
use crate::ids::{DeliveryId, WebhookId};
use crate::merchant::MerchantId;
use crate::paging::{Page, Paged};
use crate::ports::{
    Clock, IdGenerator, SecretGenerator, StoreError, WebhookRepository, WebhookSender,
};
use crate::validation::{Problem, Violations};
use crate::webhook::{
    Delivery, DueDelivery, EventFilter, MAX_WEBHOOKS, Outcome, ROTATION_OVERLAP, RetiringSecret,
    SECRET_BYTES, Webhook, WebhookSecret, WebhookUrl, parse_description,
};

/// How long a claimed delivery stays with its claimer: longer than an attempt may take
/// (the answer timeout and the connection before it), short enough that a crashed
/// instance's claims are soon taken up by another.
pub const CLAIM_LEASE: Duration = Duration::seconds(60);

/// Deliveries of one merchant in flight at most, across every instance: one merchant's
/// slow endpoints hold at most this many attempts, never another merchant's turn.
pub const IN_FLIGHT_PER_MERCHANT: usize = 4;

/// What a merchant sends to register or change an endpoint: the raw values, checked here
/// because what a URL may point at depends on how the service is run.
#[derive(Debug, Clone, Default)]
pub struct WebhookInput {
    /// The address (required to register).
    pub url: Option<String>,
    /// Activity names (`None`: unchanged, or all at registration).
    pub events: Option<Vec<String>>,
    /// The merchant's words about it.
    pub description: Option<String>,
    /// On or off (changes only).
    pub enabled: Option<bool>,
}

/// A merchant's webhook endpoints, and the delivery of what they are owed.
#[derive(Clone)]
pub struct WebhookService {
    webhooks: Arc<dyn WebhookRepository>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    secrets: Arc<dyn SecretGenerator>,
    allow_private: bool,
}

impl std::fmt::Debug for WebhookService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookService")
            .field("allow_private", &self.allow_private)
            .finish()
    }
}

impl WebhookService {
    /// The service over its ports. `allow_private` admits `http` and private addresses.
    pub fn new(
        webhooks: Arc<dyn WebhookRepository>,
        clock: Arc<dyn Clock>,
        ids: Arc<dyn IdGenerator>,
        secrets: Arc<dyn SecretGenerator>,
        allow_private: bool,
    ) -> Self {
        Self {
            webhooks,
            clock,
            ids,
            secrets,
            allow_private,
        }
    }

    /// Registers an endpoint, enabled, with a new secret.
    pub async fn create(
        &self,
        merchant: &MerchantId,
        input: WebhookInput,
    ) -> Result<Webhook, DomainError> {
        let mut violations = Violations::new();
        if input.url.as_deref().is_none_or(|u| u.trim().is_empty()) {
            violations.push("url", Problem::Required, "is required");
        }
        let now = self.clock.now();
        let mut webhook = Webhook {
            id: WebhookId::new(self.ids.next_id()),
            merchant_id: merchant.clone(),
            url: WebhookUrl::stored(""),
            events: EventFilter::default(),
            description: String::new(),
            enabled: true,
            secret: self.new_secret(),
            previous_secret: None,
            created_at: now,
            updated_at: now,
        };
        self.apply(
            &mut webhook,
            WebhookInput {
                enabled: None,
                ..input
            },
            violations,
        )?;
        match self.webhooks.insert(&webhook, MAX_WEBHOOKS).await {
            Ok(()) => Ok(webhook),
            Err(StoreError::LimitReached) => Err(DomainError::WebhookLimitReached),
            Err(e) => Err(e.into()),
        }
    }

    /// The merchant's endpoint.
    pub async fn get(&self, merchant: &MerchantId, id: &WebhookId) -> Result<Webhook, DomainError> {
        self.webhooks
            .find(merchant, id)
            .await?
            .ok_or(DomainError::NotFound(Resource::Webhook))
    }

    /// The merchant's endpoints, newest first.
    pub async fn list(
        &self,
        merchant: &MerchantId,
        page: Page,
    ) -> Result<Paged<Webhook>, DomainError> {
        Ok(self.webhooks.list(merchant, page).await?)
    }

    /// Changes what `input` names.
    pub async fn update(
        &self,
        merchant: &MerchantId,
        id: &WebhookId,
        input: WebhookInput,
    ) -> Result<Webhook, DomainError> {
        let mut webhook = self.get(merchant, id).await?;
        self.apply(&mut webhook, input, Violations::new())?;
        webhook.updated_at = self.clock.now();
        self.save(&webhook).await?;
        Ok(webhook)
    }

    /// Removes the endpoint and its deliveries; returns when.
    pub async fn delete(
        &self,
        merchant: &MerchantId,
        id: &WebhookId,
    ) -> Result<time::OffsetDateTime, DomainError> {
        match self.webhooks.delete(merchant, id).await {
            Ok(()) => Ok(self.clock.now()),
            Err(StoreError::Missing) => Err(DomainError::NotFound(Resource::Webhook)),
            Err(e) => Err(e.into()),
        }
    }

    /// A new secret; the one it replaces keeps signing for [`ROTATION_OVERLAP`].
    pub async fn rotate_secret(
        &self,
        merchant: &MerchantId,
        id: &WebhookId,
    ) -> Result<Webhook, DomainError> {
        let mut webhook = self.get(merchant, id).await?;
        let now = self.clock.now();
        let replaced = std::mem::replace(&mut webhook.secret, self.new_secret());
        webhook.previous_secret = Some(RetiringSecret {
            secret: replaced,
            until: now + ROTATION_OVERLAP,
        });
        webhook.updated_at = now;
        self.save(&webhook).await?;
        Ok(webhook)
    }

    /// The endpoint's deliveries, newest first.
    pub async fn deliveries(
        &self,
        merchant: &MerchantId,
        id: &WebhookId,
        page: Page,
    ) -> Result<Paged<Delivery>, DomainError> {
        let webhook = self.get(merchant, id).await?;
        Ok(self.webhooks.deliveries(&webhook.id, page).await?)
    }

    /// Makes the delivery due now, whatever it came to: failed ones get one more attempt.
    pub async fn retry(
        &self,
        merchant: &MerchantId,
        id: &DeliveryId,
    ) -> Result<Delivery, DomainError> {
        let mut delivery = self
            .webhooks
            .find_delivery(merchant, id)
            .await?
            .ok_or(DomainError::NotFound(Resource::Delivery))?;
        delivery.retry_now(self.clock.now());
        match self.webhooks.save_delivery(&delivery, false).await {
            Ok(()) => Ok(delivery),
            Err(StoreError::Missing) => Err(DomainError::NotFound(Resource::Delivery)),
            Err(e) => Err(e.into()),
        }
    }

    /// Claims up to `max` deliveries due now, for [`Self::attempt`]; at most
    /// [`IN_FLIGHT_PER_MERCHANT`] of any one merchant's in flight at once.
    pub async fn claim_due(&self, max: usize) -> Result<Vec<DueDelivery>, DomainError> {
        let now = self.clock.now();
        Ok(self
            .webhooks
            .claim_due(now, now + CLAIM_LEASE, max, IN_FLIGHT_PER_MERCHANT)
            .await?)
    }

    /// One attempt of a claimed delivery, its answer recorded.
    pub async fn attempt(
        &self,
        sender: &dyn WebhookSender,
        due: DueDelivery,
    ) -> Result<Outcome, DomainError> {
        let DueDelivery {
            mut delivery,
            webhook,
            notification,
        } = due;
        let answer = sender.send(&webhook, &notification, self.clock.now()).await;
        let outcome = delivery.record(&answer, self.clock.now());
        let gone = outcome == Outcome::EndpointGone;
        match self.webhooks.save_delivery(&delivery, gone).await {
            // Deleted with its endpoint meanwhile: nothing is owed any more.
            Ok(()) | Err(StoreError::Missing) => Ok(outcome),
            Err(e) => Err(e.into()),
        }
    }

    /// Gives claimed deliveries back unattempted, due at once (a shutdown).
    pub async fn release(&self, ids: &[DeliveryId]) -> Result<(), DomainError> {
        Ok(self.webhooks.release(ids).await?)
    }

    /// Applies the fields `input` holds, reporting every bad one with `violations`.
    fn apply(
        &self,
        webhook: &mut Webhook,
        input: WebhookInput,
        mut violations: Violations,
    ) -> Result<(), DomainError> {
        if let Some(url) = input.url.filter(|u| !u.trim().is_empty()) {
            match WebhookUrl::parse(&url, self.allow_private) {
                Ok(url) => webhook.url = url,
                Err(e) => violations.push("url", Problem::Invalid, e.0),
            }
        }
        if let Some(names) = input.events {
            match EventFilter::parse(&names) {
                Ok(events) => webhook.events = events,
                Err(e) => violations.push("events", Problem::Invalid, e.0),
            }
        }
        if let Some(text) = input.description {
            match parse_description(&text) {
                Ok(text) => webhook.description = text,
                Err(e) => violations.push("description", Problem::Invalid, e.0),
            }
        }
        if let Some(enabled) = input.enabled {
            webhook.enabled = enabled;
        }
        Ok(violations.into_result(())?)
    }

    async fn save(&self, webhook: &Webhook) -> Result<(), DomainError> {
        match self.webhooks.update(webhook).await {
            Ok(()) => Ok(()),
            Err(StoreError::Missing) => Err(DomainError::NotFound(Resource::Webhook)),
            Err(e) => Err(e.into()),
        }
    }

    fn new_secret(&self) -> WebhookSecret {
        WebhookSecret::from_url_token(&self.secrets.url_token(SECRET_BYTES))
    }
}
