use std::sync::Arc;

use super::find_profile;
use crate::error::DomainError;
use crate::event::{Activity, Actor};
use crate::merchant::MerchantId;
use crate::note::{Note, NoteText};
use crate::outbox::Outbox;
use crate::paging::{Page, Paged};
use crate::ports::{Clock, IdGenerator, NoteRepository, ProfileRepository};
use crate::profile::ProfileKey;

/// The ports a [`NoteService`] works through.
#[derive(Clone)]
pub struct NotePorts {
    /// Profiles.
    pub profiles: Arc<dyn ProfileRepository>,
    /// Notes.
    pub notes: Arc<dyn NoteRepository>,
    /// The clock.
    pub clock: Arc<dyn Clock>,
    /// Makes ids.
    pub ids: Arc<dyn IdGenerator>,
    /// Makes the events, with their ids, and where they go.
    pub outbox: Outbox,
}

debug_as_name!(NotePorts);

/// A merchant's notes on its profiles.
#[derive(Clone)]
pub struct NoteService {
    profiles: Arc<dyn ProfileRepository>,
    notes: Arc<dyn NoteRepository>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    outbox: Outbox,
}

debug_as_name!(NoteService);

impl NoteService {
    /// The service over its ports.
    pub fn new(ports: NotePorts) -> Self {
        let NotePorts {
            profiles,
            notes,
            clock,
            ids,
            outbox,
        } = ports;
        Self {
            profiles,
            notes,
            clock,
            ids,
            outbox,
        }
    }

    /// Writes a note on the profile and records it.
    pub async fn create(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
        text: NoteText,
        actor: Actor<'_>,
    ) -> Result<Note, DomainError> {
        let profile = find_profile(&*self.profiles, merchant, key).await?;
        let now = self.clock.now();
        let note = Note {
            id: self.ids.next_id().into(),
            merchant_id: merchant.clone(),
            profile_id: profile.id.clone(),
            text,
            created_at: now,
        };
        let entry = self
            .outbox
            .record(
                &profile,
                Activity::NoteCreated,
                actor.sign("The merchant added a note"),
                now,
            )
            .await?;
        self.notes.insert(&note, &entry).await?;
        Ok(note)
    }

    /// Newest first.
    pub async fn list(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
        page: Page,
    ) -> Result<Paged<Note>, DomainError> {
        let profile = find_profile(&*self.profiles, merchant, key).await?;
        Ok(self.notes.list(&profile.id, page).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Event;
    use crate::memory::{
        FixedClock, MemoryNotes, MemoryProfiles, MemorySubscriptions, SequentialIds,
    };
    use crate::outbox::{Entry, Subscription};
    use crate::profile::{
        AttributesPatch, Email, PhoneNumber, Profile, ProfileChanges, ProfileId, ShortText,
    };
    use crate::webhook::EventFilter;
    use futures_executor::block_on;

    fn key(email: &str, mobile: &str) -> ProfileKey {
        ProfileKey {
            email: Email::parse(email).expect("valid"),
            mobile: PhoneNumber::parse(mobile).expect("valid"),
        }
    }

    /// A note service over one stored profile of `m1`, whose merchant has one endpoint
    /// listening to notes only.
    fn service() -> (NoteService, Arc<MemoryProfiles>, ProfileKey) {
        let data = Arc::new(MemoryProfiles::default());
        let clock = Arc::new(FixedClock::default());
        let ids = Arc::new(SequentialIds::default());
        let subscriptions = Arc::new(MemorySubscriptions::default());
        let m1 = MerchantId::new("m1");
        subscriptions.set(
            &m1,
            vec![Subscription {
                webhook_id: "w1".into(),
                events: EventFilter::parse(&["note_created"]).expect("known"),
            }],
        );
        let ada = key("ada@example.com", "4165550101");
        let changes = ProfileChanges {
            first_name: ShortText::parse("Ada").expect("valid"),
            last_name: ShortText::parse("Lovelace").expect("valid"),
            attributes: AttributesPatch::default(),
        };
        let profile = Profile::create(ProfileId::new("p1"), m1, ada.clone(), changes, clock.0)
            .expect("valid");
        let created = Event::about("e0".into(), &profile, Activity::ProfileCreated, "", clock.0);
        block_on(data.insert(
            &profile,
            &Entry {
                event: created,
                deliveries: Vec::new(),
            },
        ))
        .expect("stored");
        let service = NoteService::new(NotePorts {
            profiles: data.clone(),
            notes: Arc::new(MemoryNotes(data.clone())),
            clock,
            ids: ids.clone(),
            outbox: Outbox::new(subscriptions, ids),
        });
        (service, data, ada)
    }

    fn text(t: &str) -> NoteText {
        NoteText::parse(t).expect("valid")
    }

    #[test]
    fn a_note_is_logged_signed_and_owed_to_the_endpoints_that_listen() {
        let (service, data, ada) = service();
        let reviewer = Email::parse("rev@example.com").expect("valid");
        let m1 = MerchantId::new("m1");
        let first =
            block_on(service.create(&m1, &ada, text("first"), Actor::Api)).expect("written");
        block_on(service.create(&m1, &ada, text("second"), Actor::Reviewer(&reviewer)))
            .expect("written");
        let listed = block_on(service.list(&m1, &ada, Page::default())).expect("read");
        let texts: Vec<&str> = listed.items.iter().map(|n| n.text.as_str()).collect();
        assert_eq!(texts, ["second", "first"], "newest first");
        assert_eq!(listed.items[1].id, first.id);
        let events = data.events_of(&ProfileId::new("p1"));
        let notes: Vec<&str> = events
            .iter()
            .filter(|e| e.activity == Activity::NoteCreated)
            .map(|e| e.details.as_str())
            .collect();
        assert_eq!(
            notes,
            [
                "The merchant added a note",
                "The merchant added a note by rev@example.com"
            ]
        );
        let owed = data.deliveries();
        assert_eq!(owed.len(), 2, "the endpoint listens to notes only");
        assert!(owed.iter().all(|d| d.activity == Activity::NoteCreated));
    }

    #[test]
    fn a_note_on_a_profile_the_merchant_does_not_hold_is_refused() {
        let (service, data, ada) = service();
        for (merchant, client) in [
            (MerchantId::new("m2"), ada.clone()),
            (MerchantId::new("m1"), key("bob@example.com", "4165550102")),
        ] {
            let refused = block_on(service.create(&merchant, &client, text("x"), Actor::Api));
            assert!(
                matches!(
                    refused,
                    Err(DomainError::NotFound(crate::error::Resource::Profile))
                ),
                "{refused:?}"
            );
            let listed = block_on(service.list(&merchant, &client, Page::default()));
            assert!(listed.is_err());
        }
        assert!(data.deliveries().is_empty(), "nothing owed for a refusal");
    }
}
