//! The port contract: what every implementation of the storage ports must do, written once
//! and run against each of them (the in-memory fakes here, SQLite and PostgreSQL in
//! `adapter-db`'s tests), so that the fakes the rules are tested on cannot drift from the
//! real adapters. Enabled by the `contract` feature; checks panic on a broken promise.

/// A table of checks, each `"name" => an async fn of its subject`.
macro_rules! checks {
    ($($name:literal => $check:path),* $(,)?) => {
        &[$(($name, |subject| Box::pin($check(subject)))),*]
    };
}

pub mod files;
pub mod limits;
mod screening;
mod signals;
mod verifications;
mod webhooks;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use time::OffsetDateTime;
use time::macros::datetime;

use crate::audit::{AuditAction, AuditEntry, AuditKind, Auditor};
use crate::document::{Document, DocumentStatus, Evidence, FileType, Side, StoredFile};
use crate::event::{Activity, Event};
use crate::ids::UserId;
use crate::merchant::{
    ApiKey, ApiKeyId, KeyAccess, Merchant, MerchantId, MerchantSettings, RetentionDays,
    SecretString,
};
use crate::note::{Note, NoteText};
use crate::outbox::Entry;
use crate::paging::Page;
use crate::ports::{
    AuditLog, DocumentRepository, IdentityIndex, MerchantRepository, NoteRepository,
    ProfileRepository, ProfileWrite, QuizRepository, ScreeningStore, SessionRepository,
    SignalStore, StoreError, Subscriptions, TemplateRepository, UserRepository,
    VerificationRepository, WebhookRepository,
};
use crate::profile::{
    AttributesPatch, DateOfBirth, Email, Patch, PhoneNumber, Profile, ProfileChanges,
    ProfileFilter, ProfileId, ProfileKey, ProfileStatus, ShortText, Ssn, SubmittedFormFields,
};
use crate::quiz::{Quiz, QuizLink, RedirectUrl, TemplateSnapshot, UploadLimits};
use crate::session::{Session, SessionToken};
use crate::template::{Feature, FeatureList, FeatureSet, Requirement, Template};
use crate::user::{PasswordHash, Role, TotpSecret, User};

/// Every port an implementation provides, on one fresh, empty store.
#[derive(Clone)]
pub struct Ports {
    /// Merchants and their keys.
    pub merchants: Arc<dyn MerchantRepository>,
    /// Profiles and the activity log.
    pub profiles: Arc<dyn ProfileRepository>,
    /// Stored templates.
    pub templates: Arc<dyn TemplateRepository>,
    /// Quizzes and what clients hand in.
    pub quizzes: Arc<dyn QuizRepository>,
    /// Documents.
    pub documents: Arc<dyn DocumentRepository>,
    /// Notes.
    pub notes: Arc<dyn NoteRepository>,
    /// Dashboard users (beside `merchants`, whose keys they make).
    pub users: Arc<dyn UserRepository>,
    /// Dashboard sessions and counted sign-in attempts (of `users`).
    pub sessions: Arc<dyn SessionRepository>,
    /// What each merchant's enabled endpoints listen to (over `webhooks`).
    pub subscriptions: Arc<dyn Subscriptions>,
    /// Verifications and their queue.
    pub verifications: Arc<dyn VerificationRepository>,
    /// The blind index of identity values.
    pub identities: Arc<dyn IdentityIndex>,
    /// Webhook endpoints, their deliveries and the worker's claims.
    pub webhooks: Arc<dyn WebhookRepository>,
    /// The audit trail.
    pub audit: Arc<dyn AuditLog>,
    /// Lists and screenings (of `profiles`).
    pub screening: Arc<dyn ScreeningStore>,
    /// What is kept of profiles' images (of `profiles`).
    pub signals: Arc<dyn SignalStore>,
}

debug_as_name!(Ports);

/// One promise of a contract, run on a fresh `S` (ports, a store, a limiter).
pub type CheckOn<S> = fn(S) -> Pin<Box<dyn Future<Output = ()> + Send>>;

/// One promise of the contract, run on fresh ports.
pub type Check = CheckOn<Ports>;

/// Two sets of ports on one storage, as two servers on one database see it: what one
/// keeps, blocks or deletes of the signals, the other's next read sees.
pub async fn signals_across_servers(one: Ports, other: Ports) {
    signals::across_servers(one, other).await;
}

/// Every check, by a name that reads as the promise.
pub const CHECKS: &[(&str, Check)] = checks![
    "profiles_are_unique_per_merchant_by_email_and_by_mobile" => unique_profiles,
    "a_stale_profile_update_is_a_conflict" => stale_update,
    "profile_delete_erases_everything_and_names_the_files" => profile_delete,
    "completed_steps_of_two_writers_are_both_kept" => steps_merge,
    "submitted_fields_merge_field_by_field" => fields_merge,
    "quiz_state_changes_happen_once" => state_once,
    "an_extended_quiz_opens_again_unless_submitted_or_deleted" => extension,
    "a_submitted_quiz_takes_no_more_fields_or_documents" => nothing_after_submission,
    "documents_past_the_limits_are_refused" => document_limits,
    "documents_belong_to_their_profile" => document_scope,
    "a_side_uploaded_again_replaces_the_earlier_one" => document_replaced,
    "merchant_keys_and_settings" => merchant_keys,
    "a_profiles_quizzes_are_its_own_and_live" => quiz_scope,
    "templates_belong_to_their_merchant" => template_scope,
    "lists_are_newest_first_with_counts" => newest_first,
    "the_log_keeps_events_as_written_without_subjects" => log_as_written,
    "searches_find_by_name_email_mobile_status_and_id" => search,
    "searches_follow_renames_and_deletions" => search_after_changes,
    "a_merchant_holds_at_most_its_enabled_keys" => key_limit,
    "a_keys_access_is_kept" => key_access,
    "disabling_a_user_disables_the_keys_it_made" => users_and_their_keys,
    "sessions_carry_their_users_role_and_end_with_the_user" => sessions_of_users,
    "sign_in_attempts_are_counted_in_turn_and_withdrawn" => attempts_in_turn,
    "the_audit_trail_is_per_merchant_in_order" => audit_in_order,
    "retention_erases_the_personal_data_of_profiles_due_once" => retention,
    "webhooks_belong_to_their_merchant_within_its_limit" => webhooks::endpoints,
    "deliveries_go_with_their_endpoint" => webhooks::deliveries_follow_their_endpoint,
    "a_due_delivery_goes_to_one_claimer_a_merchant_a_few_at_once" => webhooks::claims,
    "subscriptions_are_the_enabled_endpoints_and_what_they_want" => webhooks::subscriptions,
    "a_queued_verification_goes_to_one_claimer_until_completed" => verifications::queue_and_claims,
    "the_identity_index_counts_the_merchants_other_holders" => verifications::identities,
    "a_list_import_replaces_its_entries_at_once" => screening::imports,
    "a_screening_is_the_profiles_latest_and_goes_with_it" => screening::latest,
    "due_profiles_are_unscreened_stale_or_screened_on_other_lists" => screening::due,
    "the_rescreening_lease_has_one_holder_at_a_time" => screening::lease,
    "kept_signals_are_the_merchants_other_profiles_and_its_blocked_faces" => signals::kept_per_merchant,
    "a_profiles_signals_go_with_it_when_deleted_or_erased" => signals::gone_with_the_profile,
];

const NOW: OffsetDateTime = datetime!(2026-11-22 10:00 UTC);

fn merchant(id: &str) -> Merchant {
    Merchant {
        id: MerchantId::new(id),
        name: format!("Merchant {id}"),
        settings: MerchantSettings::default(),
        created_at: NOW,
    }
}

fn key_of(merchant: &Merchant, key: &str) -> ApiKey {
    ApiKey {
        key: key.into(),
        merchant_id: merchant.id.clone(),
        secret: SecretString::from(format!("sec-{key}")),
        enabled: true,
        compat_signature: false,
        allowed_networks: Vec::new(),
        access: KeyAccess::Full,
        created_at: NOW,
        created_by: None,
    }
}

