//! The profiles in memory: the data of one store, which the other repositories in
//! memory are views on, and the profile repository over it.

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;
use time::OffsetDateTime;

use super::{logged, page_of};
use crate::document::Document;
use crate::event::Event;
use crate::ids::{DeliveryId, DocumentId, FileId};
use crate::merchant::{MerchantId, RetentionDays};
use crate::note::Note;
use crate::outbox::Entry;
use crate::paging::{Page, Paged};
use crate::ports::{ProfileRepository, StoreError, StoreResult};
use crate::profile::{Profile, ProfileFilter, ProfileId, ProfileKey};
use crate::quiz::Quiz;
use crate::verification::Verification;
use crate::webhook::{Delivery, Notification};

type Mutation = Box<dyn FnOnce(&mut Profile) + Send>;

/// The data of one store: profiles and everything under them. The other repositories in
/// memory are views on it, as tables of one database are.
#[derive(Default)]
pub struct MemoryProfiles {
    pub(super) profiles: Mutex<Vec<Profile>>,
    pub(super) events: Mutex<Vec<Event>>,
    pub(super) deliveries: Mutex<Vec<Delivery>>,
    /// What each delivery sends, taken from its event when it was owed.
    pub(super) notifications: Mutex<HashMap<DeliveryId, Notification>>,
    /// Each with when its claim lapses.
    pub(super) verifications: Mutex<Vec<(Verification, Option<OffsetDateTime>)>>,
    pub(super) quizzes: Mutex<Vec<Quiz>>,
    pub(super) documents: Mutex<Vec<Document>>,
    pub(super) notes: Mutex<Vec<Note>>,
    interfere: Mutex<Option<Mutation>>,
}

debug_as_name!(MemoryProfiles);

impl MemoryProfiles {
    /// Whether the merchant's profile is there with its personal data (not deleted, not
    /// erased): what the stores kept beside a profile answer for.
    pub(crate) fn holds(&self, merchant: &MerchantId, profile: &ProfileId) -> bool {
        self.profiles
            .lock()
            .expect("lock")
            .iter()
            .any(|p| p.id == *profile && p.merchant_id == *merchant && p.erased_at.is_none())
    }

    /// Simulates another writer: the next update finds the stored profile changed by
    /// `mutation` (and its revision bumped) and fails with `Conflict`.
    pub fn fail_next_update_with_conflict_after(
        &self,
        mutation: impl FnOnce(&mut Profile) + Send + 'static,
    ) {
        *self.interfere.lock().expect("lock") = Some(Box::new(mutation));
    }

    /// Stores an outbox entry: the event in the log, and the deliveries it owes.
    pub(super) fn record(&self, entry: &Entry) {
        self.events.lock().expect("lock").push(logged(entry));
        self.owe(entry);
    }

    fn owe(&self, entry: &Entry) {
        let mut deliveries = self.deliveries.lock().expect("lock");
        deliveries.extend(entry.deliveries.iter().cloned());
        let mut notifications = self.notifications.lock().expect("lock");
        for delivery in &entry.deliveries {
            notifications.insert(delivery.id.clone(), Notification::of(&entry.event));
        }
    }

    /// Stores a document as a client's upload would, without its quiz or event: for tests
    /// of what reads documents.
    pub fn hand_in(&self, document: Document) {
        self.documents.lock().expect("lock").push(document);
    }

    /// The stored document with this id.
    pub fn document(&self, id: &DocumentId) -> Option<Document> {
        let documents = self.documents.lock().expect("lock");
        documents.iter().find(|d| d.id == *id).cloned()
    }

    /// Every delivery the stored entries owed, oldest first.
    pub fn deliveries(&self) -> Vec<Delivery> {
        self.deliveries.lock().expect("lock").clone()
    }

    /// The profile's events, oldest first.
    pub fn events_of(&self, profile: &ProfileId) -> Vec<Event> {
        let events = self.events.lock().expect("lock");
        events
            .iter()
            .filter(|e| e.profile_id.as_ref() == Some(profile))
            .cloned()
            .collect()
    }

    /// Events no profile owns (profile tombstones).
    pub fn orphan_events(&self) -> Vec<Event> {
        let events = self.events.lock().expect("lock");
        events
            .iter()
            .filter(|e| e.profile_id.is_none())
            .cloned()
            .collect()
    }
}

#[async_trait]
impl ProfileRepository for MemoryProfiles {
    async fn insert(&self, profile: &Profile, entry: &Entry) -> StoreResult<()> {
        let mut profiles = self.profiles.lock().expect("lock");
        let taken = profiles.iter().any(|p| {
            p.merchant_id == profile.merchant_id
                && (p.key.email.key() == profile.key.email.key()
                    || p.key.mobile == profile.key.mobile)
        });
        if taken {
            return Err(StoreError::Duplicate);
        }
        profiles.push(profile.clone());
        self.record(entry);
        Ok(())
    }

