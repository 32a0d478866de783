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

mod audit;
pub mod devices;
mod documents;
pub mod files;
pub mod limits;
mod merchants;
mod notes;
mod profiles;
mod quizzes;
mod screening;
mod sessions;
mod signals;
mod templates;
mod users;
mod verifications;
mod webhooks;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use time::OffsetDateTime;
use time::macros::datetime;

use crate::document::{Document, DocumentStatus, Evidence, FileType, StoredFile};
use crate::event::{Activity, Event};
use crate::ids::UserId;
use crate::merchant::{ApiKey, KeyAccess, Merchant, MerchantId, MerchantSettings, SecretString};
use crate::outbox::Entry;
use crate::paging::Page;
use crate::ports::{
    AuditLog, DocumentRepository, IdentityIndex, MerchantRepository, NoteRepository,
    ProfileRepository, ProfileWrite, QuizRepository, ScreeningStore, SessionRepository,
    SignalStore, Subscriptions, TemplateRepository, UserRepository, VerificationRepository,
    WebhookRepository,
};
use crate::profile::{
    AttributesPatch, Email, PhoneNumber, Profile, ProfileChanges, ProfileId, ProfileKey, ShortText,
};
use crate::quiz::{Quiz, RedirectUrl, TemplateSnapshot};
use crate::template::{Feature, FeatureList, FeatureSet, Requirement};
use crate::user::{PasswordHash, Role, User};

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
    "profiles_are_unique_per_merchant_by_email_and_by_mobile" => profiles::unique_profiles,
    "a_stale_profile_update_is_a_conflict" => profiles::stale_update,
    "profile_delete_erases_everything_and_names_the_files" => profiles::profile_delete,
    "completed_steps_of_two_writers_are_both_kept" => quizzes::steps_merge,
    "submitted_fields_merge_field_by_field" => quizzes::fields_merge,
    "quiz_state_changes_happen_once" => quizzes::state_once,
    "an_extended_quiz_opens_again_unless_submitted_or_deleted" => quizzes::extension,
    "a_submitted_quiz_takes_no_more_fields_or_documents" => quizzes::nothing_after_submission,
    "documents_past_the_limits_are_refused" => documents::document_limits,
    "documents_belong_to_their_profile" => documents::document_scope,
    "a_side_uploaded_again_replaces_the_earlier_one" => documents::document_replaced,
    "merchant_keys_and_settings" => merchants::merchant_keys,
    "a_profiles_quizzes_are_its_own_and_live" => quizzes::quiz_scope,
    "templates_belong_to_their_merchant" => templates::template_scope,
    "lists_are_newest_first_with_counts" => notes::newest_first,
    "the_log_keeps_events_as_written_without_subjects" => profiles::log_as_written,
    "searches_find_by_name_email_mobile_status_and_id" => profiles::search,
    "searches_follow_renames_and_deletions" => profiles::search_after_changes,
    "a_merchant_holds_at_most_its_enabled_keys" => merchants::key_limit,
    "a_keys_access_is_kept" => merchants::key_access,
    "disabling_a_user_disables_the_keys_it_made" => users::users_and_their_keys,
    "sessions_carry_their_users_role_and_end_with_the_user" => sessions::sessions_of_users,
    "sign_in_attempts_are_counted_in_turn_and_withdrawn" => sessions::attempts_in_turn,
    "the_audit_trail_is_per_merchant_in_order" => audit::audit_in_order,
    "retention_erases_the_personal_data_of_profiles_due_once" => profiles::retention,
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

fn page(limit: i64) -> Page {
    Page::new(0, limit).expect("valid page")
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