/// A merchant with one key, stored; returns its id.
async fn seed_merchant(p: &Ports, id: &str) -> MerchantId {
    let m = merchant(id);
    p.merchants
        .create(&m, &key_of(&m, &format!("key-{id}")))
        .await
        .expect("merchant stored");
    m.id
}

fn profile(merchant: &MerchantId, id: &str, email: &str, mobile: &str) -> Profile {
    let key = ProfileKey {
        email: Email::parse(email).expect("valid"),
        mobile: PhoneNumber::parse(mobile).expect("valid"),
    };
    let changes = ProfileChanges {
        first_name: ShortText::parse("Ada").expect("valid"),
        last_name: ShortText::parse("Lovelace").expect("valid"),
        attributes: AttributesPatch::default(),
    };
    Profile::create(ProfileId::new(id), merchant.clone(), key, changes, NOW).expect("valid")
}

/// The verification a submission of `quiz` queues.
fn queued(quiz: &Quiz, id: &str) -> crate::verification::Verification {
    crate::verification::Verification::queued(
        id.into(),
        &quiz.merchant_id,
        &quiz.profile_id,
        &quiz.id,
        NOW,
    )
}

/// An outbox entry of `event` that owes no delivery.
fn entry(event: Event) -> Entry {
    Entry {
        event,
        deliveries: Vec::new(),
    }
}

fn event(id: &str, p: &Profile) -> Event {
    Event::about(id.into(), p, Activity::ProfileCreated, "created", NOW)
}

/// A stored profile; `email` must be unique in the check (the mobile follows from it).
async fn seed_profile(p: &Ports, merchant: &MerchantId, id: &str, email: &str) -> Profile {
    let n: usize = email
        .bytes()
        .enumerate()
        .map(|(i, b)| (i + 1) * usize::from(b))
        .sum();
    let mobile = format!("41655{:05}", n % 100_000);
    let profile = profile(merchant, id, email, &mobile);
    p.profiles
        .insert(&profile, &entry(event(&format!("ev-{id}"), &profile)))
        .await
        .expect("profile stored");
    profile
}

fn quiz(client: &Profile, id: &str) -> Quiz {
    let mut list = FeatureList::default();
    for step in [
        Feature::PassportUpload,
        Feature::AddressSubmit,
        Feature::SsnSubmit,
    ] {
        list.set(step, Requirement::Required);
    }
    Quiz {
        id: id.into(),
        merchant_id: client.merchant_id.clone(),
        profile_id: client.id.clone(),
        token: format!("token{id}").into(),
        code: format!("code{id}").into(),
        template: TemplateSnapshot {
            template_id: None,
            name: "Custom".into(),
            list,
            created_at: NOW,
        },
        expiry_days: Default::default(),
        created_at: NOW,
        expires_at: NOW + time::Duration::days(5),
        expired_at: None,
        submitted_at: None,
        deleted_at: None,
        opened_at: None,
        completed: FeatureSet::default(),
        // Every stored quiz must give it back as it was.
        redirect_url: Some(RedirectUrl::stored(
            "https://shop.example/back?order=7#done",
        )),
    }
}

/// A client with a quiz, stored; returns both.
async fn seed_quiz(p: &Ports, merchant: &MerchantId, id: &str) -> (Profile, Quiz) {
    let client = seed_profile(p, merchant, &format!("p{id}"), &format!("{id}@example.com")).await;
    let quiz = quiz(&client, id);
    let created = Event::about(
        format!("ev-q{id}").into(),
        &client,
        Activity::QuizCreated,
        "",
        NOW,
    );
    // The client exists already: the quiz's profile write is an update of it.
    let mut updated = client.clone();
    updated.revision += 1;
    p.quizzes
        .create(
            &ProfileWrite::Update(updated.clone()),
            &quiz,
            &[entry(created.clone())],
        )
        .await
        .expect("quiz stored");
    (updated, quiz)
}

fn document(client: &Profile, quiz: &Quiz, id: &str, files: &[(&str, u64)]) -> Document {
    let files = files
        .iter()
        .map(|(file_id, size)| StoredFile {
            file_id: (*file_id).into(),
            file_name: "id.jpg".into(),
            file_type: FileType::Jpeg,
            size_bytes: *size,
            sha256: "00".repeat(32),
            side: None,
        })
        .collect();
    Document {
        id: id.into(),
        merchant_id: client.merchant_id.clone(),
        profile_id: client.id.clone(),
        quiz_id: quiz.id.clone(),
        step: Feature::PassportUpload,
        status: DocumentStatus::Pending,
        evidence: Evidence::Files(files),
        read: Vec::new(),
        created_at: NOW,
        updated_at: NOW,
    }
}

fn uploaded(id: &str, client: &Profile) -> Event {
    Event::about(id.into(), client, Activity::DocumentUploaded, "", NOW)
}

async fn log_as_written(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let client = seed_profile(&p, &m, "p1", "ada@example.com").await;
    let written = event("ev-p1", &client);
    assert!(
        written.subject.is_some(),
        "events are made with their subject"
    );
    let log = p
        .profiles
        .events(&client.id, page(10))
        .await
        .expect("log read");
    let kept = Event {
        subject: None,
        ..written
    };
    assert_eq!(
        log.items,
        [kept],
        "the subject is for deliveries, not the log"
    );
}

async fn search(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let other = seed_merchant(&p, "m2").await;
    seed_profile(&p, &m, "p1", "ada@example.com").await;
    let mut grace = profile(&m, "p2", "grace@example.com", "2125550188");
    grace.last_name = ShortText::parse("Hopper").expect("valid");
    grace.status = crate::profile::ProfileStatus::Approved;
    p.profiles
        .insert(&grace, &entry(event("ev-p2", &grace)))
        .await
        .expect("stored");
    seed_profile(&p, &other, "p3", "ada.other@example.com").await;
    let find = |text: Option<&str>, status| {
        let filter = ProfileFilter {
            text: text.map(str::to_owned),
            status,
        };
        let (p, m) = (p.clone(), m.clone());
        async move {
            let found = p
                .profiles
                .search(&m, &filter, page(10))
                .await
                .expect("searched");
            let ids: Vec<String> = found
                .items
                .iter()
                .map(|x| x.id.as_str().to_owned())
                .collect();
            (ids, found.total_count, found.filtered)
        }
    };
    assert_eq!(
        find(None, None).await,
        (vec!["p2".into(), "p1".into()], 2, 2)
    );
    assert_eq!(
        find(Some(" LOVElace "), None).await,
        (vec!["p1".into()], 2, 1),
        "name, any case"
    );
    assert_eq!(find(Some("GRACE@"), None).await.0, ["p2"], "e-mail");
    // Around the `@`: the end of a local part, the start of a domain (PostgreSQL looks
    // such a needle up by its local part, reversed).
    assert_eq!(find(Some("ce@exa"), None).await.0, ["p2"], "across the @");
    assert_eq!(
        find(Some("a@example.com"), None).await.0,
        ["p1"],
        "a whole ending"
    );
    assert_eq!(
        find(Some("ada@example.com"), None).await.0,
        ["p1"],
        "a whole e-mail"
    );
    assert_eq!(
        find(Some("@example.com"), None).await.0,
        ["p2", "p1"],
        "a domain"
    );
    assert_eq!(
        find(Some("ad@example.com"), None).await.0,
        Vec::<String>::new(),
        "not the end of a local part"
    );
    assert_eq!(
        find(Some("a@e@x"), None).await.0,
        Vec::<String>::new(),
        "two @"
    );
    assert_eq!(
        find(Some("_a@"), None).await.0,
        Vec::<String>::new(),
        "_ before an @ is itself"
    );
    assert_eq!(find(Some("5550188"), None).await.0, ["p2"], "mobile");
    assert_eq!(
        find(Some("2125550188"), None).await.0,
        ["p2"],
        "a whole mobile"
    );
    assert_eq!(
        find(Some("ada hop"), None).await.0,
        ["p2"],
        "first and last name"
    );
    assert_eq!(
        find(Some("%"), None).await.0,
        Vec::<String>::new(),
        "% is itself"
    );
    assert_eq!(
        find(Some("_"), None).await.0,
        Vec::<String>::new(),
        "_ is itself"
    );
    let approved = Some(crate::profile::ProfileStatus::Approved);
    assert_eq!(
        find(None, approved).await,
        (vec!["p2".into()], 2, 1),
        "status"
    );
    assert_eq!(
        find(Some("lovelace"), approved).await.0,
        Vec::<String>::new(),
        "both"
    );
}