    async fn update(&self, profile: &Profile, entry: &Entry) -> StoreResult<()> {
        let mut profiles = self.profiles.lock().expect("lock");
        let stored = profiles
            .iter_mut()
            .find(|p| p.id == profile.id)
            .ok_or(StoreError::Missing)?;
        if let Some(mutation) = self.interfere.lock().expect("lock").take() {
            mutation(stored);
            stored.revision += 1;
        }
        if stored.revision != profile.revision - 1 {
            return Err(StoreError::Conflict);
        }
        *stored = profile.clone();
        self.record(entry);
        Ok(())
    }

    async fn find_by_id(
        &self,
        merchant: &MerchantId,
        id: &ProfileId,
    ) -> StoreResult<Option<Profile>> {
        let profiles = self.profiles.lock().expect("lock");
        Ok(profiles
            .iter()
            .find(|p| &p.merchant_id == merchant && &p.id == id)
            .cloned())
    }

    async fn find(&self, merchant: &MerchantId, key: &ProfileKey) -> StoreResult<Option<Profile>> {
        let profiles = self.profiles.lock().expect("lock");
        Ok(profiles
            .iter()
            .find(|p| {
                &p.merchant_id == merchant
                    && p.key.email.key() == key.email.key()
                    && p.key.mobile == key.mobile
            })
            .cloned())
    }

    async fn list(&self, merchant: &MerchantId, page: Page) -> StoreResult<Paged<Profile>> {
        let profiles = self.profiles.lock().expect("lock");
        let mine = profiles
            .iter()
            .filter(|p| &p.merchant_id == merchant)
            .cloned()
            .collect();
        Ok(page_of(mine, page))
    }

    async fn search(
        &self,
        merchant: &MerchantId,
        filter: &ProfileFilter,
        page: Page,
    ) -> StoreResult<Paged<Profile>> {
        let profiles = self.profiles.lock().expect("lock");
        let mine: Vec<Profile> = profiles
            .iter()
            .filter(|p| &p.merchant_id == merchant)
            .cloned()
            .collect();
        let total = mine.len();
        let found = mine.into_iter().filter(|p| filter.matches(p)).collect();
        let mut paged = page_of(found, page);
        paged.total_count = i64::try_from(total).unwrap_or(i64::MAX);
        Ok(paged)
    }

    async fn delete(&self, profile: &Profile, tombstone: &Entry) -> StoreResult<Vec<FileId>> {
        {
            let mut profiles = self.profiles.lock().expect("lock");
            let before = profiles.len();
            profiles.retain(|p| p.id != profile.id);
            if profiles.len() == before {
                return Err(StoreError::Missing);
            }
        }
        let mine = |id: &ProfileId| id == &profile.id;
        let mut documents = self.documents.lock().expect("lock");
        let files = documents
            .iter()
            .filter(|d| mine(&d.profile_id))
            .flat_map(|d| d.files().iter().map(|f| f.file_id.clone()))
            .collect();
        documents.retain(|d| !mine(&d.profile_id));
        self.quizzes
            .lock()
            .expect("lock")
            .retain(|q| !mine(&q.profile_id));
        self.notes
            .lock()
            .expect("lock")
            .retain(|n| !mine(&n.profile_id));
        let mut events = self.events.lock().expect("lock");
        events.retain(|e| e.profile_id.as_ref() != Some(&profile.id));
        events.push(logged(tombstone));
        self.owe(tombstone);
        Ok(files)
    }

    async fn events(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Event>> {
        let events = self.events.lock().expect("lock");
        let mine = events
            .iter()
            .filter(|e| e.profile_id.as_ref() == Some(profile))
            .cloned()
            .collect();
        Ok(page_of(mine, page))
    }

    async fn due_for_erasure(
        &self,
        merchant: &MerchantId,
        retention: RetentionDays,
        now: OffsetDateTime,
        limit: usize,
    ) -> StoreResult<Vec<Profile>> {
        let profiles = self.profiles.lock().expect("lock");
        let mut due: Vec<Profile> = profiles
            .iter()
            .filter(|p| &p.merchant_id == merchant && p.due_for_erasure(retention, now))
            .cloned()
            .collect();
        due.sort_by_key(|p| p.status_changed_at);
        due.truncate(limit);
        Ok(due)
    }

    async fn erase_personal_data(
        &self,
        profile: &Profile,
        entry: &Entry,
    ) -> StoreResult<Vec<FileId>> {
        let mut profiles = self.profiles.lock().expect("lock");
        let stored = profiles
            .iter_mut()
            .find(|p| p.id == profile.id)
            .ok_or(StoreError::Missing)?;
        if stored.revision != profile.revision - 1 {
            return Err(StoreError::Conflict);
        }
        *stored = profile.clone();
        let mut documents = self.documents.lock().expect("lock");
        let files = documents
            .iter_mut()
            .filter(|d| d.profile_id == profile.id)
            .flat_map(Document::erase_personal_data)
            .collect();
        self.record(entry);
        Ok(files)
    }
}
