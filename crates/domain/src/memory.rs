//! In-memory implementations of the ports: the domain's unit tests run on them, and so
//! can another tool's. They pass the same port contract suite (`contract/`) as the
//! SQLite and PostgreSQL adapters, so they behave as those do: a write changes only what
//! the real adapters change, completed steps and submitted fields merge, a profile's
//! deletion takes everything under it.

mod screening;
mod signals;

pub use screening::MemoryScreening;
pub use signals::MemorySignals;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use time::OffsetDateTime;
use time::macros::datetime;

use crate::audit::{AuditEntry, AuditKind};
use crate::document::Document;
use crate::event::Event;
use crate::ids::{DeliveryId, DocumentId, FileId, QuizId, UserId, WebhookId};
use crate::merchant::{ApiKey, ApiKeyId, Merchant, MerchantId, MerchantSettings, RetentionDays};
use crate::note::Note;
use crate::outbox::{Entry, Outbox, Subscription};
use crate::paging::{Page, Paged};
use crate::ports::{
    AuditLog, IdentityIndex, ImageAnalysis, ImageRoom, SessionRepository, Subscriptions,
    UserRepository, VerificationRepository, WebhookRepository,
};
use crate::ports::{
    Clock, IdGenerator, MerchantRepository, OneTimeCodes, PasswordHasher, ProfileRepository, Quota,
    RateLimiter, SecretGenerator, StoreError, StoreResult,
};
use crate::ports::{
    DocumentRepository, NoteRepository, ProfileWrite, QuizRepository, TemplateRepository,
};
use crate::profile::Email;
use crate::profile::{Profile, ProfileFilter, ProfileId, ProfileKey, SubmittedFormFields};
use crate::quiz::{Quiz, QuizLink, QuizUsage, QuizWithClient, UploadLimits};
use crate::session::{Session, SessionToken};
use crate::template::{Feature, Template};
use crate::user::{Password, PasswordHash, TotpSecret, User};
use crate::verification::{
    BarcodeReading, DocumentRead, FaceDescriptor, IdentityKind, ImageReport, MrzReading,
    TextReading, Verification, VerificationStatus, Wanted,
};
use crate::webhook::{Delivery, DeliveryStatus, DueDelivery, Notification, Webhook};

/// An event as the log keeps it: without its subject, which only deliveries take.
fn logged(entry: &Entry) -> Event {
    Event {
        subject: None,
        ..entry.event.clone()
    }
}

/// A clock that always says the same time.
#[derive(Debug)]
pub struct FixedClock(pub OffsetDateTime);

impl Default for FixedClock {
    fn default() -> Self {
        Self(datetime!(2026-11-22 10:00 UTC))
    }
}

impl Clock for FixedClock {
    fn now(&self) -> OffsetDateTime {
        self.0
    }
}

/// A hasher whose hash is the password itself: the rules, not Argon2, are what tests on
/// it check.
#[derive(Debug, Default)]
pub struct PlainHasher;

#[async_trait]
impl PasswordHasher for PlainHasher {
    async fn hash(&self, password: &Password) -> StoreResult<PasswordHash> {
        Ok(PasswordHash::new(password.expose()))
    }
    async fn verify(&self, password: &Password, hash: &PasswordHash) -> StoreResult<bool> {
        Ok(password.expose() == hash.as_str())
    }
}

/// One-time codes that are the secret's text reversed, whatever the time (of the 30 s
/// step `now` is in); every new secret is `654321`.
#[derive(Debug, Default)]
pub struct ReversedCodes;

impl OneTimeCodes for ReversedCodes {
    fn new_secret(&self) -> TotpSecret {
        TotpSecret::new("654321")
    }
    fn verify(&self, secret: &TotpSecret, code: &str, now: OffsetDateTime) -> Option<u64> {
        let reversed: String = secret.expose().chars().rev().collect();
        (code == reversed)
            .then(|| u64::try_from(now.unix_timestamp() / 30).ok())
            .flatten()
    }
    fn uri(&self, _: &TotpSecret, account: &str) -> String {
        format!("otpauth://totp/{account}")
    }
}

/// Rate limits in memory: the generic cell rate algorithm on `clock`, one theoretical
/// arrival time per key. On a clock that stands still no budget ever refills.
pub struct MemoryLimiter {
    quota: Quota,
    clock: Arc<dyn Clock>,
    next: Mutex<HashMap<String, OffsetDateTime>>,
}

impl std::fmt::Debug for MemoryLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryLimiter")
            .field("quota", &self.quota)
            .finish()
    }
}

impl MemoryLimiter {
    /// A limiter of `quota` on `clock`.
    pub fn new(quota: Quota, clock: Arc<dyn Clock>) -> Self {
        Self {
            quota,
            clock,
            next: Mutex::default(),
        }
    }
}

#[async_trait]
impl RateLimiter for MemoryLimiter {
    async fn check(&self, key: &str) -> Result<(), std::time::Duration> {
        let now = self.clock.now();
        let interval = time::Duration::try_from(self.quota.interval).unwrap_or(time::Duration::MAX);
        let mut next = self.next.lock().expect("lock");
        let arrival = next.get(key).copied().unwrap_or(now).max(now);
        let allowed_at = arrival - interval * self.quota.burst.saturating_sub(1);
        if allowed_at > now {
            return Err((allowed_at - now).try_into().unwrap_or_default());
        }
        next.insert(key.to_owned(), arrival + interval);
        Ok(())
    }
}