/// A search index (the adapters keep one) follows every write: a renamed client is found
/// by the new name only, a deleted one no more; quotes and short needles are text.
async fn search_after_changes(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let other = seed_merchant(&p, "m2").await;
    let ada = seed_profile(&p, &m, "p1", "ada@example.com").await;
    let grace = seed_profile(&p, &m, "p2", "grace@example.com").await;
    seed_profile(&p, &other, "p3", "grace.other@example.com").await;
    let find = |text: &str| {
        let filter = ProfileFilter {
            text: Some(text.to_owned()),
            status: None,
        };
        let (p, m) = (p.clone(), m.clone());
        async move {
            let found = p.profiles.search(&m, &filter, page(10)).await;
            let found = found.expect("searched");
            let ids: Vec<String> = found
                .items
                .iter()
                .map(|x| x.id.as_str().to_owned())
                .collect();
            (ids, found.filtered)
        }
    };
    assert_eq!(find("grace").await, (vec!["p2".into()], 1), "own merchant");
    let mut renamed = ada.clone();
    renamed.last_name = ShortText::parse("Byron").expect("valid");
    renamed.revision += 1;
    p.profiles
        .update(&renamed, &entry(event("ev-rename", &renamed)))
        .await
        .expect("renamed");
    assert_eq!(find("byron").await, (vec!["p1".into()], 1), "the new name");
    assert_eq!(
        find("lovelace").await.1,
        1,
        "Grace keeps hers, Ada's is gone"
    );
    assert_eq!(
        find("ada byr").await.0,
        ["p1"],
        "across first and last name"
    );
    let tombstone = Event {
        profile_id: None,
        ..Event::about("ev-gone".into(), &grace, Activity::ProfileDeleted, "", NOW)
    };
    p.profiles
        .delete(&grace, &entry(tombstone))
        .await
        .expect("deleted");
    assert_eq!(find("grace").await, (Vec::new(), 0), "deleted");
    let listed = p.profiles.list(&m, page(10)).await.expect("listed");
    assert_eq!(listed.total_count, 1, "the count follows the deletion");
    let elsewhere = p.profiles.list(&other, page(10)).await.expect("listed");
    assert_eq!(elsewhere.total_count, 1, "another merchant's count apart");
    assert_eq!(find("ad").await.0, ["p1"], "under three characters");
    assert_eq!(
        find("ada\"").await.0,
        Vec::<String>::new(),
        "a quote is text"
    );
    assert_eq!(find("\"ada\"").await.0, Vec::<String>::new());
    assert_eq!(find("a@example.c").await.0, ["p1"], "inside the e-mail");
}

fn page(limit: i64) -> Page {
    Page::new(0, limit).expect("valid page")
}

async fn unique_profiles(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let other = seed_merchant(&p, "m2").await;
    seed_profile(&p, &m, "p1", "ada@example.com").await;
    let same_email = profile(&m, "p2", "ADA@example.com", "4165550199");
    let taken_mobile = p.profiles.list(&m, page(1)).await.expect("read").items[0]
        .key
        .mobile
        .clone();
    let same_mobile = profile(&m, "p3", "bob@example.com", taken_mobile.as_str());
    for taken in [same_email, same_mobile] {
        let result = p
            .profiles
            .insert(&taken, &entry(event("ev-x", &taken)))
            .await;
        assert!(matches!(result, Err(StoreError::Duplicate)), "{result:?}");
    }
    let elsewhere = profile(&other, "p4", "ada@example.com", taken_mobile.as_str());
    p.profiles
        .insert(&elsewhere, &entry(event("ev-4", &elsewhere)))
        .await
        .expect("the same pair under another merchant is another profile");
    let key = elsewhere.key.clone();
    let found = p
        .profiles
        .find(&m, &key)
        .await
        .expect("read")
        .expect("found");
    assert_eq!(found.id.as_str(), "p1", "each merchant sees its own");
}

async fn stale_update(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let stored = seed_profile(&p, &m, "p1", "ada@example.com").await;
    let mut first = stored.clone();
    first.revision += 1;
    p.profiles
        .update(&first, &entry(event("ev-2", &first)))
        .await
        .expect("first writer");
    let mut second = stored;
    second.revision += 1;
    let result = p
        .profiles
        .update(&second, &entry(event("ev-3", &second)))
        .await;
    assert!(matches!(result, Err(StoreError::Conflict)), "{result:?}");
    let ghost = profile(&m, "nobody", "no@example.com", "4165550100");
    let mut ghost = ghost;
    ghost.revision += 1;
    let result = p
        .profiles
        .update(&ghost, &entry(event("ev-4", &ghost)))
        .await;
    assert!(matches!(result, Err(StoreError::Missing)), "{result:?}");
}

async fn profile_delete(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let (client, quiz) = seed_quiz(&p, &m, "q1").await;
    let doc = document(&client, &quiz, "d1", &[("F1", 10), ("F2", 20)]);
    p.quizzes
        .add_document(
            &quiz,
            &doc,
            &entry(uploaded("ev-d1", &client)),
            UploadLimits::default(),
        )
        .await
        .expect("document stored");
    let tombstone = Event {
        profile_id: None,
        ..Event::about("ev-del".into(), &client, Activity::ProfileDeleted, "", NOW)
    };
    let mut files = p
        .profiles
        .delete(&client, &entry(tombstone.clone()))
        .await
        .expect("deleted");
    files.sort();
    assert_eq!(files, ["F1".into(), "F2".into()], "the files to remove");
    assert!(
        p.profiles
            .find(&m, &client.key)
            .await
            .expect("read")
            .is_none()
    );
    let events = p.profiles.events(&client.id, page(50)).await.expect("read");
    assert_eq!(events.total_count, 0, "its events are gone");
    assert!(
        p.quizzes
            .find_live(&QuizLink::Token(quiz.token))
            .await
            .expect("read")
            .is_none()
    );
    assert!(!p.documents.file_in_use(&"F1".into()).await.expect("read"));
    let again = p.profiles.delete(&client, &entry(tombstone.clone())).await;
    assert!(matches!(again, Err(StoreError::Missing)), "{again:?}");
}

/// `client` stored with a new status set at `at` (and an SSN), its revision bumped.
async fn decide(p: &Ports, client: &Profile, status: ProfileStatus, at: OffsetDateTime) -> Profile {
    let mut decided = client.clone();
    let mut changes = ProfileChanges::none_to(client);
    changes.attributes.ssn = Patch::Set(Ssn::parse("123456789").expect("valid"));
    changes.attributes.date_of_birth = Patch::Set(DateOfBirth::parse("1990-01-02").expect("valid"));
    decided.apply(changes, at).expect("valid");
    decided.set_status(status, at);
    decided.revision += 1;
    let changed = Event::about(
        format!("ev-s{}", client.id.as_str()).into(),
        &decided,
        Activity::ProfileStatusChanged,
        "",
        at,
    );
    p.profiles
        .update(&decided, &entry(changed))
        .await
        .expect("decided");
    decided
}

