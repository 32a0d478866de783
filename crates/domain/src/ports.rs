//! What the use cases need from the outside world. Adapters implement these.

use std::time::Duration;

use async_trait::async_trait;
use time::OffsetDateTime;

use crate::audit::{AuditEntry, AuditKind};
use crate::document::Document;
use crate::error::Cause;
use crate::event::Event;
use crate::ids::{DeliveryId, DocumentId, FileId, QuizId, TemplateId, UserId, WebhookId};
use crate::merchant::{
    ApiKey, ApiKeyId, IpNet, Merchant, MerchantId, MerchantSettings, RetentionDays,
};
use crate::note::Note;
use crate::outbox::{Entry, Subscription};
use crate::paging::{Page, Paged};
use crate::profile::{Email, Profile, ProfileFilter, ProfileId, ProfileKey, SubmittedFormFields};
use crate::quiz::{Quiz, QuizLink, QuizUsage, QuizWithClient, UploadLimits};
use crate::session::{Session, SessionToken};
use crate::signals::{Kept, Signal};
use crate::template::Template;
use crate::user::{Password, PasswordHash, TotpSecret, User};
use crate::verification::{DocumentRead, IdentityKind, ImageReport, Verification, Wanted};
use crate::watchlist::{ListImport, ListName, ListVersion, Screening};
use crate::webhook::{Answer, Delivery, DueDelivery, Notification, Webhook};

