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

/// The ports a [`WebhookService`] works through.
#[derive(Clone)]
pub struct WebhookPorts {
    /// Webhook endpoints and their deliveries.
    pub webhooks: Arc<dyn WebhookRepository>,
    /// The clock.
    pub clock: Arc<dyn Clock>,
    /// Makes ids.
    pub ids: Arc<dyn IdGenerator>,
    /// Makes secrets.
    pub secrets: Arc<dyn SecretGenerator>,
}

debug_as_name!(WebhookPorts);

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
    pub fn new(ports: WebhookPorts, allow_private: bool) -> Self {
        let WebhookPorts {
            webhooks,
            clock,
            ids,
            secrets,
        } = ports;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Activity, Event};
    use crate::memory::{FixedClock, MemoryProfiles, MemoryWebhooks, SequentialIds};
    use crate::outbox::Entry;
    use crate::ports::ProfileRepository;
    use crate::profile::{
        AttributesPatch, Email, PhoneNumber, Profile, ProfileChanges, ProfileId, ProfileKey,
        ShortText,
    };
    use crate::webhook::{Answer, DeliveryStatus, Notification, Outcome};
    use futures_executor::block_on;

    struct Fixture {
        service: WebhookService,
        data: Arc<MemoryProfiles>,
        clock: Arc<FixedClock>,
    }

    fn fixture() -> Fixture {
        let data = Arc::new(MemoryProfiles::default());
        let clock = Arc::new(FixedClock::default());
        let ids = Arc::new(SequentialIds::default());
        let service = WebhookService::new(
            WebhookPorts {
                webhooks: Arc::new(MemoryWebhooks::new(data.clone())),
                clock: clock.clone(),
                ids: ids.clone(),
                secrets: ids,
            },
            false,
        );
        Fixture {
            service,
            data,
            clock,
        }
    }

    fn m(id: &str) -> MerchantId {
        MerchantId::new(id)
    }

    fn at(url: &str) -> WebhookInput {
        WebhookInput {
            url: Some(url.to_owned()),
            ..WebhookInput::default()
        }
    }

    /// Stores a profile whose creation owes one delivery to each of `webhooks`.
    fn owe(f: &Fixture, merchant: &MerchantId, webhooks: &[&Webhook]) -> Vec<DeliveryId> {
        let key = ProfileKey {
            email: Email::parse("ada@example.com").expect("valid"),
            mobile: PhoneNumber::parse("4165550101").expect("valid"),
        };
        let changes = ProfileChanges {
            first_name: ShortText::parse("Ada").expect("valid"),
            last_name: ShortText::parse("Lovelace").expect("valid"),
            attributes: AttributesPatch::default(),
        };
        let profile = Profile::create(
            ProfileId::new("p1"),
            merchant.clone(),
            key,
            changes,
            f.clock.0,
        )
        .expect("valid");
        let event = Event::about(
            "e1".into(),
            &profile,
            Activity::ProfileCreated,
            "",
            f.clock.0,
        );
        let deliveries: Vec<Delivery> = webhooks
            .iter()
            .map(|w| Delivery::owed(format!("d-{}", w.id).into(), &w.id, &event))
            .collect();
        let ids = deliveries.iter().map(|d| d.id.clone()).collect();
        block_on(f.data.insert(&profile, &Entry { event, deliveries })).expect("stored");
        ids
    }

    /// A receiver that answers every attempt with `code`.
    struct Answers(u16);

    #[async_trait::async_trait]
    impl WebhookSender for Answers {
        async fn send(&self, _: &Webhook, _: &Notification, _: time::OffsetDateTime) -> Answer {
            Answer::Status {
                code: self.0,
                retry_after: None,
            }
        }
    }

    #[test]
    fn registering_names_every_bad_field_and_stops_at_the_limit() {
        let f = fixture();
        let refused = block_on(f.service.create(
            &m("m1"),
            WebhookInput {
                url: None,
                events: Some(vec!["no_such_activity".into()]),
                ..WebhookInput::default()
            },
        ));
        let Err(DomainError::Invalid(violations)) = refused else {
            panic!("refused: {refused:?}");
        };
        let fields: Vec<&str> = violations.iter().map(|v| v.field.as_str()).collect();
        assert_eq!(fields, ["url", "events"]);
        let refused = block_on(f.service.create(&m("m1"), at("http://10.0.0.1/hook")));
        assert!(
            matches!(refused, Err(DomainError::Invalid(_))),
            "{refused:?}"
        );
        let made = block_on(
            f.service
                .create(&m("m1"), at("https://hooks.example.com/a")),
        )
        .expect("registered");
        assert!(made.enabled && made.events == EventFilter::default());
        assert!(made.secret.expose().starts_with("whsec_"));
        for _ in 1..MAX_WEBHOOKS {
            block_on(
                f.service
                    .create(&m("m1"), at("https://hooks.example.com/b")),
            )
            .expect("registered");
        }
        let over = block_on(
            f.service
                .create(&m("m1"), at("https://hooks.example.com/c")),
        );
        assert!(
            matches!(over, Err(DomainError::WebhookLimitReached)),
            "{over:?}"
        );
        block_on(
            f.service
                .create(&m("m2"), at("https://hooks.example.com/c")),
        )
        .expect("another merchant's limit is its own");
    }

    #[test]
    fn another_merchants_endpoint_is_not_found() {
        let f = fixture();
        let theirs = block_on(
            f.service
                .create(&m("m1"), at("https://hooks.example.com/a")),
        )
        .expect("registered");
        let me = m("m2");
        let not_found = |r: Result<(), DomainError>| {
            assert!(
                matches!(r, Err(DomainError::NotFound(Resource::Webhook))),
                "{r:?}"
            );
        };
        not_found(block_on(f.service.get(&me, &theirs.id)).map(drop));
        not_found(block_on(f.service.update(&me, &theirs.id, WebhookInput::default())).map(drop));
        not_found(block_on(f.service.rotate_secret(&me, &theirs.id)).map(drop));
        not_found(block_on(f.service.deliveries(&me, &theirs.id, Page::default())).map(drop));
        not_found(block_on(f.service.delete(&me, &theirs.id)).map(drop));
        assert!(
            block_on(f.service.get(&m("m1"), &theirs.id)).is_ok(),
            "still there"
        );
    }

    #[test]
    fn a_rotated_secret_keeps_signing_for_the_overlap() {
        let f = fixture();
        let made = block_on(
            f.service
                .create(&m("m1"), at("https://hooks.example.com/a")),
        )
        .expect("registered");
        let rotated = block_on(f.service.rotate_secret(&m("m1"), &made.id)).expect("rotated");
        assert_ne!(rotated.secret.expose(), made.secret.expose());
        let previous = rotated
            .previous_secret
            .as_ref()
            .expect("the old one retires");
        assert_eq!(previous.secret.expose(), made.secret.expose());
        assert_eq!(previous.until, f.clock.0 + ROTATION_OVERLAP);
        let stored = block_on(f.service.get(&m("m1"), &made.id)).expect("found");
        assert_eq!(stored.signing_secrets(f.clock.0).len(), 2);
        assert_eq!(stored.signing_secrets(previous.until).len(), 1);
    }

    #[test]
    fn an_attempt_records_its_answer_and_a_410_turns_the_endpoint_off() {
        let f = fixture();
        let merchant = m("m1");
        let ok = block_on(
            f.service
                .create(&merchant, at("https://hooks.example.com/ok")),
        )
        .expect("registered");
        let gone = block_on(
            f.service
                .create(&merchant, at("https://hooks.example.com/gone")),
        )
        .expect("registered");
        let owed = owe(&f, &merchant, &[&ok, &gone]);
        let due = block_on(f.service.claim_due(10)).expect("claimed");
        assert_eq!(due.len(), 2);
        for claimed in due {
            let answer = if claimed.webhook.id == ok.id {
                204
            } else {
                410
            };
            let outcome = block_on(f.service.attempt(&Answers(answer), claimed)).expect("tried");
            let expected = if answer == 204 {
                Outcome::Succeeded
            } else {
                Outcome::EndpointGone
            };
            assert_eq!(outcome, expected);
        }
        let delivered =
            block_on(f.service.deliveries(&merchant, &ok.id, Page::default())).expect("read");
        assert_eq!(delivered.items[0].status, DeliveryStatus::Succeeded);
        assert_eq!(delivered.items[0].last_status_code, Some(204));
        let off = block_on(f.service.get(&merchant, &gone.id)).expect("kept");
        assert!(!off.enabled, "a 410 turns the endpoint off");
        // The merchant may try a failed delivery again once the endpoint is back.
        let retried = block_on(f.service.retry(&merchant, &owed[1])).expect("retried");
        assert_eq!(retried.status, DeliveryStatus::Pending);
        assert!(
            block_on(f.service.claim_due(10))
                .expect("claimed")
                .is_empty()
        );
        block_on(f.service.update(
            &merchant,
            &gone.id,
            WebhookInput {
                enabled: Some(true),
                ..WebhookInput::default()
            },
        ))
        .expect("enabled");
        let again = block_on(f.service.claim_due(10)).expect("claimed");
        assert_eq!(
            again.iter().map(|d| &d.delivery.id).collect::<Vec<_>>(),
            [&owed[1]]
        );
        let missing = block_on(f.service.retry(&m("m2"), &owed[1]));
        assert!(
            matches!(missing, Err(DomainError::NotFound(Resource::Delivery))),
            "{missing:?}"
        );
    }
}