async fn retention(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let thirty = RetentionDays::new(30).expect("valid");
    let long_ago = NOW - time::Duration::days(40);
    let (client, quiz) = seed_quiz(&p, &m, "q1").await;
    let typed = SubmittedFormFields {
        ssn: Some(Ssn::parse("987654321").expect("valid")),
        address: Some("1 Main St, Toronto, ON M5V 2T6, CA".into()),
        created_at: NOW,
        updated_at: NOW,
        ..SubmittedFormFields::default()
    };
    p.quizzes
        .save_fields(
            &quiz,
            &client.id,
            &typed,
            &entry(event("ev-typed", &client)),
        )
        .await
        .expect("typed");
    let doc = document(&client, &quiz, "d1", &[("F1", 10), ("F2", 20)]);
    p.quizzes
        .add_document(
            &quiz,
            &doc,
            &entry(uploaded("ev-d1", &client)),
            UploadLimits::default(),
        )
        .await
        .expect("document stored");
    let client = p
        .profiles
        .find(&m, &client.key)
        .await
        .expect("read")
        .expect("found");
    let due = decide(&p, &client, ProfileStatus::Approved, long_ago).await;
    let pending = seed_profile(&p, &m, "p-pending", "pending@example.com").await;
    decide(&p, &pending, ProfileStatus::Pending, long_ago).await;
    let recent = seed_profile(&p, &m, "p-recent", "recent@example.com").await;
    decide(
        &p,
        &recent,
        ProfileStatus::Declined,
        NOW - time::Duration::days(29),
    )
    .await;
    let other = seed_merchant(&p, "m2").await;
    let theirs = seed_profile(&p, &other, "p-theirs", "theirs@example.com").await;
    decide(&p, &theirs, ProfileStatus::Declined, long_ago).await;

    let found = p
        .profiles
        .due_for_erasure(&m, thirty, NOW, 10)
        .await
        .expect("read");
    assert_eq!(found.iter().map(|f| &f.id).collect::<Vec<_>>(), [&due.id]);
    assert_eq!(found[0].status_changed_at, long_ago, "kept as stored");

    let mut erased = due.clone();
    erased.erase_personal_data(NOW);
    erased.revision += 1;
    // Logs sort by id: this one sorts after every `ev-` before it.
    let erasure = Event::about(
        "ez-erased".into(),
        &erased,
        Activity::PersonalDataErased,
        "",
        NOW,
    );
    let mut files = p
        .profiles
        .erase_personal_data(&erased, &entry(erasure.clone()))
        .await
        .expect("erased");
    files.sort();
    assert_eq!(files, ["F1".into(), "F2".into()], "the files to remove");
    let stored = p
        .profiles
        .find(&m, &due.key)
        .await
        .expect("read")
        .expect("the row stays");
    assert_eq!(
        stored, erased,
        "sealed values and typed fields gone, the rest kept"
    );
    assert_eq!((stored.attributes.ssn, stored.submitted), (None, None));
    let documents = p.documents.list(&due.id, page(10)).await.expect("read");
    assert_eq!(documents.total_count, 1, "the document stays");
    assert_eq!(documents.items[0].evidence, Evidence::Files(Vec::new()));
    assert_eq!(documents.items[0].status, DocumentStatus::Pending);
    assert!(!p.documents.file_in_use(&"F1".into()).await.expect("read"));
    let log = p.profiles.events(&due.id, page(50)).await.expect("read");
    assert_eq!(log.items[0].activity, Activity::PersonalDataErased);
    assert!(
        log.total_count >= 5,
        "earlier events kept: {}",
        log.total_count
    );

    let found = p
        .profiles
        .due_for_erasure(&m, thirty, NOW, 10)
        .await
        .expect("read");
    assert!(found.is_empty(), "erased once: {found:?}");
    let stale = p
        .profiles
        .erase_personal_data(&erased, &entry(erasure))
        .await;
    assert!(matches!(stale, Err(StoreError::Conflict)), "{stale:?}");
    let found = p
        .profiles
        .due_for_erasure(&other, thirty, NOW, 10)
        .await
        .expect("read");
    assert_eq!(found.len(), 1, "each merchant's own");
}

async fn steps_merge(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let (client, quiz) = seed_quiz(&p, &m, "q1").await;
    // Two requests read the quiz at once, each completes a different step.
    let (mut a, mut b) = (quiz.clone(), quiz.clone());
    a.completed.insert(Feature::AddressSubmit);
    let fields = SubmittedFormFields {
        address: Some("1 Main St, Toronto, ON M5V 2T6, CA".into()),
        created_at: NOW,
        updated_at: NOW,
        ..SubmittedFormFields::default()
    };
    let submitted = Event::about(
        "ev-f".into(),
        &client,
        Activity::FormFieldsSubmitted,
        "",
        NOW,
    );
    p.quizzes
        .save_fields(&a, &client.id, &fields, &entry(submitted.clone()))
        .await
        .expect("fields stored");
    b.completed.insert(Feature::PassportUpload);
    let doc = document(&client, &b, "d1", &[("F1", 10)]);
    p.quizzes
        .add_document(
            &b,
            &doc,
            &entry(uploaded("ev-d", &client)),
            UploadLimits::default(),
        )
        .await
        .expect("document stored");
    let stored = p
        .quizzes
        .find_live(&QuizLink::Token(quiz.token))
        .await
        .expect("read")
        .expect("found")
        .quiz;
    assert!(
        stored.completed.contains(Feature::AddressSubmit),
        "the first writer's step"
    );
    assert!(
        stored.completed.contains(Feature::PassportUpload),
        "the second writer's step"
    );
}

async fn fields_merge(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let (client, quiz) = seed_quiz(&p, &m, "q1").await;
    let post = |fields: SubmittedFormFields, id: &str| {
        let (p, quiz, client) = (p.clone(), quiz.clone(), client.clone());
        let id = id.to_owned();
        async move {
            let e = Event::about(id.into(), &client, Activity::FormFieldsSubmitted, "", NOW);
            p.quizzes
                .save_fields(&quiz, &client.id, &fields, &entry(e.clone()))
                .await
                .expect("fields stored");
        }
    };
    post(
        SubmittedFormFields {
            address: Some("1 Main St".into()),
            created_at: NOW,
            updated_at: NOW,
            ..SubmittedFormFields::default()
        },
        "ev-1",
    )
    .await;
    let later = NOW + time::Duration::minutes(1);
    post(
        SubmittedFormFields {
            ssn: Some(crate::profile::Ssn::parse("123456789").expect("valid")),
            created_at: later,
            updated_at: later,
            ..SubmittedFormFields::default()
        },
        "ev-2",
    )
    .await;
    let stored = p
        .profiles
        .find(&m, &client.key)
        .await
        .expect("read")
        .expect("found");
    let s = stored.submitted.expect("submitted fields");
    assert_eq!(s.address.as_deref(), Some("1 Main St"), "kept");
    assert_eq!(s.ssn.as_ref().map(|s| s.as_str()), Some("123456789"));
    assert_eq!(s.created_at, NOW, "the first submission's time");
    assert_eq!(s.updated_at, later);
}

/// A state change made twice: the first succeeds, the second (only run after it) is
/// refused as `refusal` says.
async fn once(
    first: impl Future<Output = Result<(), StoreError>>,
    second: impl Future<Output = Result<(), StoreError>>,
    refusal: fn(&StoreError) -> bool,
    what: &str,
) {
    first
        .await
        .unwrap_or_else(|e| panic!("first {what}: {e:?}"));
    let again = second.await;
    assert!(
        again.as_ref().err().is_some_and(refusal),
        "second {what}: {again:?}"
    );
}

