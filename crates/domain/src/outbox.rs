//! The outbox (contract §9): every event of the log, with the webhook deliveries it owes,
//! stored in the transaction of the change it records, so an acknowledged change always
//! reaches the merchant's endpoints, across crashes. Which endpoints an event owes a
//! delivery is decided here, by [`Subscription::wants`]; storage only persists an
//! [`Entry`] whole.
//!
//! The outbox also makes the events of the log ([`Outbox::record`], [`Outbox::event`]):
//! each with the next id, at the time the service read for the change it records.

use std::sync::Arc;

use time::OffsetDateTime;

use crate::error::DomainError;
use crate::event::{Activity, Event};
use crate::ids::WebhookId;
use crate::merchant::MerchantId;
use crate::ports::{IdGenerator, Subscriptions};
use crate::profile::Profile;
use crate::quiz::{Quiz, QuizLinks};
use crate::webhook::{Delivery, EventFilter};

/// What an enabled endpoint listens to: all the outbox needs to know of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    /// The endpoint.
    pub webhook_id: WebhookId,
    /// The activities it receives.
    pub events: EventFilter,
}

impl Subscription {
    /// Whether an event of this activity is owed to the endpoint.
    pub fn wants(&self, activity: Activity) -> bool {
        self.events.matches(activity)
    }
}

/// An event and the deliveries it owes: one value, stored in one transaction with the
/// change it records. A delivery whose endpoint was deleted or disabled meanwhile is
/// dropped by storage, never the event.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The event.
    pub event: Event,
    /// One per endpoint that wanted it when the change was made.
    pub deliveries: Vec<Delivery>,
}

/// Makes the events of the log and turns them into entries of the outbox.
#[derive(Clone)]
pub struct Outbox {
    subscriptions: Arc<dyn Subscriptions>,
    ids: Arc<dyn IdGenerator>,
}

debug_as_name!(Outbox);

impl Outbox {
    /// The outbox over the merchants' subscriptions, with event and delivery ids from
    /// `ids`.
    pub fn new(subscriptions: Arc<dyn Subscriptions>, ids: Arc<dyn IdGenerator>) -> Self {
        Self { subscriptions, ids }
    }

    /// The entry of a new event about `profile` ([`Outbox::event`]): what a change that
    /// records one event stores with it.
    pub async fn record(
        &self,
        profile: &Profile,
        activity: Activity,
        details: impl Into<String>,
        now: OffsetDateTime,
    ) -> Result<Entry, DomainError> {
        let event = self.event(profile, activity, details, now);
        self.entry(event).await
    }

    /// The entry of a new event about `profile` and its `quiz` ([`Outbox::quiz_event`]).
    pub async fn record_about_quiz(
        &self,
        profile: &Profile,
        quiz: &Quiz,
        links: QuizLinks,
        activity: Activity,
        details: impl Into<String>,
        now: OffsetDateTime,
    ) -> Result<Entry, DomainError> {
        let event = self.quiz_event(profile, quiz, links, activity, details, now);
        self.entry(event).await
    }

    /// A new event about `profile`, with the next id, made at `now` (the time of the
    /// change it records, read once for both). Only made: a change that records several
    /// events, or amends one, hands them to [`Outbox::entries`] or [`Outbox::entry`].
    pub fn event(
        &self,
        profile: &Profile,
        activity: Activity,
        details: impl Into<String>,
        now: OffsetDateTime,
    ) -> Event {
        Event::about(self.ids.next_id().into(), profile, activity, details, now)
    }

    /// A new event about `profile` and its `quiz` at `links` ([`Event::about_quiz`]), with
    /// the next id, made at `now`.
    pub fn quiz_event(
        &self,
        profile: &Profile,
        quiz: &Quiz,
        links: QuizLinks,
        activity: Activity,
        details: impl Into<String>,
        now: OffsetDateTime,
    ) -> Event {
        Event::about_quiz(
            self.ids.next_id().into(),
            profile,
            activity,
            details,
            &quiz.template.name,
            links,
            now,
        )
    }

    /// `event` with a delivery to each of its merchant's enabled endpoints that wants it.
    pub async fn entry(&self, event: Event) -> Result<Entry, DomainError> {
        Ok(self.entries(vec![event]).await?.remove(0))
    }

    /// Entries of several events of one change (one merchant's): its endpoints are read
    /// once.
    pub async fn entries(&self, events: Vec<Event>) -> Result<Vec<Entry>, DomainError> {
        let Some(merchant) = events.first().map(|e| e.merchant_id.clone()) else {
            return Ok(Vec::new());
        };
        let subscriptions = self.subscriptions.subscriptions(&merchant).await?;
        Ok(events
            .into_iter()
            .map(|event| self.owed(&merchant, &subscriptions, event))
            .collect())
    }