/// Ids `id-0000000001`, `id-0000000002`...: increasing, like ULIDs.
#[derive(Debug, Default)]
pub struct SequentialIds(AtomicU64);

impl IdGenerator for SequentialIds {
    fn next_id(&self) -> String {
        format!("id-{:010}", self.0.fetch_add(1, Ordering::SeqCst) + 1)
    }
}

impl SecretGenerator for SequentialIds {
    fn base62(&self, len: usize) -> String {
        format!("{:0len$}", self.0.fetch_add(1, Ordering::SeqCst) + 1)
    }

    fn url_token(&self, bytes: usize) -> String {
        format!("tok{:0bytes$}", self.0.fetch_add(1, Ordering::SeqCst) + 1)
    }
}

fn page_of<T: Clone>(mut items: Vec<T>, page: Page) -> Paged<T> {
    let total = items.len() as i64;
    items.reverse();
    let items = items
        .into_iter()
        .skip(page.offset() as usize)
        .take(page.limit() as usize)
        .collect();
    Paged {
        items,
        total_count: total,
        filtered: total,
    }
}

type Mutation = Box<dyn FnOnce(&mut Profile) + Send>;

/// The data of one store: profiles and everything under them. The repositories below
/// are views on it, as tables of one database are.
#[derive(Default)]
pub struct MemoryProfiles {
    profiles: Mutex<Vec<Profile>>,
    events: Mutex<Vec<Event>>,
    deliveries: Mutex<Vec<Delivery>>,
    /// What each delivery sends, taken from its event when it was owed.
    notifications: Mutex<HashMap<DeliveryId, Notification>>,
    /// Each with when its claim lapses.
    verifications: Mutex<Vec<(Verification, Option<OffsetDateTime>)>>,
    quizzes: Mutex<Vec<Quiz>>,
    documents: Mutex<Vec<Document>>,
    notes: Mutex<Vec<Note>>,
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
    fn record(&self, entry: &Entry) {
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

/// Merchants and their keys, in memory.
#[derive(Debug, Default)]
pub struct MemoryMerchants {
    merchants: Mutex<Vec<Merchant>>,
    keys: Mutex<Vec<ApiKey>>,
}

impl MemoryMerchants {
    /// Adds a merchant without a key.
    pub fn insert(&self, merchant: Merchant) {
        self.merchants.lock().expect("lock").push(merchant);
    }
}

#[async_trait]
impl MerchantRepository for MemoryMerchants {
    async fn create(&self, merchant: &Merchant, first_key: &ApiKey) -> StoreResult<()> {
        self.merchants.lock().expect("lock").push(merchant.clone());
        self.keys.lock().expect("lock").push(first_key.clone());
        Ok(())
    }

    async fn list(&self) -> StoreResult<Vec<Merchant>> {
        Ok(self.merchants.lock().expect("lock").clone())
    }

    async fn find(&self, id: &MerchantId) -> StoreResult<Option<Merchant>> {
        let merchants = self.merchants.lock().expect("lock");
        Ok(merchants.iter().find(|m| &m.id == id).cloned())
    }

    async fn add_key(&self, key: &ApiKey, max_enabled: usize) -> StoreResult<()> {
        if self.find(&key.merchant_id).await?.is_none() {
            return Err(StoreError::Missing);
        }
        let mut keys = self.keys.lock().expect("lock");
        let enabled = keys
            .iter()
            .filter(|k| k.merchant_id == key.merchant_id && k.enabled)
            .count();
        if enabled >= max_enabled {
            return Err(StoreError::LimitReached);
        }
        keys.push(key.clone());
        Ok(())
    }

    async fn set_key_enabled(&self, key: &ApiKeyId, enabled: bool) -> StoreResult<()> {
        let mut keys = self.keys.lock().expect("lock");
        let stored = keys
            .iter_mut()
            .find(|k| &k.key == key)
            .ok_or(StoreError::Missing)?;
        stored.enabled = enabled;
        Ok(())
    }

    async fn set_key_networks(
        &self,
        key: &ApiKeyId,
        networks: &[crate::merchant::IpNet],
    ) -> StoreResult<()> {
        let mut keys = self.keys.lock().expect("lock");
        let stored = keys
            .iter_mut()
            .find(|k| &k.key == key)
            .ok_or(StoreError::Missing)?;
        stored.allowed_networks = networks.to_vec();
        Ok(())
    }

    async fn find_key(&self, key: &ApiKeyId) -> StoreResult<Option<ApiKey>> {
        Ok(self
            .keys
            .lock()
            .expect("lock")
            .iter()
            .find(|k| &k.key == key)
            .cloned())
    }

    async fn keys(&self, merchant: &MerchantId) -> StoreResult<Vec<ApiKey>> {
        let keys = self.keys.lock().expect("lock");
        Ok(keys
            .iter()
            .filter(|k| &k.merchant_id == merchant)
            .cloned()
            .collect())
    }

    async fn save_settings(&self, id: &MerchantId, settings: &MerchantSettings) -> StoreResult<()> {
        let mut merchants = self.merchants.lock().expect("lock");
        let stored = merchants
            .iter_mut()
            .find(|m| &m.id == id)
            .ok_or(StoreError::Missing)?;
        stored.settings = settings.clone();
        Ok(())
    }
}

/// Stored templates, in memory.
#[derive(Debug, Default)]
pub struct MemoryTemplates(Mutex<Vec<Template>>);

#[async_trait]
impl TemplateRepository for MemoryTemplates {
    async fn insert(&self, template: &Template) -> StoreResult<()> {
        self.0.lock().expect("lock").push(template.clone());
        Ok(())
    }

    async fn update(&self, template: &Template) -> StoreResult<()> {
        let mut all = self.0.lock().expect("lock");
        let stored = all
            .iter_mut()
            .find(|t| t.id == template.id)
            .ok_or(StoreError::Missing)?;
        *stored = template.clone();
        Ok(())
    }

    async fn find(
        &self,
        merchant: &MerchantId,
        id: &crate::ids::TemplateId,
    ) -> StoreResult<Option<Template>> {
        let all = self.0.lock().expect("lock");
        Ok(all
            .iter()
            .find(|t| &t.merchant_id == merchant && &t.id == id)
            .cloned())
    }

    async fn list(&self, merchant: &MerchantId, page: Page) -> StoreResult<Paged<Template>> {
        let all = self.0.lock().expect("lock");
        Ok(page_of(
            all.iter()
                .filter(|t| &t.merchant_id == merchant)
                .cloned()
                .collect(),
            page,
        ))
    }
}

/// Quizzes over the profile fake, so that quiz creation writes profiles where the
/// profile service reads them.
#[derive(Debug)]
pub struct MemoryQuizzes {
    profiles: Arc<MemoryProfiles>,
    /// What each quiz's link has added, replaced documents included.
    added: Mutex<HashMap<QuizId, QuizUsage>>,
    /// When set, storing a document fails as a lost database would.
    pub refuse_documents: std::sync::atomic::AtomicBool,
}

impl MemoryQuizzes {
    /// Quizzes over `profiles`' data.
    pub fn new(profiles: Arc<MemoryProfiles>) -> Self {
        Self {
            profiles,
            added: Mutex::default(),
            refuse_documents: std::sync::atomic::AtomicBool::new(false),
        }
    }

    fn with_client(&self, quiz: &Quiz) -> Option<QuizWithClient> {
        let profiles = self.profiles.profiles.lock().expect("lock");
        let client = profiles.iter().find(|p| p.id == quiz.profile_id)?.clone();
        Some(QuizWithClient {
            quiz: quiz.clone(),
            client,
        })
    }
}

#[async_trait]
impl QuizRepository for MemoryQuizzes {
    async fn create(
        &self,
        profile: &ProfileWrite,
        quiz: &Quiz,
        entries: &[Entry],
    ) -> StoreResult<()> {
        let (first, rest) = entries
            .split_first()
            .ok_or(StoreError::Internal("no event".into()))?;
        match profile {
            ProfileWrite::Insert(p) => self.profiles.insert(p, first).await?,
            ProfileWrite::Update(p) => self.profiles.update(p, first).await?,
        }
        for entry in rest {
            self.profiles.record(entry);
        }
        self.profiles
            .quizzes
            .lock()
            .expect("lock")
            .push(quiz.clone());
        Ok(())
    }

    async fn find(
        &self,
        merchant: &MerchantId,
        link: &QuizLink,
    ) -> StoreResult<Option<QuizWithClient>> {
        let quiz = {
            let quizzes = self.profiles.quizzes.lock().expect("lock");
            quizzes
                .iter()
                .find(|q| {
                    &q.merchant_id == merchant
                        && q.deleted_at.is_none()
                        && match link {
                            QuizLink::Token(t) => &q.token == t,
                            QuizLink::Code(c) => &q.code == c,
                        }
                })
                .cloned()
        };
        Ok(quiz.and_then(|q| self.with_client(&q)))
    }

    async fn find_by_id(
        &self,
        merchant: &MerchantId,
        id: &QuizId,
    ) -> StoreResult<Option<QuizWithClient>> {
        let quiz = {
            let quizzes = self.profiles.quizzes.lock().expect("lock");
            quizzes
                .iter()
                .find(|q| &q.merchant_id == merchant && q.deleted_at.is_none() && &q.id == id)
                .cloned()
        };
        Ok(quiz.and_then(|q| self.with_client(&q)))
    }

    async fn list(&self, merchant: &MerchantId, page: Page) -> StoreResult<Paged<QuizWithClient>> {
        let quizzes = self.profiles.quizzes.lock().expect("lock").clone();
        let mine = quizzes
            .iter()
            .filter(|q| &q.merchant_id == merchant && q.deleted_at.is_none())
            .filter_map(|q| self.with_client(q))
            .collect();
        Ok(page_of(mine, page))
    }

    async fn list_of_profile(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Quiz>> {
        let quizzes = self.profiles.quizzes.lock().expect("lock");
        let theirs = quizzes
            .iter()
            .filter(|q| &q.profile_id == profile && q.deleted_at.is_none())
            .cloned()
            .collect();
        Ok(page_of(theirs, page))
    }

    async fn mark_expired(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()> {
        self.change(quiz, entry, StoreError::Conflict, |stored| {
            let first = stored.expired_at.is_none();
            first.then(|| stored.expired_at = quiz.expired_at).is_some()
        })
    }

    async fn mark_extended(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()> {
        self.change(quiz, entry, StoreError::Conflict, |stored| {
            let open = stored.submitted_at.is_none();
            if open {
                stored.expiry_days = quiz.expiry_days;
                stored.expires_at = quiz.expires_at;
                stored.expired_at = None;
            }
            open
        })
    }

    async fn mark_deleted(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()> {
        self.change(quiz, entry, StoreError::Missing, |stored| {
            stored.deleted_at = quiz.deleted_at;
            true
        })
    }

    async fn find_live(&self, link: &QuizLink) -> StoreResult<Option<QuizWithClient>> {
        let merchant = {
            let quizzes = self.profiles.quizzes.lock().expect("lock");
            quizzes
                .iter()
                .find(|q| match link {
                    QuizLink::Token(t) => &q.token == t,
                    QuizLink::Code(c) => &q.code == c,
                })
                .map(|q| q.merchant_id.clone())
        };
        match merchant {
            Some(m) => self.find(&m, link).await,
            None => Ok(None),
        }
    }

    async fn mark_opened(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()> {
        self.change(quiz, entry, StoreError::Conflict, |stored| {
            let first = stored.opened_at.is_none();
            first.then(|| stored.opened_at = quiz.opened_at).is_some()
        })
    }

    async fn save_fields(
        &self,
        quiz: &Quiz,
        profile: &ProfileId,
        sent: &SubmittedFormFields,
        entry: &Entry,
    ) -> StoreResult<()> {
        self.change(quiz, entry, StoreError::Conflict, |stored| {
            stored.submitted_at.is_none() && add_steps(stored, quiz)
        })?;
        {
            let mut profiles = self.profiles.profiles.lock().expect("lock");
            let stored = profiles
                .iter_mut()
                .find(|p| &p.id == profile)
                .ok_or(StoreError::Missing)?;
            let submitted = stored.submitted.get_or_insert(SubmittedFormFields {
                created_at: sent.created_at,
                ..SubmittedFormFields::default()
            });
            merge(&mut submitted.address, &sent.address);
            merge(&mut submitted.mobile_number, &sent.mobile_number);
            merge(&mut submitted.email_address, &sent.email_address);
            merge(&mut submitted.date_of_birth, &sent.date_of_birth);
            merge(&mut submitted.ssn, &sent.ssn);
            submitted.updated_at = sent.updated_at;
        }
        Ok(())
    }

    async fn usage(&self, quiz: &Quiz) -> StoreResult<QuizUsage> {
        Ok(self.added(quiz))
    }

    async fn add_document(
        &self,
        quiz: &Quiz,
        document: &Document,
        entry: &Entry,
        limits: UploadLimits,
    ) -> StoreResult<Vec<FileId>> {
        if self.refuse_documents.load(Ordering::SeqCst) {
            return Err(StoreError::Unavailable("database gone".into()));
        }
        let bytes = document.files().iter().map(|f| f.size_bytes).sum();
        if !limits.admits(self.added(quiz), bytes) {
            return Err(StoreError::LimitReached);
        }
        self.change(quiz, entry, StoreError::Conflict, |stored| {
            stored.submitted_at.is_none() && add_steps(stored, quiz)
        })?;
        let mut added = self.added.lock().expect("lock");
        let usage = added.entry(quiz.id.clone()).or_default();
        usage.documents += 1;
        usage.bytes += bytes;
        drop(added);
        let mut documents = self.profiles.documents.lock().expect("lock");
        let (replaced, kept) = std::mem::take(&mut *documents)
            .into_iter()
            .partition::<Vec<_>, _>(|d| document.replaces(d));
        *documents = kept;
        documents.push(document.clone());
        Ok(replaced
            .iter()
            .flat_map(|d| d.files().iter().map(|f| f.file_id.clone()))
            .collect())
    }

    async fn mark_submitted(
        &self,
        quiz: &Quiz,
        entry: &Entry,
        verification: &Verification,
    ) -> StoreResult<()> {
        self.change(quiz, entry, StoreError::Conflict, |stored| {
            let first = stored.submitted_at.is_none();
            first
                .then(|| stored.submitted_at = quiz.submitted_at)
                .is_some()
        })?;
        let mut verifications = self.profiles.verifications.lock().expect("lock");
        verifications.push((verification.clone(), None));
        Ok(())
    }
}

/// A field sent replaces the stored one; a field not sent leaves it.
fn merge<T: Clone>(slot: &mut Option<T>, value: &Option<T>) {
    if value.is_some() {
        slot.clone_from(value);
    }
}

/// Adds the steps `quiz` completed to those stored (another writer's stay).
fn add_steps(stored: &mut Quiz, quiz: &Quiz) -> bool {
    for &step in Feature::ALL {
        if quiz.completed.contains(step) {
            stored.completed.insert(step);
        }
    }
    true
}

impl MemoryQuizzes {
    /// Applies `apply` to the stored quiz (not deleted) and records `event`, as one write;
    /// `refusal` when `apply` declines, `Missing` when the quiz is gone.
    /// The quiz's documents and their bytes, leaving out those `left_out` names.
    fn added(&self, quiz: &Quiz) -> QuizUsage {
        let added = self.added.lock().expect("lock");
        added.get(&quiz.id).copied().unwrap_or_default()
    }

    fn change(
        &self,
        quiz: &Quiz,
        entry: &Entry,
        refusal: StoreError,
        apply: impl FnOnce(&mut Quiz) -> bool,
    ) -> StoreResult<()> {
        let mut quizzes = self.profiles.quizzes.lock().expect("lock");
        let stored = quizzes
            .iter_mut()
            .find(|q| q.id == quiz.id && q.deleted_at.is_none())
            .ok_or(StoreError::Missing)?;
        if !apply(stored) {
            return Err(refusal);
        }
        self.profiles.record(entry);
        Ok(())
    }
}

/// Documents, over the same data as the quizzes that make them.
#[derive(Debug)]
pub struct MemoryDocuments(pub Arc<MemoryProfiles>);

#[async_trait]
impl DocumentRepository for MemoryDocuments {
    async fn find(&self, profile: &ProfileId, id: &DocumentId) -> StoreResult<Option<Document>> {
        let documents = self.0.documents.lock().expect("lock");
        Ok(documents
            .iter()
            .find(|d| &d.profile_id == profile && &d.id == id)
            .cloned())
    }

    async fn find_of_merchant(
        &self,
        merchant: &MerchantId,
        id: &DocumentId,
    ) -> StoreResult<Option<Document>> {
        let documents = self.0.documents.lock().expect("lock");
        Ok(documents
            .iter()
            .find(|d| &d.merchant_id == merchant && &d.id == id)
            .cloned())
    }

    async fn list(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Document>> {
        let documents = self.0.documents.lock().expect("lock");
        let mine = documents
            .iter()
            .filter(|d| &d.profile_id == profile)
            .cloned()
            .collect();
        Ok(page_of(mine, page))
    }

    async fn update_status(&self, document: &Document, entry: &Entry) -> StoreResult<()> {
        let mut documents = self.0.documents.lock().expect("lock");
        let stored = documents
            .iter_mut()
            .find(|d| d.id == document.id)
            .ok_or(StoreError::Missing)?;
        stored.status = document.status;
        stored.updated_at = document.updated_at;
        self.0.record(entry);
        Ok(())
    }

    async fn delete(&self, document: &Document, entry: &Entry) -> StoreResult<()> {
        let mut documents = self.0.documents.lock().expect("lock");
        let before = documents.len();
        documents.retain(|d| d.id != document.id);
        if documents.len() == before {
            return Err(StoreError::Missing);
        }
        self.0.record(entry);
        Ok(())
    }

    async fn file_in_use(&self, file_id: &FileId) -> StoreResult<bool> {
        let documents = self.0.documents.lock().expect("lock");
        Ok(documents
            .iter()
            .any(|d| d.files().iter().any(|f| &f.file_id == file_id)))
    }
}

/// Notes, over the same data as the profiles they belong to.
#[derive(Debug)]
pub struct MemoryNotes(pub Arc<MemoryProfiles>);

#[async_trait]
impl NoteRepository for MemoryNotes {
    async fn insert(&self, note: &Note, entry: &Entry) -> StoreResult<()> {
        self.0.notes.lock().expect("lock").push(note.clone());
        self.0.record(entry);
        Ok(())
    }

    async fn list(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Note>> {
        let notes = self.0.notes.lock().expect("lock");
        let mine = notes
            .iter()
            .filter(|n| &n.profile_id == profile)
            .cloned()
            .collect();
        Ok(page_of(mine, page))
    }
}

type FileMap = std::sync::Arc<Mutex<std::collections::HashMap<FileId, Vec<u8>>>>;

/// Finished files by id; an upload shows only once finished.
#[derive(Debug, Default)]
pub struct MemoryFiles(FileMap);

impl MemoryFiles {
    /// Stores a whole file at once.
    pub fn put(&self, file_id: &FileId, bytes: &[u8]) {
        self.0
            .lock()
            .expect("lock")
            .insert(file_id.clone(), bytes.to_vec());
    }

    /// How many files are stored.
    pub fn count(&self) -> usize {
        self.0.lock().expect("lock").len()
    }
}

struct MemoryUpload {
    files: FileMap,
    file_id: FileId,
    bytes: Vec<u8>,
}

#[async_trait]
impl crate::ports::FileUpload for MemoryUpload {
    async fn write(&mut self, bytes: Vec<u8>) -> StoreResult<()> {
        self.bytes.extend(bytes);
        Ok(())
    }

    async fn finish(self: Box<Self>) -> StoreResult<()> {
        self.files
            .lock()
            .expect("lock")
            .insert(self.file_id, self.bytes);
        Ok(())
    }

    async fn abort(self: Box<Self>) {}
}

/// A held file, handed out in one piece.
struct MemoryDownload(Option<Vec<u8>>);

#[async_trait]
impl crate::ports::FileDownload for MemoryDownload {
    async fn next(&mut self) -> StoreResult<Option<Vec<u8>>> {
        Ok(self.0.take())
    }
}

#[async_trait]
impl crate::ports::DocumentStore for MemoryFiles {
    async fn begin(&self, file_id: &FileId) -> StoreResult<Box<dyn crate::ports::FileUpload>> {
        Ok(Box::new(MemoryUpload {
            files: self.0.clone(),
            file_id: file_id.clone(),
            bytes: Vec::new(),
        }))
    }

    async fn open(
        &self,
        file_id: &FileId,
    ) -> StoreResult<Option<Box<dyn crate::ports::FileDownload>>> {
        let bytes = self.0.lock().expect("lock").get(file_id).cloned();
        Ok(bytes.map(|b| Box::new(MemoryDownload(Some(b))) as _))
    }

    async fn delete(&self, file_id: &FileId) -> StoreResult<()> {
        self.0.lock().expect("lock").remove(file_id);
        Ok(())
    }

    async fn list(&self) -> StoreResult<Vec<crate::ports::StoredObject>> {
        Ok(self
            .0
            .lock()
            .expect("lock")
            .keys()
            .map(|id| crate::ports::StoredObject {
                file_id: id.clone(),
                partial: false,
                modified: time::OffsetDateTime::UNIX_EPOCH,
            })
            .collect())
    }
}

/// Dashboard users, in memory; disabling one disables the keys it made in `merchants`.
#[derive(Debug, Default)]
pub struct MemoryUsers {
    users: Mutex<Vec<User>>,
    /// The latest one-time code step each user spent.
    spent: Mutex<HashMap<UserId, u64>>,
    /// Where the keys users make are kept.
    pub merchants: Arc<MemoryMerchants>,
}

impl MemoryUsers {
    /// Users beside these merchants' keys.
    pub fn new(merchants: Arc<MemoryMerchants>) -> Self {
        Self {
            users: Mutex::default(),
            spent: Mutex::default(),
            merchants,
        }
    }

    fn with_user<T>(&self, email: &Email, change: impl FnOnce(&mut User) -> T) -> StoreResult<T> {
        let mut users = self.users.lock().expect("lock");
        let user = users
            .iter_mut()
            .find(|u| u.email.key() == email.key())
            .ok_or(StoreError::Missing)?;
        Ok(change(user))
    }
}

#[async_trait]
impl UserRepository for MemoryUsers {
    async fn insert(&self, user: &User) -> StoreResult<()> {
        let mut users = self.users.lock().expect("lock");
        if users.iter().any(|u| u.email.key() == user.email.key()) {
            return Err(StoreError::Duplicate);
        }
        users.push(user.clone());
        Ok(())
    }

    async fn find_by_email(&self, email: &Email) -> StoreResult<Option<User>> {
        let users = self.users.lock().expect("lock");
        Ok(users.iter().find(|u| u.email.key() == email.key()).cloned())
    }

    async fn set_enabled(&self, email: &Email, enabled: bool) -> StoreResult<Vec<ApiKeyId>> {
        let id = self.with_user(email, |u| {
            u.enabled = enabled;
            u.id.clone()
        })?;
        if enabled {
            return Ok(Vec::new());
        }
        let mut keys = self.merchants.keys.lock().expect("lock");
        let made: Vec<&mut ApiKey> = keys
            .iter_mut()
            .filter(|k| k.enabled && k.created_by.as_ref() == Some(&id))
            .collect();
        Ok(made
            .into_iter()
            .map(|k| {
                k.enabled = false;
                k.key.clone()
            })
            .collect())
    }

    async fn set_totp(&self, email: &Email, secret: Option<&TotpSecret>) -> StoreResult<()> {
        let id = self.with_user(email, |u| {
            u.totp = secret.cloned();
            u.id.clone()
        })?;
        self.spent.lock().expect("lock").remove(&id);
        Ok(())
    }

    async fn spend_code(&self, user: &UserId, step: u64) -> StoreResult<bool> {
        let mut spent = self.spent.lock().expect("lock");
        if spent.get(user).is_some_and(|last| *last >= step) {
            return Ok(false);
        }
        spent.insert(user.clone(), step);
        Ok(true)
    }
}

/// Dashboard sessions and counted sign-in attempts, in memory.
#[derive(Debug, Default)]
pub struct MemorySessions {
    sessions: Mutex<Vec<(String, Session)>>,
    attempts: Mutex<Vec<(String, String, OffsetDateTime)>>,
    /// Users, for a session's user to be enabled.
    pub users: Arc<MemoryUsers>,
}

impl MemorySessions {
    /// Sessions of these users.
    pub fn new(users: Arc<MemoryUsers>) -> Self {
        Self {
            sessions: Mutex::default(),
            attempts: Mutex::default(),
            users,
        }
    }
}

#[async_trait]
impl SessionRepository for MemorySessions {
    async fn insert(&self, token: &SessionToken, session: &Session) -> StoreResult<()> {
        let mut sessions = self.sessions.lock().expect("lock");
        sessions.push((token.expose().to_owned(), session.clone()));
        Ok(())
    }

    async fn find(&self, token: &SessionToken) -> StoreResult<Option<Session>> {
        let found = {
            let sessions = self.sessions.lock().expect("lock");
            sessions
                .iter()
                .find(|(t, _)| t == token.expose())
                .map(|(_, s)| s.clone())
        };
        let Some(session) = found else {
            return Ok(None);
        };
        let user = self.users.find_by_email(&session.email).await?;
        Ok(user.filter(|u| u.enabled).map(|u| Session {
            role: u.role,
            ..session
        }))
    }

    async fn touch(&self, token: &SessionToken, at: OffsetDateTime) -> StoreResult<()> {
        let mut sessions = self.sessions.lock().expect("lock");
        for (_, s) in sessions.iter_mut().filter(|(t, _)| t == token.expose()) {
            s.last_seen_at = at;
        }
        Ok(())
    }

    async fn delete(&self, token: &SessionToken) -> StoreResult<()> {
        let mut sessions = self.sessions.lock().expect("lock");
        sessions.retain(|(t, _)| t != token.expose());
        Ok(())
    }

    async fn begin_attempt(
        &self,
        attempt: &str,
        keys: &[String],
        at: OffsetDateTime,
        since: OffsetDateTime,
    ) -> StoreResult<Vec<Vec<OffsetDateTime>>> {
        let mut attempts = self.attempts.lock().expect("lock");
        let earlier = keys
            .iter()
            .map(|key| {
                attempts
                    .iter()
                    .filter(|(_, k, when)| k == key && *when >= since)
                    .map(|(_, _, when)| *when)
                    .collect()
            })
            .collect();
        for key in keys {
            attempts.push((attempt.to_owned(), key.clone(), at));
        }
        Ok(earlier)
    }

    async fn withdraw_attempt(&self, attempt: &str) -> StoreResult<()> {
        let mut attempts = self.attempts.lock().expect("lock");
        attempts.retain(|(a, _, _)| a != attempt);
        Ok(())
    }
}

/// The audit trail, in memory.
#[derive(Debug, Default)]
pub struct MemoryAudit(Mutex<Vec<AuditEntry>>);

#[async_trait]
impl AuditLog for MemoryAudit {
    async fn append(&self, entry: &AuditEntry) -> StoreResult<()> {
        self.0.lock().expect("lock").push(entry.clone());
        Ok(())
    }

    async fn since(
        &self,
        merchant: &MerchantId,
        since: OffsetDateTime,
        after: Option<&str>,
        limit: usize,
    ) -> StoreResult<Vec<AuditEntry>> {
        let mut mine: Vec<AuditEntry> = self
            .0
            .lock()
            .expect("lock")
            .iter()
            .filter(|e| &e.merchant_id == merchant && e.at >= since)
            .filter(|e| after.is_none_or(|after| e.id.as_str() > after))
            .cloned()
            .collect();
        mine.sort_by(|a, b| a.id.cmp(&b.id));
        mine.truncate(limit);
        Ok(mine)
    }

    async fn latest(
        &self,
        merchant: &MerchantId,
        kind: AuditKind,
        limit: usize,
    ) -> StoreResult<Vec<AuditEntry>> {
        let mut mine: Vec<AuditEntry> = self
            .0
            .lock()
            .expect("lock")
            .iter()
            .filter(|e| &e.merchant_id == merchant && kind.includes(e.action))
            .cloned()
            .collect();
        mine.sort_by(|a, b| b.id.cmp(&a.id));
        mine.truncate(limit);
        Ok(mine)
    }
}

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

/// What each merchant's endpoints listen to, set by the test.
#[derive(Debug, Default)]
pub struct MemorySubscriptions(Mutex<Vec<(MerchantId, Vec<Subscription>)>>);

impl MemorySubscriptions {
    /// The merchant's enabled endpoints are now these.
    pub fn set(&self, merchant: &MerchantId, subscriptions: Vec<Subscription>) {
        let mut all = self.0.lock().expect("lock");
        all.retain(|(m, _)| m != merchant);
        all.push((merchant.clone(), subscriptions));
    }
}

#[async_trait]
impl Subscriptions for MemorySubscriptions {
    async fn subscriptions(&self, merchant: &MerchantId) -> StoreResult<Vec<Subscription>> {
        let all = self.0.lock().expect("lock");
        Ok(all
            .iter()
            .find(|(m, _)| m == merchant)
            .map(|(_, s)| s.clone())
            .unwrap_or_default())
    }
}

/// An outbox over merchants with no endpoints, its delivery ids from `ids`.
pub fn outbox(ids: Arc<dyn IdGenerator>) -> Outbox {
    Outbox::new(Arc::new(MemorySubscriptions::default()), ids)
}

/// Verifications, over the same data as the quizzes whose submission queues them.
#[derive(Debug)]
pub struct MemoryVerifications(pub Arc<MemoryProfiles>);

#[async_trait]
impl VerificationRepository for MemoryVerifications {
    async fn queue(&self, verification: &Verification) -> StoreResult<()> {
        let mut all = self.0.verifications.lock().expect("lock");
        all.push((verification.clone(), None));
        Ok(())
    }

    async fn claim(
        &self,
        now: OffsetDateTime,
        until: OffsetDateTime,
    ) -> StoreResult<Option<Verification>> {
        let mut all = self.0.verifications.lock().expect("lock");
        let free = all.iter_mut().find(|(v, claim)| {
            v.status == VerificationStatus::Pending && claim.is_none_or(|lapses| lapses <= now)
        });
        Ok(free.map(|(v, claim)| {
            *claim = Some(until);
            v.clone()
        }))
    }

    async fn complete(
        &self,
        verification: &Verification,
        entries: &[Entry],
        profile: Option<&Profile>,
        reads: &[(DocumentId, Vec<DocumentRead>)],
    ) -> StoreResult<()> {
        // Gone, or completed already (by a claimer that took up a lapsed claim).
        if !self
            .0
            .verifications
            .lock()
            .expect("lock")
            .iter()
            .any(|(v, _)| v.id == verification.id && v.status == VerificationStatus::Pending)
        {
            return Err(StoreError::Missing);
        }
        if let Some(profile) = profile {
            let (first, rest) = entries.split_first().ok_or(StoreError::Missing)?;
            self.0.update(profile, first).await?;
            rest.iter().for_each(|e| self.0.record(e));
        } else {
            entries.iter().for_each(|e| self.0.record(e));
        }
        let mut all = self.0.verifications.lock().expect("lock");
        let stored = all
            .iter_mut()
            .find(|(v, _)| v.id == verification.id)
            .ok_or(StoreError::Missing)?;
        *stored = (verification.clone(), None);
        drop(all);
        let mut documents = self.0.documents.lock().expect("lock");
        for (id, read) in reads {
            if let Some(document) = documents.iter_mut().find(|d| d.id == *id) {
                document.read = read.clone();
            }
        }
        Ok(())
    }

    async fn latest_of_quiz(&self, quiz: &QuizId) -> StoreResult<Option<Verification>> {
        let all = self.0.verifications.lock().expect("lock");
        Ok(all
            .iter()
            .rev()
            .find(|(v, _)| &v.quiz_id == quiz)
            .map(|(v, _)| v.clone()))
    }

    async fn list_of_profile(
        &self,
        profile: &ProfileId,
        page: Page,
    ) -> StoreResult<Paged<Verification>> {
        let all = self.0.verifications.lock().expect("lock");
        let mine: Vec<Verification> = all
            .iter()
            .filter(|(v, _)| &v.profile_id == profile)
            .map(|(v, _)| v.clone())
            .collect();
        Ok(page_of(mine, page))
    }
}

/// An image analysis that answers what it was told to for given bytes, and finds a
/// clean image with nothing in it otherwise (and no face matcher: script a
/// [`FaceDescriptor`] to match faces).
#[derive(Debug, Default)]
pub struct ScriptedImages(Mutex<Vec<(Vec<u8>, ImageReport)>>);

impl ScriptedImages {
    /// `image` will be reported as `report`.
    pub fn answer(&self, image: &[u8], report: ImageReport) {
        self.0.lock().expect("lock").push((image.to_vec(), report));
    }
}

#[async_trait]
impl ImageAnalysis for ScriptedImages {
    async fn room(&self, _: &MerchantId) -> ImageRoom {
        ImageRoom::new(())
    }

    async fn room_within(&self, _: &MerchantId, _: std::time::Duration) -> Option<ImageRoom> {
        Some(ImageRoom::new(()))
    }

    async fn examine(&self, _room: ImageRoom, image: Vec<u8>, wanted: Wanted) -> ImageReport {
        let scripted = self.0.lock().expect("lock");
        match scripted.iter().find(|(bytes, _)| *bytes == image) {
            Some((_, report)) => report.clone(),
            None => ImageReport {
                quality: Vec::new(),
                barcode: wanted.barcode.then_some(BarcodeReading::NotFound),
                mrz: wanted.mrz.then_some(MrzReading::NotFound),
                faces: wanted.faces.then_some(0),
                descriptor: wanted.faces.then_some(FaceDescriptor::Unavailable),
                text: wanted.text.then_some(TextReading::Unreadable),
                hashes: None,
            },
        }
    }
}

/// The blind index in memory: the values themselves, since nothing here is kept.
#[derive(Debug, Default)]
pub struct MemoryIdentityIndex(Mutex<Vec<(MerchantId, ProfileId, IdentityKind, String)>>);

#[async_trait]
impl IdentityIndex for MemoryIdentityIndex {
    async fn note(
        &self,
        merchant: &MerchantId,
        profile: &ProfileId,
        kind: IdentityKind,
        value: &str,
    ) -> StoreResult<u64> {
        let mut all = self.0.lock().expect("lock");
        let same = |m: &MerchantId, k: &IdentityKind, v: &String| {
            m == merchant && *k == kind && v == value
        };
        if !all.iter().any(|(m, p, k, v)| same(m, k, v) && p == profile) {
            all.push((merchant.clone(), profile.clone(), kind, value.to_owned()));
        }
        let others = all
            .iter()
            .filter(|(m, p, k, v)| same(m, k, v) && p != profile)
            .count();
        Ok(u64::try_from(others).unwrap_or(u64::MAX))
    }
}