async fn state_once(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let (client, mut quiz) = seed_quiz(&p, &m, "q1").await;
    let twice = |a: Activity| {
        let e = |n: u8| Event::about(format!("ev-{a:?}-{n}").into(), &client, a, "", NOW);
        (e(1), e(2))
    };
    let conflict = |e: &StoreError| matches!(e, StoreError::Conflict);
    let missing = |e: &StoreError| matches!(e, StoreError::Missing);
    quiz.opened_at = Some(NOW);
    quiz.submitted_at = Some(NOW);
    quiz.expired_at = Some(NOW);
    quiz.deleted_at = Some(NOW);
    let (q, qs) = (&quiz, &p.quizzes);
    let (a, b) = twice(Activity::QuizOpened);
    once(
        qs.mark_opened(q, &entry(a.clone())),
        qs.mark_opened(q, &entry(b.clone())),
        conflict,
        "opening",
    )
    .await;
    let (a, b) = twice(Activity::QuizSubmitted);
    let (va, vb) = (queued(q, "v-a"), queued(q, "v-b"));
    once(
        qs.mark_submitted(q, &entry(a.clone()), &va),
        qs.mark_submitted(q, &entry(b.clone()), &vb),
        conflict,
        "submission",
    )
    .await;
    // An expiry after the submission is still recorded, once.
    let (a, b) = twice(Activity::QuizExpired);
    once(
        qs.mark_expired(q, &entry(a.clone())),
        qs.mark_expired(q, &entry(b.clone())),
        conflict,
        "expiry",
    )
    .await;
    let (a, b) = twice(Activity::QuizDeleted);
    once(
        qs.mark_deleted(q, &entry(a.clone())),
        qs.mark_deleted(q, &entry(b.clone())),
        missing,
        "deletion",
    )
    .await;
    let link = QuizLink::Code(quiz.code.clone());
    assert!(p.quizzes.find_live(&link).await.expect("read").is_none());
    assert!(p.quizzes.find(&m, &link).await.expect("read").is_none());
}

async fn extension(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let (client, mut quiz) = seed_quiz(&p, &m, "q1").await;
    let event = |id: &str| {
        entry(Event::about(
            id.into(),
            &client,
            Activity::QuizExtended,
            "",
            NOW,
        ))
    };
    let read_before = quiz.clone();
    quiz.expired_at = Some(NOW);
    p.quizzes
        .mark_expired(
            &quiz,
            &entry(Event::about(
                "ev-x".into(),
                &client,
                Activity::QuizExpired,
                "",
                NOW,
            )),
        )
        .await
        .expect("expired");
    let mut extended = read_before.clone();
    extended
        .extend(
            crate::merchant::QuizExpiryDays::new(30).expect("valid"),
            NOW,
        )
        .expect("open");
    p.quizzes
        .mark_extended(&extended, &event("ev-e1"))
        .await
        .expect("extended");
    let link = QuizLink::Code(quiz.code.clone());
    let stored = p
        .quizzes
        .find(&m, &link)
        .await
        .expect("read")
        .expect("found")
        .quiz;
    assert_eq!(
        stored, extended,
        "expiry moved, early end undone, nothing else changed"
    );

    // Submitted meanwhile: the extension is refused in its own transaction.
    let mut submitted = stored.clone();
    submitted.submitted_at = Some(NOW);
    p.quizzes
        .mark_submitted(
            &submitted,
            &entry(Event::about(
                "ev-s".into(),
                &client,
                Activity::QuizSubmitted,
                "",
                NOW,
            )),
            &queued(&submitted, "v-s"),
        )
        .await
        .expect("submitted");
    let late = p.quizzes.mark_extended(&extended, &event("ev-e2")).await;
    assert!(matches!(late, Err(StoreError::Conflict)), "{late:?}");

    let (other_client, other) = seed_quiz(&p, &m, "q2").await;
    let mut deleted = other.clone();
    deleted.deleted_at = Some(NOW);
    p.quizzes
        .mark_deleted(
            &deleted,
            &entry(Event::about(
                "ev-d".into(),
                &other_client,
                Activity::QuizDeleted,
                "",
                NOW,
            )),
        )
        .await
        .expect("deleted");
    let late = p.quizzes.mark_extended(&other, &event("ev-e3")).await;
    assert!(matches!(late, Err(StoreError::Missing)), "{late:?}");

    let events = p
        .profiles
        .events(&client.id, Page::new(0, 50).expect("page"))
        .await
        .expect("events");
    let ids: Vec<&str> = events
        .items
        .iter()
        .filter(|e| e.activity == Activity::QuizExtended)
        .map(|e| e.id.as_str())
        .collect();
    assert_eq!(
        ids,
        ["ev-e1"],
        "only the extension that was stored is logged"
    );
}

async fn nothing_after_submission(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let (client, mut quiz) = seed_quiz(&p, &m, "q1").await;
    let submitted = Event::about("ev-s".into(), &client, Activity::QuizSubmitted, "", NOW);
    // The submission is stored by another request: this one still holds the quiz as it
    // read it, not submitted.
    let read_before = quiz.clone();
    quiz.submitted_at = Some(NOW);
    p.quizzes
        .mark_submitted(&quiz, &entry(submitted.clone()), &queued(&quiz, "v-1"))
        .await
        .expect("submitted");
    let fields = SubmittedFormFields {
        ssn: Some(crate::profile::Ssn::parse("123456789").expect("valid")),
        created_at: NOW,
        updated_at: NOW,
        ..SubmittedFormFields::default()
    };
    let e = Event::about(
        "ev-f".into(),
        &client,
        Activity::FormFieldsSubmitted,
        "",
        NOW,
    );
    let late = p
        .quizzes
        .save_fields(&read_before, &client.id, &fields, &entry(e.clone()))
        .await;
    assert!(matches!(late, Err(StoreError::Conflict)), "{late:?}");
    let doc = document(&client, &read_before, "d1", &[("F1", 10)]);
    let late = p
        .quizzes
        .add_document(
            &read_before,
            &doc,
            &entry(uploaded("ev-d", &client)),
            UploadLimits::default(),
        )
        .await;
    assert!(matches!(late, Err(StoreError::Conflict)), "{late:?}");
    let stored = p
        .profiles
        .find(&m, &client.key)
        .await
        .expect("read")
        .expect("found");
    assert!(stored.submitted.is_none(), "no field written");
    assert!(
        !p.documents.file_in_use(&"F1".into()).await.expect("read"),
        "no document written"
    );
    let events = p
        .profiles
        .events(&client.id, Page::new(0, 50).expect("page"))
        .await
        .expect("events");
    assert!(
        events
            .items
            .iter()
            .all(|e| e.activity != Activity::FormFieldsSubmitted
                && e.activity != Activity::DocumentUploaded),
        "no event of a refused write"
    );
}

async fn document_limits(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let (client, quiz) = seed_quiz(&p, &m, "q1").await;
    let limits = UploadLimits {
        max_documents: 2,
        max_bytes: 100,
    };
    let add = |id: &str, file: &str, size| {
        let doc = document(&client, &quiz, id, &[(file, size)]);
        let (p, quiz, client) = (p.clone(), quiz.clone(), client.clone());
        let event = uploaded(&format!("ev-{id}"), &client);
        async move {
            p.quizzes
                .add_document(&quiz, &doc, &entry(event.clone()), limits)
                .await
        }
    };
    add("d1", "F1", 60).await.expect("within the limits");
    let too_big = add("d2", "F2", 41).await;
    assert!(
        matches!(too_big, Err(StoreError::LimitReached)),
        "{too_big:?}"
    );
    add("d3", "F3", 40)
        .await
        .expect("exactly at the byte limit");
    let usage = p.quizzes.usage(&quiz).await.expect("read");
    assert_eq!((usage.documents, usage.bytes), (2, 100));
    let one_more = add("d4", "F4", 0).await;
    assert!(
        matches!(one_more, Err(StoreError::LimitReached)),
        "{one_more:?}"
    );
    assert!(
        !p.documents.file_in_use(&"F2".into()).await.expect("read"),
        "nothing of a refusal is kept"
    );
}