/// Why storage refused or failed.
#[derive(Debug, thiserror::Error)]
#[cfg_attr(feature = "stable-api", non_exhaustive)]
pub enum StoreError {
    /// A uniqueness rule was broken (an e-mail or mobile already taken).
    #[error("duplicate")]
    Duplicate,
    /// The object was changed by someone else since it was read.
    #[error("concurrent change")]
    Conflict,
    /// The object to change does not exist (any more).
    #[error("missing")]
    Missing,
    /// A per-quiz cap (documents or bytes) would be passed by this write.
    #[error("limit reached")]
    LimitReached,
    /// Storage cannot be reached now; the same call may succeed later (answered 503).
    #[error("storage unavailable")]
    Unavailable(#[source] Cause),
    /// A bounded resource (password hashing) is at capacity: refused at once rather than
    /// queued, so a burst cannot pile up work; the same call may succeed in a moment.
    #[error("at capacity")]
    Busy,
    /// A fault of the storage; the cause is for the log.
    #[error("storage fault")]
    Internal(#[source] Cause),
}

/// What every storage call returns.
pub type StoreResult<T> = Result<T, StoreError>;

/// The time, as the rules see it.
pub trait Clock: Send + Sync {
    /// Now.
    fn now(&self) -> OffsetDateTime;
}

/// Fresh identifiers that sort by creation time (ULIDs in production).
pub trait IdGenerator: Send + Sync {
    /// A new id.
    fn next_id(&self) -> String;
}

/// Unpredictable strings for credentials.
pub trait SecretGenerator: Send + Sync {
    /// `len` random characters from `[0-9A-Za-z]`.
    fn base62(&self, len: usize) -> String;
    /// `bytes` random bytes, base64url without padding.
    fn url_token(&self, bytes: usize) -> String;
}

/// Merchants and their API keys.
#[async_trait]
pub trait MerchantRepository: Send + Sync {
    /// Stores a merchant with its first key.
    async fn create(&self, merchant: &Merchant, first_key: &ApiKey) -> StoreResult<()>;
    /// Every merchant.
    async fn list(&self) -> StoreResult<Vec<Merchant>>;
    /// The merchant, if it exists.
    async fn find(&self, id: &MerchantId) -> StoreResult<Option<Merchant>>;
    /// `Missing` when the merchant does not exist; `LimitReached` when it already holds
    /// `max_enabled` enabled keys (counted in the same transaction as the insert).
    async fn add_key(&self, key: &ApiKey, max_enabled: usize) -> StoreResult<()>;
    /// `Missing` when no such key exists.
    async fn set_key_enabled(&self, key: &ApiKeyId, enabled: bool) -> StoreResult<()>;
    /// `Missing` when no such key exists.
    async fn set_key_networks(&self, key: &ApiKeyId, networks: &[IpNet]) -> StoreResult<()>;
    /// The key named by an `Api-Key` header, enabled or not.
    async fn find_key(&self, key: &ApiKeyId) -> StoreResult<Option<ApiKey>>;
    /// The merchant's keys, enabled or not, oldest first.
    async fn keys(&self, merchant: &MerchantId) -> StoreResult<Vec<ApiKey>>;
    /// `Missing` when the merchant does not exist.
    async fn save_settings(&self, id: &MerchantId, settings: &MerchantSettings) -> StoreResult<()>;
}

/// Profiles and their activity log. Each write takes the outbox entry that records it (the
/// event and the webhook deliveries it owes) and stores both in one transaction: a change
/// is never stored without its record, nor the reverse.
#[async_trait]
pub trait ProfileRepository: Send + Sync {
    /// `Duplicate` when the e-mail (case-insensitively) or the mobile is taken by another
    /// profile of the merchant.
    async fn insert(&self, profile: &Profile, entry: &Entry) -> StoreResult<()>;
    /// Stores `profile` if its stored revision is still `profile.revision - 1`, else `Conflict`.
    async fn update(&self, profile: &Profile, entry: &Entry) -> StoreResult<()>;
    /// The merchant's profile with this pair (e-mail compared case-insensitively).
    async fn find(&self, merchant: &MerchantId, key: &ProfileKey) -> StoreResult<Option<Profile>>;
    /// The merchant's profile with this id (another merchant's is `None`).
    async fn find_by_id(
        &self,
        merchant: &MerchantId,
        id: &ProfileId,
    ) -> StoreResult<Option<Profile>>;
    /// Newest first.
    async fn list(&self, merchant: &MerchantId, page: Page) -> StoreResult<Paged<Profile>>;
    /// Those `filter` selects, newest first; `total_count` counts all of the merchant's,
    /// `filtered` those selected.
    async fn search(
        &self,
        merchant: &MerchantId,
        filter: &ProfileFilter,
        page: Page,
    ) -> StoreResult<Paged<Profile>>;
    /// Erases the profile and everything under it, then stores the tombstone event.
    /// Returns the ids of the files its documents held, for the caller to remove.
    async fn delete(&self, profile: &Profile, tombstone: &Entry) -> StoreResult<Vec<FileId>>;
    /// Newest first.
    async fn events(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Event>>;
    /// Up to `limit` of the merchant's profiles that retention erases at `now`, those
    /// for which [`Profile::due_for_erasure`] holds under `retention`, decided longest
    /// ago first.
    async fn due_for_erasure(
        &self,
        merchant: &MerchantId,
        retention: RetentionDays,
        now: OffsetDateTime,
        limit: usize,
    ) -> StoreResult<Vec<Profile>>;
    /// In one transaction: stores `profile`, its personal data erased
    /// ([`Profile::erase_personal_data`]), if its stored revision is still
    /// `profile.revision - 1` (else `Conflict`; `Missing` if it is gone), empties each of
    /// its documents ([`Document::erase_personal_data`]), forgets what was noted of it
    /// in the identity index, and stores `entry`. Returns the ids of the files its
    /// documents held, for the caller to remove.
    async fn erase_personal_data(
        &self,
        profile: &Profile,
        entry: &Entry,
    ) -> StoreResult<Vec<FileId>>;
}

/// A merchant's stored templates.
#[async_trait]
pub trait TemplateRepository: Send + Sync {
    /// Stores a new template.
    async fn insert(&self, template: &Template) -> StoreResult<()>;
    /// `Missing` when the template does not exist.
    async fn update(&self, template: &Template) -> StoreResult<()>;
    /// The merchant's template with this id (another merchant's is `None`).
    async fn find(&self, merchant: &MerchantId, id: &TemplateId) -> StoreResult<Option<Template>>;
    /// Newest first.
    async fn list(&self, merchant: &MerchantId, page: Page) -> StoreResult<Paged<Template>>;
}

/// How a quiz's creation touches the client's profile.
#[derive(Debug, Clone)]
pub enum ProfileWrite {
    /// A new client. `Duplicate` if the e-mail or mobile was taken meanwhile.
    Insert(Profile),
    /// A known client, updated with the request's attributes. `Conflict` if the stored
    /// revision is no longer `revision - 1`.
    Update(Profile),
}

/// Quizzes, and what clients hand in through them.
#[async_trait]
pub trait QuizRepository: Send + Sync {
    /// Writes the profile, the quiz and their events in one transaction.
    async fn create(
        &self,
        profile: &ProfileWrite,
        quiz: &Quiz,
        entries: &[Entry],
    ) -> StoreResult<()>;
    /// A quiz of the merchant that is not deleted, with its client.
    async fn find(
        &self,
        merchant: &MerchantId,
        link: &QuizLink,
    ) -> StoreResult<Option<QuizWithClient>>;
    /// A quiz of the merchant that is not deleted, by its id (the dashboard's addresses).
    async fn find_by_id(
        &self,
        merchant: &MerchantId,
        id: &QuizId,
    ) -> StoreResult<Option<QuizWithClient>>;
    /// The merchant's quizzes that are not deleted, newest first.
    async fn list(&self, merchant: &MerchantId, page: Page) -> StoreResult<Paged<QuizWithClient>>;
    /// The profile's quizzes that are not deleted, newest first.
    async fn list_of_profile(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Quiz>>;
    /// Ends the quiz early, if it was neither ended nor deleted meanwhile (else `Conflict`).
    async fn mark_expired(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()>;
    /// Stores the quiz's new expiry (`expiry_days`, `expires_at`, `expired_at` cleared)
    /// with its event, if it is neither submitted (else `Conflict`) nor deleted (else
    /// `Missing`), decided in the write's own transaction.
    async fn mark_extended(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()>;
    /// Soft-deletes the quiz, if it was not deleted meanwhile (else `Missing`).
    async fn mark_deleted(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()>;

    /// A quiz that is not deleted, of any merchant: the client's link is its only key.
    async fn find_live(&self, link: &QuizLink) -> StoreResult<Option<QuizWithClient>>;
    /// Records the first opening (`Conflict` when it was already recorded).
    async fn mark_opened(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()>;
    /// Stores the fields the client sent in this post (the `Some` values of `sent`), each
    /// on its own, so that concurrent posts of different fields both keep theirs, and adds
    /// the quiz's newly completed steps to those already stored. `Conflict` when the quiz
    /// was submitted, decided in the write's own transaction (a post racing the
    /// submission is either written before it or refused).
    async fn save_fields(
        &self,
        quiz: &Quiz,
        profile: &ProfileId,
        sent: &SubmittedFormFields,
        entry: &Entry,
    ) -> StoreResult<()>;
    /// How many documents the quiz holds and their files' bytes in all.
    async fn usage(&self, quiz: &Quiz) -> StoreResult<QuizUsage>;
    /// Stores a document in place of the quiz's documents it [`Document::replaces`] and
    /// adds the quiz's newly completed steps; `LimitReached` if the quiz would then pass
    /// `limits` (counted without the replaced documents, in the same transaction as the
    /// insert); `Conflict` when the quiz was submitted, decided in that transaction too.
    /// Answers the ids of the replaced documents' files, for their bytes to be removed.
    async fn add_document(
        &self,
        quiz: &Quiz,
        document: &Document,
        entry: &Entry,
        limits: UploadLimits,
    ) -> StoreResult<Vec<FileId>>;
    /// Completes the quiz (`Conflict` when it was already completed) and queues its
    /// verification, in one transaction: a submission is never left unverified.
    async fn mark_submitted(
        &self,
        quiz: &Quiz,
        entry: &Entry,
        verification: &Verification,
    ) -> StoreResult<()>;
}

/// Documents, for the merchant's review.
#[async_trait]
pub trait DocumentRepository: Send + Sync {
    /// The document if it belongs to `profile`.
    async fn find(&self, profile: &ProfileId, id: &DocumentId) -> StoreResult<Option<Document>>;
    /// The document if it belongs to one of `merchant`'s profiles (the dashboard's
    /// addresses name a document by its id alone).
    async fn find_of_merchant(
        &self,
        merchant: &MerchantId,
        id: &DocumentId,
    ) -> StoreResult<Option<Document>>;
    /// Newest first.
    async fn list(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Document>>;
    /// `Missing` if the document is gone.
    async fn update_status(&self, document: &Document, entry: &Entry) -> StoreResult<()>;
    /// `Missing` if the document is gone.
    async fn delete(&self, document: &Document, entry: &Entry) -> StoreResult<()>;
    /// Whether any document names this file (the sweeper keeps those).
    async fn file_in_use(&self, file_id: &FileId) -> StoreResult<bool>;
}

/// A merchant's notes on profiles.
#[async_trait]
pub trait NoteRepository: Send + Sync {
    /// Stores a note with the event that records it.
    async fn insert(&self, note: &Note, entry: &Entry) -> StoreResult<()>;
    /// Newest first.
    async fn list(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Note>>;
}

/// A file being written, piece by piece as it arrives. Nothing is visible under its id
/// until `finish` returns, and then it is durable.
#[async_trait]
pub trait FileUpload: Send {
    /// Appends the next bytes.
    async fn write(&mut self, bytes: Vec<u8>) -> StoreResult<()>;
    /// Makes the file durable and visible under its id.
    async fn finish(self: Box<Self>) -> StoreResult<()>;
    /// Drops what was written.
    async fn abort(self: Box<Self>);
}

/// A file the store holds, finished or not, as the sweeper sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredObject {
    /// The file's id.
    pub file_id: FileId,
    /// An upload that was never finished (a crash, a dropped connection).
    pub partial: bool,
    /// When it was last written.
    pub modified: OffsetDateTime,
}

/// A stored file being read, piece by piece: a whole file is never held in memory. Each
/// piece is checked before it is returned (a store that seals files opens them here).
#[async_trait]
pub trait FileDownload: Send {
    /// The next piece of the file's bytes, as written; `None` once all were returned.
    async fn next(&mut self) -> StoreResult<Option<Vec<u8>>>;
}

/// Where uploaded file bytes live. Stores may seal the bytes; `open` gives back exactly
/// what was written.
#[async_trait]
pub trait DocumentStore: Send + Sync {
    /// Starts a new file, invisible until finished.
    async fn begin(&self, file_id: &FileId) -> StoreResult<Box<dyn FileUpload>>;
    /// The file's bytes, exactly as written, piece by piece (`None` if there is no such
    /// file).
    async fn open(&self, file_id: &FileId) -> StoreResult<Option<Box<dyn FileDownload>>>;
    /// The whole file at once, for callers that need all of it (checks, copies of small
    /// files); `None` if there is no such file.
    async fn get(&self, file_id: &FileId) -> StoreResult<Option<Vec<u8>>> {
        let Some(mut download) = self.open(file_id).await? else {
            return Ok(None);
        };
        let mut bytes = Vec::new();
        while let Some(piece) = download.next().await? {
            bytes.extend_from_slice(&piece);
        }
        Ok(Some(bytes))
    }
    /// Removing a file that is not there is not an error.
    async fn delete(&self, file_id: &FileId) -> StoreResult<()>;
    /// Every file and partial upload held.
    async fn list(&self) -> StoreResult<Vec<StoredObject>>;
    /// Seals the file again under the store's current key when an older key sealed it (a
    /// master key rotation); whether it was rewritten. A store that seals nothing, or
    /// holds no such file, has nothing to do.
    async fn reseal(&self, _file_id: &FileId) -> StoreResult<bool> {
        Ok(false)
    }
}

/// A merchant's webhook endpoints and the deliveries they are owed. Deliveries are first
/// written by the other repositories, in the outbox entry of the change that owes them.
#[async_trait]
pub trait WebhookRepository: Send + Sync {
    /// Stores a new endpoint; `LimitReached` if the merchant already holds `max`
    /// (counted in the same transaction as the insert).
    async fn insert(&self, webhook: &Webhook, max: usize) -> StoreResult<()>;
    /// The merchant's endpoint with this id (another merchant's is `None`).
    async fn find(&self, merchant: &MerchantId, id: &WebhookId) -> StoreResult<Option<Webhook>>;
    /// Newest first.
    async fn list(&self, merchant: &MerchantId, page: Page) -> StoreResult<Paged<Webhook>>;
    /// `Missing` when the endpoint is gone.
    async fn update(&self, webhook: &Webhook) -> StoreResult<()>;
    /// Removes the endpoint and its deliveries; `Missing` when it is gone.
    async fn delete(&self, merchant: &MerchantId, id: &WebhookId) -> StoreResult<()>;
    /// The endpoint's deliveries, newest first.
    async fn deliveries(&self, webhook: &WebhookId, page: Page) -> StoreResult<Paged<Delivery>>;
    /// The merchant's delivery with this id.
    async fn find_delivery(
        &self,
        merchant: &MerchantId,
        id: &DeliveryId,
    ) -> StoreResult<Option<Delivery>>;
    /// Stores what a delivery came to (a merchant's retry, or an attempt's answer), and
    /// frees its claim; with `disable_endpoint`, also turns its endpoint off.
    async fn save_delivery(&self, delivery: &Delivery, disable_endpoint: bool) -> StoreResult<()>;
    /// Up to `max` pending deliveries due at `now` to enabled endpoints, claimed until
    /// `until`: no other claimer (another instance included) gets them before then, or
    /// before they are saved or released. No merchant ends up with more than
    /// `per_merchant` claimed at once, counting those claimed before, by any claimer, and
    /// not yet saved or released.
    async fn claim_due(
        &self,
        now: OffsetDateTime,
        until: OffsetDateTime,
        max: usize,
        per_merchant: usize,
    ) -> StoreResult<Vec<DueDelivery>>;
    /// Gives claimed deliveries back unattempted (a shutdown), due again at once.
    async fn release(&self, ids: &[DeliveryId]) -> StoreResult<()>;
}

/// Sends one delivery to its endpoint: the payload, signed with every secret the
/// endpoint signs with at `now`. Never fails: what went wrong is the answer.
#[async_trait]
pub trait WebhookSender: Send + Sync {
    /// One attempt.
    async fn send(
        &self,
        webhook: &Webhook,
        notification: &Notification,
        now: OffsetDateTime,
    ) -> Answer;
}

/// How many requests one key may make: one every `interval` on average, up to `burst` at
/// once (the generic cell rate algorithm's two parameters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quota {
    /// The average time between two requests.
    pub interval: std::time::Duration,
    /// How many may come at once after a quiet spell (at least 1).
    pub burst: u32,
}

impl Quota {
    /// `rate` per second, in bursts of `burst`; `None` when `rate` is 0 (no limit).
    pub fn per_second(rate: u32, burst: u32) -> Option<Self> {
        (rate > 0).then(|| Self {
            interval: std::time::Duration::from_secs(1) / rate,
            burst: burst.max(1),
        })
    }

    /// `count` per minute, all usable at once; `None` when `count` is 0 (no limit).
    pub fn per_minute(count: u32) -> Option<Self> {
        (count > 0).then(|| Self {
            interval: std::time::Duration::from_secs(60) / count,
            burst: count,
        })
    }
}

/// A budget of requests per key (rate limits): in one process's memory, or in a store
/// several instances share, so that a limit holds across them.
#[async_trait]
pub trait RateLimiter: Send + Sync {
    /// Takes one request from `key`'s budget; `Err(wait)` when none is left.
    async fn check(&self, key: &str) -> Result<(), std::time::Duration>;
}

/// Dashboard users.
#[async_trait]
pub trait UserRepository: Send + Sync {
    /// `Duplicate` when a user already has this e-mail (compared case-insensitively).
    async fn insert(&self, user: &User) -> StoreResult<()>;
    /// The user signing in with this e-mail, enabled or not.
    async fn find_by_email(&self, email: &Email) -> StoreResult<Option<User>>;
    /// `Missing` when no user has this e-mail. Disabling a user also disables, in the
    /// same transaction, every API key the user made; returns those keys.
    async fn set_enabled(&self, email: &Email, enabled: bool) -> StoreResult<Vec<ApiKeyId>>;
    /// Sets (or with `None` removes) the user's second factor; `Missing` when no user has
    /// this e-mail. Stores may seal the secret.
    async fn set_totp(&self, email: &Email, secret: Option<&TotpSecret>) -> StoreResult<()>;
    /// Spends the user's one-time code of time step `step`: true the first time, false
    /// when a code of this step or a later one was spent already, so that a code signs in
    /// once (RFC 6238, section 5.2), even when two sign-ins race with it. Setting a new
    /// second factor forgets the spent steps.
    async fn spend_code(&self, user: &UserId, step: u64) -> StoreResult<bool>;
}

/// The audit trail of a merchant's own people (contract §16). Entries are never edited.
#[async_trait]
pub trait AuditLog: Send + Sync {
    /// Stores an entry.
    async fn append(&self, entry: &AuditEntry) -> StoreResult<()>;
    /// The merchant's entries made at or after `since`, oldest first, at most `limit`,
    /// starting after the entry with id `after` (for paging through a long trail).
    async fn since(
        &self,
        merchant: &MerchantId,
        since: OffsetDateTime,
        after: Option<&str>,
        limit: usize,
    ) -> StoreResult<Vec<AuditEntry>>;
    /// The merchant's latest `limit` entries of `kind`, newest first.
    async fn latest(
        &self,
        merchant: &MerchantId,
        kind: AuditKind,
        limit: usize,
    ) -> StoreResult<Vec<AuditEntry>>;
}

/// Verifications of submitted quizzes; the pending ones are the job queue that runs them,
/// claimed by one worker at a time (across instances too), run again when a claim lapses.
#[async_trait]
pub trait VerificationRepository: Send + Sync {
    /// Queues a verification (a rerun).
    async fn queue(&self, verification: &Verification) -> StoreResult<()>;
    /// The oldest pending verification that is not claimed (or whose claim lapsed by
    /// `now`), claimed until `until`: no other claimer gets it before then.
    async fn claim(
        &self,
        now: OffsetDateTime,
        until: OffsetDateTime,
    ) -> StoreResult<Option<Verification>>;
    /// Stores a completed verification with the entries it writes (its event, and the
    /// status change an automatic decision made), `profile` when its status changed
    /// (`Conflict` if the profile changed meanwhile), and what was read from each
    /// document examined (replacing what an earlier run read; a document deleted since
    /// is skipped), in one transaction. `Missing` when the verification is gone (its
    /// profile was erased) or already completed: a claimer whose claim lapsed while it
    /// worked (its work waited for a core) may finish after the one that took the job up,
    /// and a verification is completed once, its events written once.
    async fn complete(
        &self,
        verification: &Verification,
        entries: &[Entry],
        profile: Option<&Profile>,
        reads: &[(DocumentId, Vec<DocumentRead>)],
    ) -> StoreResult<()>;
    /// The quiz's latest verification.
    async fn latest_of_quiz(&self, quiz: &QuizId) -> StoreResult<Option<Verification>>;
    /// The profile's verifications, newest first.
    async fn list_of_profile(
        &self,
        profile: &ProfileId,
        page: Page,
    ) -> StoreResult<Paged<Verification>>;
}

/// A blind index of identifying values, per merchant: storage keeps keyed digests, never
/// the values, so a duplicate is found without an SSN being comparable in clear.
#[async_trait]
pub trait IdentityIndex: Send + Sync {
    /// Notes that `profile` holds `value` of `kind`; answers how many other profiles of
    /// the merchant hold it.
    async fn note(
        &self,
        merchant: &MerchantId,
        profile: &ProfileId,
        kind: IdentityKind,
        value: &str,
    ) -> StoreResult<u64>;
}

/// A screening to store as its profile's latest, in place of the one it was made over.
#[derive(Debug, Clone)]
pub struct ScreeningWrite {
    /// The screening.
    pub screening: Screening,
    /// The profile's latest screening when this one was made (`None`: it had none). The
    /// write is refused when another was stored since (a reviewer's decision, another
    /// instance's screening): what it merged would be lost.
    pub replacing: Option<Screening>,
    /// The events it records.
    pub entries: Vec<Entry>,
}

/// What became of one [`ScreeningWrite`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saved {
    /// Stored, with its events.
    Stored,
    /// Not stored: the profile's latest screening is no longer the one it replaces.
    Superseded,
    /// Not stored: the profile is gone or was erased.
    ProfileGone,
}

/// The lists screened against and each profile's latest screening (contract §19).
#[async_trait]
pub trait ScreeningStore: Send + Sync {
    /// Puts `import` in force, its entries replacing the list's in one transaction;
    /// `false`, nothing written, when that version is already in force.
    async fn import(&self, import: &ListImport) -> StoreResult<bool>;
    /// The version in force of every list, by name.
    async fn lists(&self) -> StoreResult<Vec<ListVersion>>;
    /// The entries of `list`'s version in force (none when there is no such list).
    async fn entries(&self, list: &ListName) -> StoreResult<Vec<screening::Entry>>;
    /// The profile's latest screening.
    async fn screening(
        &self,
        merchant: &MerchantId,
        profile: &ProfileId,
    ) -> StoreResult<Option<Screening>>;
    /// Stores each of `writes` that still replaces its profile's latest screening, with
    /// its events, all in one transaction (a re-screening's batch costs one commit);
    /// answers what became of each, in order.
    async fn save(&self, writes: &[ScreeningWrite]) -> StoreResult<Vec<Saved>>;
    /// Up to `limit` of the merchant's profiles (not erased) never screened, last
    /// screened against other lists than `lists` ([`Screening::lists_key`]), or before
    /// `before`: the ones a re-screening owes.
    async fn due(
        &self,
        merchant: &MerchantId,
        lists: &str,
        before: OffsetDateTime,
        limit: usize,
    ) -> StoreResult<Vec<ProfileId>>;
    /// Takes the re-screening for `holder` until `until`, when no other holder has it
    /// at `now` (or renews it): one instance at a time re-screens.
    async fn lease(
        &self,
        holder: &str,
        now: OffsetDateTime,
        until: OffsetDateTime,
    ) -> StoreResult<bool>;
}

/// What is kept of each profile's images to compare clients (contract §20): picture
/// hashes and, with `face_search`, faces; sealed at rest, erased with the profile.
#[async_trait]
pub trait SignalStore: Send + Sync {
    /// Keeps `signals` as the profile's, in place of those it had (its latest
    /// verification's; its blocked faces stay); nothing when the profile is gone or was
    /// erased.
    async fn keep(
        &self,
        merchant: &MerchantId,
        profile: &ProfileId,
        signals: &[Signal],
    ) -> StoreResult<()>;
    /// What the merchant keeps of its profiles other than `profile` (not erased), and
    /// its blocked faces, whoever's.
    async fn others(&self, merchant: &MerchantId, profile: &ProfileId) -> StoreResult<Vec<Kept>>;
    /// Blocks the faces kept of the profile: a face within reach of one of them fails
    /// `duplicate_face` with `face_on_blocklist`, and a later verification of the
    /// profile keeps them. Answers how many of its faces are blocked (none when no face
    /// was kept: `face_search` was off).
    async fn block_faces(&self, merchant: &MerchantId, profile: &ProfileId) -> StoreResult<u64>;
}

/// Looks at one uploaded image for the checks (contract §13): its quality, and what was
/// [`Wanted`] of it. Decoding, barcodes, OCR and faces need image libraries and system
/// tools, which stay out of the domain.
#[async_trait]
pub trait ImageAnalysis: Send + Sync {
    /// Waits for room to examine one image of `merchant`'s: see [`ImageRoom`]. Rooms are
    /// shared fairly between merchants: one merchant's many images never hold another's
    /// for long.
    async fn room(&self, merchant: &MerchantId) -> ImageRoom;
    /// The same, waiting at most `wait`; `None` when no room came in time.
    async fn room_within(&self, merchant: &MerchantId, wait: Duration) -> Option<ImageRoom>;
    /// The report on `image` (its bytes as uploaded), examined in `room`. It never fails:
    /// an image that cannot be decoded, or declares more than
    /// [`crate::document::MAX_IMAGE_PIXELS`], or takes longer than the adapter's time
    /// budget, is reported unreadable.
    async fn examine(&self, room: ImageRoom, image: Vec<u8>, wanted: Wanted) -> ImageReport;
}

/// Room to examine one image, taken before its bytes are read and held until its report:
/// an analysis grants as many as it examines at once (one per core), so images waiting
/// their turn (twenty uploads of 10 MiB arriving together) hold none of their bytes.
/// Dropping it gives the room back.
pub struct ImageRoom {
    /// Held for its drop alone.
    _guard: Box<dyn Send + Sync>,
}

impl ImageRoom {
    /// A room held as long as `guard` is (a semaphore's permit, or `()` for no bound).
    pub fn new(guard: impl Send + Sync + 'static) -> Self {
        Self {
            _guard: Box::new(guard),
        }
    }
}

impl std::fmt::Debug for ImageRoom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ImageRoom")
    }
}

/// What each merchant's enabled webhook endpoints listen to, for the outbox.
#[async_trait]
pub trait Subscriptions: Send + Sync {
    /// The merchant's enabled endpoints.
    async fn subscriptions(&self, merchant: &MerchantId) -> StoreResult<Vec<Subscription>>;
}

/// Which of the hasher's rooms a password check may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HashLane {
    /// The rooms every sign-in shares, which a flood of them fills.
    Shared,
    /// A room kept for the browsers users signed in from before ([`DeviceMarks`]), so
    /// that a flood of strangers' sign-ins cannot keep a known user out (OWASP's device
    /// cookies). It waits a moment for its room rather than being refused at once.
    KnownDevice,
}

/// Hashes passwords slowly on purpose (Argon2id in production), off the async workers.
#[async_trait]
pub trait PasswordHasher: Send + Sync {
    /// A new salted hash of `password`, in a shared room.
    async fn hash(&self, password: &Password) -> StoreResult<PasswordHash>;
    /// Whether `password` is the one `hash` was made from, checked in a room of `lane`;
    /// `Busy` when that lane's rooms are all taken.
    async fn verify(
        &self,
        password: &Password,
        hash: &PasswordHash,
        lane: HashLane,
    ) -> StoreResult<bool>;
}

/// Marks a browser holds after a user signed in from it: an unforgeable statement of who
/// signed in there and when, so a later sign-in of the same user from it can be told
/// from a stranger's. A mark grants nothing on its own: the password is still checked.
pub trait DeviceMarks: Send + Sync {
    /// A new mark that `user` signed in at `at`.
    fn mark(&self, user: &UserId, at: OffsetDateTime) -> String;
    /// Who signed in when, by a mark this service made (under any master key it still
    /// opens); `None` for anything else.
    fn read(&self, mark: &str) -> Option<(UserId, OffsetDateTime)>;
}

/// Time-based one-time passwords (RFC 6238): a dashboard user's second factor.
pub trait OneTimeCodes: Send + Sync {
    /// A new random secret.
    fn new_secret(&self) -> TotpSecret;
    /// The time step of `code` when it is the secret's code at `now` (one 30 s step
    /// either side is accepted, for clocks that drift); `None` when it is not.
    fn verify(&self, secret: &TotpSecret, code: &str, now: OffsetDateTime) -> Option<u64>;
    /// The `otpauth://` address an authenticator app reads, for `account`.
    fn uri(&self, secret: &TotpSecret, account: &str) -> String;
}

/// Dashboard sessions, kept server-side so that signing out or disabling a user ends them
/// at once, and the failed sign-ins that lock further tries.
#[async_trait]
pub trait SessionRepository: Send + Sync {
    /// Stores a new session under `token`.
    async fn insert(&self, token: &SessionToken, session: &Session) -> StoreResult<()>;
    /// The session of `token`, if it exists and its user is enabled.
    async fn find(&self, token: &SessionToken) -> StoreResult<Option<Session>>;
    /// Records a use of the session.
    async fn touch(&self, token: &SessionToken, at: OffsetDateTime) -> StoreResult<()>;
    /// Ends the session (one already gone is not an error).
    async fn delete(&self, token: &SessionToken) -> StoreResult<()>;
    /// Counts a sign-in attempt under each of `keys` (an address, a user at an address)
    /// before its password is checked, and returns, key by key, when the earlier attempts
    /// still counted under it were made (at or after `since`). Atomic per key: of
    /// parallel attempts, each sees those counted before it, so none can slip past a
    /// lock. An attempt stays counted as a failure unless it is withdrawn.
    async fn begin_attempt(
        &self,
        attempt: &str,
        keys: &[String],
        at: OffsetDateTime,
        since: OffsetDateTime,
    ) -> StoreResult<Vec<Vec<OffsetDateTime>>>;
    /// Uncounts an attempt that did not fail (it signed in, or was refused unchecked).
    async fn withdraw_attempt(&self, attempt: &str) -> StoreResult<()>;
}

/// How far a background queue is behind: what the metrics report at each scrape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Backlog {
    /// Jobs waiting (verifications pending, deliveries not yet delivered nor given up).
    pub waiting: u64,
    /// When the oldest of them became due; `None` when nothing waits.
    pub oldest_due: Option<OffsetDateTime>,
}

/// The background queues' backlogs, read cheaply (a count and a minimum per queue), so
/// that a scrape never weighs on the service.
#[async_trait]
pub trait Backlogs: Send + Sync {
    /// Verifications waiting for a worker, oldest by queueing time.
    async fn verifications(&self) -> StoreResult<Backlog>;
    /// Webhook deliveries still to be attempted, oldest by their next attempt's time.
    async fn webhook_deliveries(&self) -> StoreResult<Backlog>;
}