    fn owed(&self, merchant: &MerchantId, subscriptions: &[Subscription], event: Event) -> Entry {
        debug_assert_eq!(&event.merchant_id, merchant, "one merchant's change");
        let deliveries = subscriptions
            .iter()
            .filter(|s| s.wants(event.activity))
            .map(|s| Delivery::owed(self.ids.next_id().into(), &s.webhook_id, &event))
            .collect();
        Entry { event, deliveries }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Activity;
    use crate::memory::{MemorySubscriptions, SequentialIds};
    use crate::webhook::DeliveryStatus;
    use futures_executor::block_on;
    use time::OffsetDateTime;

    fn event(merchant: &str, activity: Activity) -> Event {
        Event {
            id: "e1".into(),
            merchant_id: MerchantId::new(merchant),
            profile_id: Some(crate::profile::ProfileId::new("p1")),
            activity,
            details: String::new(),
            template_used: String::new(),
            url: String::new(),
            status: crate::event::EventStatus::Profile(crate::profile::ProfileStatus::Pending),
            created_at: OffsetDateTime::UNIX_EPOCH,
            subject: None,
        }
    }

    #[test]
    fn an_event_owes_one_pending_delivery_to_each_endpoint_that_wants_it() {
        let subscriptions = Arc::new(MemorySubscriptions::default());
        let all = Subscription {
            webhook_id: "w-all".into(),
            events: EventFilter::default(),
        };
        let notes_only = Subscription {
            webhook_id: "w-notes".into(),
            events: EventFilter::parse(&["note_created"]).expect("known"),
        };
        subscriptions.set(&MerchantId::new("m1"), vec![all, notes_only]);
        subscriptions.set(
            &MerchantId::new("m2"),
            vec![Subscription {
                webhook_id: "w-other".into(),
                events: EventFilter::default(),
            }],
        );
        let outbox = Outbox::new(subscriptions, Arc::new(SequentialIds::default()));

        let created = block_on(outbox.entry(event("m1", Activity::ProfileCreated))).expect("ok");
        let owed: Vec<&str> = created
            .deliveries
            .iter()
            .map(|d| d.webhook_id.as_str())
            .collect();
        assert_eq!(owed, ["w-all"], "another merchant's endpoint is never owed");
        let d = &created.deliveries[0];
        assert_eq!(d.status, DeliveryStatus::Pending);
        assert_eq!(d.event_id, created.event.id);
        assert_eq!(d.next_attempt_at, Some(created.event.created_at));

        let noted = block_on(outbox.entries(vec![
            event("m1", Activity::NoteCreated),
            event("m1", Activity::NoteCreated),
        ]))
        .expect("ok");
        let ids: Vec<String> = noted
            .iter()
            .flat_map(|e| e.deliveries.iter().map(|d| d.id.to_string()))
            .collect();
        assert_eq!(ids.len(), 4, "both endpoints, for each event");
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 4, "every delivery has its own id: {ids:?}");

        let none = block_on(outbox.entry(event("m3", Activity::ProfileCreated))).expect("ok");
        assert!(none.deliveries.is_empty());
    }

    #[test]
    fn a_recorded_event_takes_the_next_id_before_its_deliveries_at_the_changes_time() {
        use crate::profile::{
            AttributesPatch, Email, PhoneNumber, ProfileChanges, ProfileId, ProfileKey, ShortText,
        };
        let subscriptions = Arc::new(MemorySubscriptions::default());
        subscriptions.set(
            &MerchantId::new("m1"),
            vec![Subscription {
                webhook_id: "w1".into(),
                events: EventFilter::default(),
            }],
        );
        let outbox = Outbox::new(subscriptions, Arc::new(SequentialIds::default()));
        let at = OffsetDateTime::UNIX_EPOCH + time::Duration::days(1);
        let profile = Profile::create(
            ProfileId::new("p1"),
            MerchantId::new("m1"),
            ProfileKey {
                email: Email::parse("ada@example.com").expect("valid"),
                mobile: PhoneNumber::parse("4165550101").expect("valid"),
            },
            ProfileChanges {
                first_name: ShortText::parse("Ada").expect("valid"),
                last_name: ShortText::parse("Lovelace").expect("valid"),
                attributes: AttributesPatch::default(),
            },
            at,
        )
        .expect("valid");

        let entry =
            block_on(outbox.record(&profile, Activity::NoteCreated, "noted", at)).expect("ok");
        assert_eq!(entry.event.id.to_string(), "id-0000000001");
        assert_eq!(entry.event.activity, Activity::NoteCreated);
        assert_eq!(entry.event.details, "noted");
        assert_eq!(
            entry.event.created_at, at,
            "the change's time, not a new reading"
        );
        let deliveries: Vec<String> = entry.deliveries.iter().map(|d| d.id.to_string()).collect();
        assert_eq!(deliveries, ["id-0000000002"]);

        let made = outbox.event(&profile, Activity::ProfileUpdated, "", at);
        assert_eq!(
            made.id.to_string(),
            "id-0000000003",
            "made, not stored: no delivery id"
        );
        assert_eq!(
            Event {
                id: "x".into(),
                ..made
            },
            Event {
                id: "x".into(),
                ..Event::about("y".into(), &profile, Activity::ProfileUpdated, "", at)
            },
            "the same event as Event::about, with the outbox's id"
        );
    }
}