async fn document_replaced(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let (client, quiz) = seed_quiz(&p, &m, "q1").await;
    // Three documents at most: a side sent again takes its own place among those the
    // quiz holds, and counts as one more the link added.
    let limits = UploadLimits {
        max_documents: 3,
        max_bytes: 1000,
    };
    let add = |id: &str, step: Feature, side: Option<Side>| {
        let mut doc = document(&client, &quiz, id, &[(&format!("F-{id}"), 30)]);
        doc.step = step;
        if let Evidence::Files(files) = &mut doc.evidence {
            files.iter_mut().for_each(|f| f.side = side);
        }
        let (p, quiz, event) = (
            p.clone(),
            quiz.clone(),
            uploaded(&format!("ev-{id}"), &client),
        );
        async move {
            p.quizzes
                .add_document(&quiz, &doc, &entry(event), limits)
                .await
        }
    };
    let licence = Feature::DriverLicenceUpload;
    let first = add("d1", licence, Some(Side::Front)).await.expect("front");
    assert!(first.is_empty(), "nothing replaced: {first:?}");
    add("d2", licence, Some(Side::Back)).await.expect("back");
    let replaced = add("d3", licence, Some(Side::Front))
        .await
        .expect("the front again, the third the link added");
    assert_eq!(replaced, vec!["F-d1".into()]);
    let in_use = |id: &'static str| {
        let p = p.clone();
        async move { p.documents.file_in_use(&id.into()).await.expect("read") }
    };
    assert!(
        !in_use("F-d1").await,
        "the replaced front's file is no longer named"
    );
    assert!(in_use("F-d2").await && in_use("F-d3").await);
    let found = |id: &'static str| {
        let (p, profile) = (p.clone(), client.id.clone());
        async move { p.documents.find(&profile, &id.into()).await.expect("read") }
    };
    assert!(found("d1").await.is_none(), "the replaced front is gone");
    assert_eq!(found("d3").await.and_then(|d| d.side()), Some(Side::Front));
    let usage = p.quizzes.usage(&quiz).await.expect("read");
    assert_eq!(
        (usage.documents, usage.bytes),
        (3, 90),
        "what the link added"
    );
    let again = add("d4", licence, Some(Side::Front)).await;
    assert!(
        matches!(again, Err(StoreError::LimitReached)),
        "the front a third time: {again:?}"
    );
    assert_eq!(
        found("d3").await.and_then(|d| d.side()),
        Some(Side::Front),
        "kept"
    );
}

async fn document_scope(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let (client, quiz) = seed_quiz(&p, &m, "q1").await;
    let (other, _) = seed_quiz(&p, &m, "q2").await;
    let doc = document(&client, &quiz, "d1", &[("F1", 10)]);
    p.quizzes
        .add_document(
            &quiz,
            &doc,
            &entry(uploaded("ev-d1", &client)),
            UploadLimits::default(),
        )
        .await
        .expect("stored");
    let found = p
        .documents
        .find(&client.id, &"d1".into())
        .await
        .expect("read");
    assert_eq!(
        found.as_ref().map(|d| d.step),
        Some(Feature::PassportUpload)
    );
    assert_eq!(
        found.map(|d| d.files().to_vec()),
        Some(doc.files().to_vec())
    );
    assert!(
        p.documents
            .find(&other.id, &"d1".into())
            .await
            .expect("read")
            .is_none()
    );
    assert!(p.documents.file_in_use(&"F1".into()).await.expect("read"));
    let stranger = seed_merchant(&p, "m2").await;
    let of_merchant = |merchant: MerchantId| {
        let documents = p.documents.clone();
        async move {
            documents
                .find_of_merchant(&merchant, &"d1".into())
                .await
                .expect("read")
                .map(|d| d.id)
        }
    };
    assert_eq!(of_merchant(m.clone()).await, Some("d1".into()));
    assert_eq!(of_merchant(stranger).await, None, "another merchant's");
    let mut reviewed = doc.clone();
    reviewed.status = DocumentStatus::Approved;
    let e = Event::about(
        "ev-s".into(),
        &client,
        Activity::DocumentStatusChanged,
        "",
        NOW,
    );
    p.documents
        .update_status(&reviewed, &entry(e.clone()))
        .await
        .expect("updated");
    let stored = p
        .documents
        .find(&client.id, &"d1".into())
        .await
        .expect("read")
        .expect("found");
    assert_eq!(stored.status, DocumentStatus::Approved);
    let e = Event::about("ev-x".into(), &client, Activity::DocumentDeleted, "", NOW);
    p.documents
        .delete(&doc, &entry(e.clone()))
        .await
        .expect("deleted");
    assert!(!p.documents.file_in_use(&"F1".into()).await.expect("read"));
    let again = p.documents.delete(&doc, &entry(e.clone())).await;
    assert!(matches!(again, Err(StoreError::Missing)), "{again:?}");
}

async fn merchant_keys(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let found = p
        .merchants
        .find_key(&"key-m1".into())
        .await
        .expect("read")
        .expect("found");
    assert!(found.enabled);
    let second = key_of(&merchant("m1"), "key-second");
    p.merchants.add_key(&second, 20).await.expect("added");
    p.merchants
        .set_key_enabled(&"key-m1".into(), false)
        .await
        .expect("disabled");
    let found = p
        .merchants
        .find_key(&"key-m1".into())
        .await
        .expect("read")
        .expect("found");
    assert!(!found.enabled);
    let net = "10.0.0.0/8".parse().expect("cidr");
    p.merchants
        .set_key_networks(&"key-second".into(), &[net])
        .await
        .expect("limited");
    let found = p
        .merchants
        .find_key(&"key-second".into())
        .await
        .expect("read")
        .expect("found");
    assert_eq!(found.allowed_networks, [net]);
    let listed: Vec<String> = p
        .merchants
        .keys(&m)
        .await
        .expect("read")
        .into_iter()
        .map(|k| k.key.to_string())
        .collect();
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert!(listed.contains(&"key-m1".to_owned()) && listed.contains(&"key-second".to_owned()));
    let other = seed_merchant(&p, "m2").await;
    let theirs = p.merchants.keys(&other).await.expect("read");
    assert_eq!(
        theirs.iter().map(|k| k.key.as_str()).collect::<Vec<_>>(),
        ["key-m2"]
    );
    for missing in [
        p.merchants.set_key_enabled(&"key-none".into(), true).await,
        p.merchants.set_key_networks(&"key-none".into(), &[]).await,
        p.merchants
            .add_key(&key_of(&merchant("nobody"), "key-x"), 20)
            .await,
    ] {
        assert!(matches!(missing, Err(StoreError::Missing)), "{missing:?}");
    }
    // Every setting is kept as saved, the policy's choices included.
    let settings = MerchantSettings {
        quiz_expiry_days: crate::merchant::QuizExpiryDays::new(9).expect("valid"),
        minimum_age: crate::verification::MinimumAge::new(21).expect("valid"),
        policy: crate::verification::Policy::parse([
            ("name_mismatch", "decline"),
            ("ssn_invalid", "review"),
        ])
        .expect("valid"),
        auto_decision: true,
        default_language: crate::merchant::Language::Fr,
        retention_days: Some(crate::merchant::RetentionDays::new(3650).expect("valid")),
        proof_of_address_max_age: crate::verification::proof_of_address::MaxAge::new(365)
            .expect("valid"),
        screening: crate::watchlist::ScreeningSettings {
            on: true,
            lists: ["ofac-sdn", "internal.vip"]
                .into_iter()
                .map(|n| crate::watchlist::ListName::parse(n).expect("name"))
                .collect(),
            threshold: crate::watchlist::Threshold::new(85).expect("valid"),
        },
        face_search: true,
    };
    p.merchants
        .save_settings(&m, &settings)
        .await
        .expect("saved");
    let stored = p.merchants.find(&m).await.expect("read").expect("found");
    assert_eq!(stored.settings, settings);
}

async fn key_limit(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    seed_merchant(&p, "m2").await;
    let add = |name: &'static str| {
        let merchants = p.merchants.clone();
        async move { merchants.add_key(&key_of(&merchant("m1"), name), 3).await }
    };
    add("key-a").await.expect("second of 3");
    add("key-b").await.expect("third of 3");
    let refused = add("key-c").await;
    assert!(
        matches!(refused, Err(StoreError::LimitReached)),
        "{refused:?}"
    );
    p.merchants
        .set_key_enabled(&"key-a".into(), false)
        .await
        .expect("disabled");
    add("key-c").await.expect("a disabled key does not count");
    let keys = p.merchants.keys(&m).await.expect("read");
    assert_eq!(keys.len(), 4);
    p.merchants
        .add_key(&key_of(&merchant("m2"), "key-other"), 3)
        .await
        .expect("another merchant's count is its own");
}

async fn key_access(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let read_only = ApiKey {
        access: KeyAccess::ReadOnly,
        ..key_of(&merchant("m1"), "key-reader")
    };
    p.merchants.add_key(&read_only, 20).await.expect("added");
    let found = p
        .merchants
        .find_key(&"key-reader".into())
        .await
        .expect("read");
    assert_eq!(found.map(|k| k.access), Some(KeyAccess::ReadOnly));
    let found = p.merchants.find_key(&"key-m1".into()).await.expect("read");
    assert_eq!(found.map(|k| k.access), Some(KeyAccess::Full));
    let listed: Vec<(String, KeyAccess)> = p
        .merchants
        .keys(&m)
        .await
        .expect("read")
        .into_iter()
        .map(|k| (k.key.to_string(), k.access))
        .collect();
    assert_eq!(
        listed,
        [
            ("key-m1".to_owned(), KeyAccess::Full),
            ("key-reader".to_owned(), KeyAccess::ReadOnly)
        ]
    );
}

fn user(merchant: &MerchantId, id: &str, email: &str, role: Role) -> User {
    User {
        id: UserId::new(id),
        merchant_id: merchant.clone(),
        email: Email::parse(email).expect("valid"),
        password_hash: PasswordHash::new("$argon2id$stand-in"),
        role,
        enabled: true,
        totp: None,
        created_at: NOW,
    }
}

async fn users_and_their_keys(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let admin = user(&m, "u1", "admin@example.com", Role::Admin);
    p.users.insert(&admin).await.expect("stored");
    let twin = user(&m, "u2", "ADMIN@example.com", Role::Reviewer);
    let dup = p.users.insert(&twin).await;
    assert!(matches!(dup, Err(StoreError::Duplicate)), "{dup:?}");
    let mut made = key_of(&merchant("m1"), "key-made");
    made.created_by = Some(admin.id.clone());
    p.merchants.add_key(&made, 20).await.expect("added");
    let found = p
        .users
        .find_by_email(&admin.email)
        .await
        .expect("read")
        .expect("found");
    assert_eq!(found.role, Role::Admin);
    assert!(found.totp.is_none());
    let secret = TotpSecret::new("JBSWY3DPEHPK3PXP");
    p.users
        .set_totp(&admin.email, Some(&secret))
        .await
        .expect("set");
    let found = p.users.find_by_email(&admin.email).await.expect("read");
    let stored = found.and_then(|u| u.totp).expect("a second factor");
    assert_eq!(stored.expose(), secret.expose());

    // A code's step is spent once; an earlier step after a later one is stale; another
    // user's steps are their own; a new second factor starts afresh.
    let spend = |user: &User, step: u64| {
        let users = p.users.clone();
        let id = user.id.clone();
        async move { users.spend_code(&id, step).await.expect("spent") }
    };
    let other = user(&m, "u3", "other@example.com", Role::Reviewer);
    p.users.insert(&other).await.expect("stored");
    assert!(spend(&admin, 100).await, "a first code");
    assert!(!spend(&admin, 100).await, "the same code again");
    assert!(!spend(&admin, 99).await, "an older code after a newer one");
    assert!(spend(&other, 100).await, "another user's code");
    assert!(spend(&admin, 101).await, "the next step");
    p.users
        .set_totp(&admin.email, Some(&secret))
        .await
        .expect("set again");
    assert!(
        spend(&admin, 101).await,
        "a new second factor forgets spent steps"
    );

    let disabled = p
        .users
        .set_enabled(&admin.email, false)
        .await
        .expect("disabled");
    assert_eq!(disabled, [ApiKeyId::new("key-made")]);
    let key = p
        .merchants
        .find_key(&"key-made".into())
        .await
        .expect("read");
    assert!(!key.expect("kept").enabled, "the user's key died with it");
    let cli_key = p.merchants.find_key(&"key-m1".into()).await.expect("read");
    assert!(cli_key.expect("kept").enabled, "the CLI's key lives on");
    let missing = p
        .users
        .set_enabled(&Email::parse("none@example.com").expect("valid"), false)
        .await;
    assert!(matches!(missing, Err(StoreError::Missing)), "{missing:?}");
}

async fn sessions_of_users(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let admin = user(&m, "u1", "admin@example.com", Role::Admin);
    p.users.insert(&admin).await.expect("stored");
    let token = SessionToken::new("token-1");
    let session = Session {
        user_id: admin.id.clone(),
        merchant_id: m.clone(),
        email: admin.email.clone(),
        role: Role::Reviewer,
        csrf_token: "csrf".into(),
        created_at: NOW,
        last_seen_at: NOW,
    };
    p.sessions.insert(&token, &session).await.expect("stored");
    let found = p.sessions.find(&token).await.expect("read").expect("found");
    assert_eq!(
        found.role,
        Role::Admin,
        "the role is the user's, as it is now"
    );
    assert_eq!(found.created_at, NOW);
    p.users
        .set_enabled(&admin.email, false)
        .await
        .expect("disabled");
    assert!(p.sessions.find(&token).await.expect("read").is_none());
}

async fn attempts_in_turn(p: Ports) {
    let keys = ["address:a".to_owned(), "user:u@a".to_owned()];
    let since = NOW - time::Duration::minutes(15);
    let first = p
        .sessions
        .begin_attempt("t1", &keys, NOW, since)
        .await
        .expect("counted");
    let none: Vec<OffsetDateTime> = Vec::new();
    assert_eq!(first, [none.clone(), none.clone()]);
    let second = p
        .sessions
        .begin_attempt("t2", &keys[..1], NOW, since)
        .await
        .expect("counted");
    assert_eq!(second, [vec![NOW]], "the first is seen");
    p.sessions.withdraw_attempt("t1").await.expect("withdrawn");
    let third = p
        .sessions
        .begin_attempt("t3", &keys, NOW, since)
        .await
        .expect("counted");
    assert_eq!(third, [vec![NOW], none.clone()], "t1 withdrawn, t2 kept");
    let later = p
        .sessions
        .begin_attempt(
            "t4",
            &keys,
            NOW + time::Duration::minutes(16),
            NOW + time::Duration::minutes(1),
        )
        .await
        .expect("counted");
    assert_eq!(later, [none.clone(), none], "old attempts no longer count");
}

async fn audit_in_order(p: Ports) {
    let m1 = seed_merchant(&p, "m1").await;
    let m2 = seed_merchant(&p, "m2").await;
    let entry = |id: &str, merchant: &MerchantId, action, minutes: i64| AuditEntry {
        id: id.into(),
        merchant_id: merchant.clone(),
        auditor: Auditor::User(
            UserId::new("u1"),
            Email::parse("admin@example.com").expect("valid"),
        ),
        action,
        subject: "key-x".into(),
        address: "203.0.113.7".into(),
        at: NOW + time::Duration::minutes(minutes),
    };
    let first = entry("a1", &m1, AuditAction::SignedIn, 0);
    let mut second = entry("a2", &m1, AuditAction::KeyCreated, 1);
    second.auditor = Auditor::Cli;
    second.address = String::new();
    let third = entry("a3", &m1, AuditAction::SignedOut, 2);
    for e in [
        &first,
        &second,
        &third,
        &entry("b1", &m2, AuditAction::SignedIn, 1),
    ] {
        p.audit.append(e).await.expect("stored");
    }
    let latest = p
        .audit
        .latest(&m1, AuditKind::Actions, 2)
        .await
        .expect("read");
    assert_eq!(latest, [third.clone(), second.clone()]);
    let since = p
        .audit
        .since(&m1, NOW + time::Duration::minutes(1), None, 10)
        .await
        .expect("read");
    assert_eq!(since, [second.clone(), third.clone()]);
    let page = p.audit.since(&m1, NOW, Some("a1"), 1).await.expect("read");
    assert_eq!(page, [second.clone()]);
    // Refused sign-ins are read apart: a flood of them leaves the actions in sight.
    let refused = entry("a4", &m1, AuditAction::SignInFailed, 3);
    p.audit.append(&refused).await.expect("stored");
    let actions = p
        .audit
        .latest(&m1, AuditKind::Actions, 2)
        .await
        .expect("read");
    assert_eq!(actions, [third.clone(), second.clone()]);
    let refusals = p
        .audit
        .latest(&m1, AuditKind::Refusals, 5)
        .await
        .expect("read");
    assert_eq!(refusals, [refused]);
}

async fn quiz_scope(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let (client, first) = seed_quiz(&p, &m, "q1").await;
    let (other, _) = seed_quiz(&p, &m, "q2").await;
    let second = quiz(&client, "q3");
    let sent = Event::about("ev-q3".into(), &client, Activity::QuizCreated, "", NOW);
    let mut updated = client.clone();
    updated.revision += 1;
    p.quizzes
        .create(
            &ProfileWrite::Update(updated.clone()),
            &second,
            &[entry(sent.clone())],
        )
        .await
        .expect("second quiz stored");
    let ids = |profile: ProfileId| {
        let quizzes = p.quizzes.clone();
        async move {
            let listed = quizzes
                .list_of_profile(&profile, page(10))
                .await
                .expect("read");
            let ids: Vec<String> = listed.items.iter().map(|q| q.id.to_string()).collect();
            (ids, listed.total_count)
        }
    };
    assert_eq!(
        ids(client.id.clone()).await,
        (vec!["q3".to_owned(), "q1".to_owned()], 2)
    );
    assert_eq!(ids(other.id.clone()).await, (vec!["q2".to_owned()], 1));
    let by_id = p
        .quizzes
        .find_by_id(&m, &"q3".into())
        .await
        .expect("read")
        .map(|found| (found.quiz.id, found.client.id));
    assert_eq!(by_id, Some(("q3".into(), client.id.clone())));
    let stranger = seed_merchant(&p, "m2").await;
    assert!(
        p.quizzes
            .find_by_id(&stranger, &"q3".into())
            .await
            .expect("read")
            .is_none(),
        "another merchant's"
    );
    let mut gone = first.clone();
    gone.deleted_at = Some(NOW);
    let deleted = Event::about("ev-q1x".into(), &client, Activity::QuizDeleted, "", NOW);
    p.quizzes
        .mark_deleted(&gone, &entry(deleted.clone()))
        .await
        .expect("deleted");
    assert_eq!(
        ids(client.id.clone()).await,
        (vec!["q3".to_owned()], 1),
        "a deleted quiz is not listed"
    );
    let deleted = p.quizzes.find_by_id(&m, &"q1".into()).await.expect("read");
    assert!(deleted.is_none(), "a deleted quiz is not found");
}

async fn template_scope(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let other = seed_merchant(&p, "m2").await;
    let mut list = FeatureList::default();
    list.set(Feature::SelfieUpload, Requirement::Optional);
    let template = Template {
        id: "t1".into(),
        merchant_id: m.clone(),
        name: "KYC".into(),
        list,
        created_at: NOW,
        updated_at: NOW,
    };
    p.templates.insert(&template).await.expect("stored");
    assert_eq!(
        p.templates.find(&m, &"t1".into()).await.expect("read"),
        Some(template.clone())
    );
    assert_eq!(
        p.templates.find(&other, &"t1".into()).await.expect("read"),
        None
    );
    let ghost = Template {
        id: "t-none".into(),
        ..template
    };
    let result = p.templates.update(&ghost).await;
    assert!(matches!(result, Err(StoreError::Missing)), "{result:?}");
}

async fn newest_first(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let ada = seed_profile(&p, &m, "p1", "ada@example.com").await;
    let bob = profile(&m, "p2", "bob@example.com", "4165550999");
    p.profiles
        .insert(&bob, &entry(event("ev-p2", &bob)))
        .await
        .expect("stored");
    let listed = p
        .profiles
        .list(&m, Page::new(0, 1).expect("page"))
        .await
        .expect("read");
    assert_eq!(listed.total_count, 2);
    assert_eq!(
        listed
            .items
            .iter()
            .map(|p| p.id.as_str())
            .collect::<Vec<_>>(),
        ["p2"]
    );
    for (i, text) in ["first", "second"].into_iter().enumerate() {
        let note = Note {
            id: format!("n{i}").into(),
            merchant_id: m.clone(),
            profile_id: ada.id.clone(),
            text: NoteText::parse(text).expect("valid"),
            created_at: NOW,
        };
        // Ids sort by creation, as ULIDs do: these come after the profile's `ev-p1`.
        let e = Event::about(
            format!("ew-n{i}").into(),
            &ada,
            Activity::NoteCreated,
            "",
            NOW,
        );
        p.notes
            .insert(&note, &entry(e.clone()))
            .await
            .expect("stored");
    }
    let notes = p.notes.list(&ada.id, page(10)).await.expect("read");
    assert_eq!(notes.total_count, 2);
    let texts: Vec<&str> = notes.items.iter().map(|n| n.text.as_str()).collect();
    assert_eq!(texts, ["second", "first"]);
    let events = p.profiles.events(&ada.id, page(10)).await.expect("read");
    let activities: Vec<Activity> = events.items.iter().map(|e| e.activity).collect();
    assert_eq!(
        activities,
        [
            Activity::NoteCreated,
            Activity::NoteCreated,
            Activity::ProfileCreated
        ]
    );
}

/// Runs every check on fresh ports from `fresh`, each under its name; panics naming every
/// check that failed.
pub fn run_all(
    fresh: impl FnMut() -> Ports,
    block_on: impl Fn(Pin<Box<dyn Future<Output = ()> + Send>>),
) {
    run_each(CHECKS, fresh, block_on);
}

/// Runs each of `checks` on a fresh subject from `fresh`, each under its name; panics
/// naming every check that failed.
fn run_each<S>(
    checks: &[(&str, CheckOn<S>)],
    mut fresh: impl FnMut() -> S,
    block_on: impl Fn(Pin<Box<dyn Future<Output = ()> + Send>>),
) {
    let mut failed = Vec::new();
    for (name, check) in checks {
        let subject = fresh();
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| block_on(check(subject))));
        if outcome.is_err() {
            failed.push(*name);
        }
    }
    assert!(failed.is_empty(), "broken promises: {failed:?}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{
        MemoryAudit, MemoryDocuments, MemoryIdentityIndex, MemoryMerchants, MemoryNotes,
        MemoryProfiles, MemoryQuizzes, MemoryScreening, MemorySessions, MemorySignals,
        MemoryTemplates, MemoryUsers, MemoryVerifications, MemoryWebhooks,
    };

    fn memory_ports() -> Ports {
        let data = Arc::new(MemoryProfiles::default());
        let merchants = Arc::new(MemoryMerchants::default());
        let users = Arc::new(MemoryUsers::new(merchants.clone()));
        let webhooks = Arc::new(MemoryWebhooks::new(data.clone()));
        Ports {
            merchants,
            sessions: Arc::new(MemorySessions::new(users.clone())),
            users,
            audit: Arc::new(MemoryAudit::default()),
            profiles: data.clone(),
            templates: Arc::new(MemoryTemplates::default()),
            quizzes: Arc::new(MemoryQuizzes::new(data.clone())),
            documents: Arc::new(MemoryDocuments(data.clone())),
            webhooks: webhooks.clone(),
            subscriptions: webhooks,
            verifications: Arc::new(MemoryVerifications(data.clone())),
            identities: Arc::new(MemoryIdentityIndex::default()),
            screening: Arc::new(MemoryScreening::new(data.clone())),
            signals: Arc::new(MemorySignals::new(data.clone())),
            notes: Arc::new(MemoryNotes(data)),
        }
    }

    #[test]
    fn the_memory_adapters_keep_the_port_contract() {
        run_all(memory_ports, futures_executor::block_on);
    }

    #[test]
    fn memory_signals_are_one_store_for_every_server() {
        // Memory is one store, whoever reads it: both servers are the same ports.
        let ports = memory_ports();
        futures_executor::block_on(signals_across_servers(ports.clone(), ports));
    }
}
