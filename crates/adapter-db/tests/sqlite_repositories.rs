//! The repositories against a real SQLite file: how driver errors reach the domain, and
//! what concurrent writers leave behind. (PostgreSQL runs the same code through the
//! end-to-end tests in `crates/app/tests/e2e`.)

use std::sync::Arc;

use adapter_db::{Database, Vault};
use domain::OffsetDateTime;
use domain::event::{Activity, Event};
use domain::merchant::{
    ApiKey, ExposeSecret, KeyAccess, Merchant, MerchantId, MerchantSettings, SecretString,
};
use domain::outbox::{Entry, Outbox};
use domain::paging::Page;
use domain::ports::{
    IdGenerator, MerchantRepository, ProfileRepository, StoreError, Subscriptions,
};
use domain::profile::{
    AttributesPatch, Email, PhoneNumber, Profile, ProfileChanges, ProfileId, ProfileKey, ShortText,
};
use domain::webhook::{EventFilter, Webhook, WebhookSecret, WebhookUrl};

struct Fixture {
    db: Database,
    merchant: MerchantId,
    _dir: tempfile::TempDir,
}

fn now() -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(1_795_000_000).expect("valid")
}

async fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("idv.sqlite3");
    let db =
        Database::open(&path.display().to_string(), Arc::new(Vault::new(&[7; 32]))).expect("open");
    db.migrate(now().unix_timestamp()).expect("migrations");
    let merchant = Merchant {
        id: MerchantId::new("m1"),
        name: "Acme".into(),
        settings: MerchantSettings::default(),
        created_at: now(),
    };
    let key = ApiKey {
        key: "key-1".into(),
        merchant_id: merchant.id.clone(),
        secret: SecretString::from("sec-1"),
        enabled: true,
        compat_signature: false,
        allowed_networks: Vec::new(),
        access: KeyAccess::Full,
        created_at: now(),
        created_by: None,
    };
    MerchantRepository::create(&db, &merchant, &key)
        .await
        .expect("merchant");
    Fixture {
        db,
        merchant: merchant.id,
        _dir: dir,
    }
}

fn profile(f: &Fixture, id: &str, email: &str, mobile: &str) -> Profile {
    let key = ProfileKey {
        email: Email::parse(email).expect("valid"),
        mobile: PhoneNumber::parse(mobile).expect("valid"),
    };
    let changes = ProfileChanges {
        first_name: ShortText::parse("Ada").expect("valid"),
        last_name: ShortText::parse("Lovelace").expect("valid"),
        attributes: AttributesPatch::default(),
    };
    Profile::create(ProfileId::new(id), f.merchant.clone(), key, changes, now()).expect("valid")
}

/// The entry of a profile's creation, owing no delivery.
fn event(id: &str, p: &Profile) -> Entry {
    Entry {
        event: Event::about(id.into(), p, Activity::ProfileCreated, "created", now()),
        deliveries: Vec::new(),
    }
}

fn endpoint(f: &Fixture, id: &str, events: EventFilter) -> Webhook {
    Webhook {
        id: id.into(),
        merchant_id: f.merchant.clone(),
        url: WebhookUrl::stored("https://example.com/hook"),
        events,
        description: String::new(),
        enabled: true,
        secret: WebhookSecret::stored("whsec_c2VjcmV0"),
        previous_secret: None,
        created_at: now(),
        updated_at: now(),
    }
}

#[tokio::test]
async fn an_entry_is_stored_with_its_deliveries_and_an_endpoint_gone_meanwhile_is_owed_nothing() {
    use domain::ports::WebhookRepository;
    let f = fixture().await;
    let notes = EventFilter::parse(&["note_created"]).expect("known");
    for hook in [
        endpoint(&f, "w-all", EventFilter::default()),
        endpoint(&f, "w-gone", EventFilter::default()),
        endpoint(&f, "w-notes", notes),
    ] {
        WebhookRepository::insert(&f.db, &hook, 16)
            .await
            .expect("endpoint");
    }
    let mut subscribed = f.db.subscriptions(&f.merchant).await.expect("read");
    subscribed.sort_by(|a, b| a.webhook_id.as_str().cmp(b.webhook_id.as_str()));
    let ids: Vec<&str> = subscribed.iter().map(|s| s.webhook_id.as_str()).collect();
    assert_eq!(ids, ["w-all", "w-gone", "w-notes"]);
    assert!(!subscribed[2].wants(Activity::ProfileCreated));

    // The domain decides what the creation owes, then one endpoint is deleted before the
    // change is written.
    let ada = profile(&f, "p1", "ada@example.com", "4165550123");
    let outbox = Outbox::new(Arc::new(f.db.clone()), Arc::new(Counter::default()));
    let entry = outbox
        .entry(Event::about(
            "e1".into(),
            &ada,
            Activity::ProfileCreated,
            "created",
            now(),
        ))
        .await
        .expect("entry");
    let owed: Vec<&str> = entry
        .deliveries
        .iter()
        .map(|d| d.webhook_id.as_str())
        .collect();
    assert_eq!(owed, ["w-all", "w-gone"]);
    WebhookRepository::delete(&f.db, &f.merchant, &"w-gone".into())
        .await
        .expect("deleted");
    ProfileRepository::insert(&f.db, &ada, &entry)
        .await
        .expect("stored");

    let page = Page::new(0, 10).expect("page");
    let kept = f.db.deliveries(&"w-all".into(), page).await.expect("read");
    assert_eq!(kept.items.len(), 1);
    assert_eq!(kept.items[0].event_id, entry.event.id);
    assert_eq!(kept.items[0].id, entry.deliveries[0].id, "the domain's id");
    let gone = f.db.deliveries(&"w-gone".into(), page).await.expect("read");
    assert!(gone.items.is_empty());
    let log = f.db.events(&ada.id, page).await.expect("read");
    assert_eq!(
        log.items.len(),
        1,
        "the event is kept whatever its endpoints"
    );
    // What the delivery will send opens again, naming the profile.
    let due =
        f.db.claim_due(now(), now() + time::Duration::seconds(30), 10, 4)
            .await
            .expect("claimed");
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].notification.email_address, "ada@example.com");
}

/// Delivery ids, in order.
#[derive(Default)]
struct Counter(std::sync::atomic::AtomicU64);

impl IdGenerator for Counter {
    fn next_id(&self) -> String {
        let n = self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        format!("d{n}")
    }
}

#[tokio::test]
async fn a_secret_is_stored_sealed_and_read_back_whole() {
    let f = fixture().await;
    let key = MerchantRepository::find_key(&f.db, &"key-1".into())
        .await
        .expect("read")
        .expect("exists");
    assert_eq!(key.secret.expose_secret(), "sec-1");
    let wrong_vault = Database::open(
        &f._dir.path().join("idv.sqlite3").display().to_string(),
        Arc::new(Vault::new(&[8; 32])),
    )
    .expect("open");
    let err = MerchantRepository::find_key(&wrong_vault, &"key-1".into())
        .await
        .expect_err("another master key");
    assert!(matches!(err, StoreError::Internal(_)));
    let refused = wrong_vault
        .migrate(now().unix_timestamp())
        .expect_err("the database knows its key");
    assert!(
        refused
            .to_string()
            .contains("is not the key of this database"),
        "{refused}"
    );
}

#[tokio::test]
async fn a_taken_email_or_mobile_is_a_duplicate_and_nothing_is_written() {
    let f = fixture().await;
    let ada = profile(&f, "p1", "ada@example.com", "4165550123");
    f.db.insert(&ada, &event("e1", &ada))
        .await
        .expect("inserted");
    for (id, email, mobile) in [
        ("p2", "ADA@example.com", "4165550999"),
        ("p3", "bob@example.com", "4165550123"),
    ] {
        let other = profile(&f, id, email, mobile);
        let err =
            f.db.insert(&other, &event(&format!("e-{id}"), &other))
                .await
                .expect_err("taken");
        assert!(matches!(err, StoreError::Duplicate), "{err:?}");
    }
    let page = ProfileRepository::list(&f.db, &f.merchant, Page::default())
        .await
        .expect("list");
    assert_eq!(page.total_count, 1);
    let events = f.db.events(&ada.id, Page::default()).await.expect("events");
    assert_eq!(events.total_count, 1, "the refused inserts left no event");
}

#[tokio::test]
async fn a_write_from_a_stale_revision_is_a_conflict() {
    let f = fixture().await;
    let mut ada = profile(&f, "p1", "ada@example.com", "4165550123");
    f.db.insert(&ada, &event("e1", &ada))
        .await
        .expect("inserted");
    let mut stale = ada.clone();
    ada.revision += 1;
    f.db.update(&ada, &event("e2", &ada))
        .await
        .expect("first writer wins");
    stale.revision += 1;
    let err =
        f.db.update(&stale, &event("e3", &stale))
            .await
            .expect_err("second writer read an old revision");
    assert!(matches!(err, StoreError::Conflict));
    let mut gone = profile(&f, "nobody", "eve@example.com", "4165550100");
    gone.revision = 1;
    assert!(matches!(
        f.db.update(&gone, &event("e4", &gone)).await,
        Err(StoreError::Missing)
    ));
}

#[tokio::test]
async fn concurrent_inserts_of_one_client_leave_one_profile() {
    let f = fixture().await;
    let db = Arc::new(f.db.clone());
    let tasks: Vec<_> = (0..10)
        .map(|i| {
            let db = db.clone();
            let p = profile(&f, &format!("p{i}"), "ada@example.com", "4165550123");
            tokio::spawn(async move { db.insert(&p, &event(&format!("e{i}"), &p)).await })
        })
        .collect();
    let mut ok = 0;
    for task in tasks {
        match task.await.expect("task") {
            Ok(()) => ok += 1,
            Err(StoreError::Duplicate) => {}
            Err(e) => panic!("unexpected {e:?}"),
        }
    }
    assert_eq!(ok, 1);
    assert_eq!(
        ProfileRepository::list(&f.db, &f.merchant, Page::default())
            .await
            .expect("list")
            .total_count,
        1
    );
}

/// Runs SQL on the fixture's file behind the repositories' back, as an older version or
/// an onlooker with the file would.
fn raw(f: &Fixture, sql: &str) -> Vec<String> {
    use diesel::{Connection, RunQueryDsl, SqliteConnection, sql_query, sql_types::Text};
    #[derive(diesel::QueryableByName)]
    struct Cell {
        #[diesel(sql_type = diesel::sql_types::Nullable<Text>)]
        value: Option<String>,
    }
    let path = f._dir.path().join("idv.sqlite3");
    let mut conn = SqliteConnection::establish(&path.display().to_string()).expect("raw");
    if sql.starts_with("SELECT") {
        let cells: Vec<Cell> = sql_query(sql).load(&mut conn).expect("select");
        cells
            .into_iter()
            .map(|c| c.value.unwrap_or_default())
            .collect()
    } else {
        sql_query(sql).execute(&mut conn).expect("statement");
        Vec::new()
    }
}

#[tokio::test]
async fn values_stored_in_clear_by_an_older_version_are_sealed_on_migration() {
    let f = fixture().await;
    let ada = profile(&f, "p1", "ada@example.com", "4165550123");
    f.db.insert(&ada, &event("e1", &ada))
        .await
        .expect("inserted");
    let sealed = raw(&f, "SELECT ssn AS value FROM profiles");
    assert_eq!(sealed, [""], "no SSN yet");
    // What a version before sealing left: a clear SSN, and no record of the sealing.
    raw(
        &f,
        "UPDATE profiles SET ssn = '123456789', date_of_birth = '1970-01-02'",
    );
    raw(&f, "DELETE FROM data_migrations");
    f.db.migrate(now().unix_timestamp())
        .expect("migrated again");
    let stored = raw(&f, "SELECT ssn AS value FROM profiles");
    assert!(
        stored[0].starts_with(&format!("k{}:", f.db.master_key_fingerprint()))
            && !stored[0].contains("123456789"),
        "{stored:?}"
    );
    let key = ada.key.clone();
    let read = ProfileRepository::find(&f.db, &f.merchant, &key)
        .await
        .expect("read")
        .expect("exists");
    assert_eq!(
        read.attributes
            .ssn
            .map(|s| s.as_str().to_owned())
            .as_deref(),
        Some("123456789")
    );
    assert_eq!(
        read.attributes
            .date_of_birth
            .map(|d| d.to_string())
            .as_deref(),
        Some("1970-01-02")
    );
    // Once done, it is not done again: a sealed value is not sealed twice.
    f.db.migrate(now().unix_timestamp())
        .expect("migrated a third time");
    assert_eq!(raw(&f, "SELECT ssn AS value FROM profiles"), stored);
}

#[tokio::test]
async fn a_database_from_before_fingerprints_refuses_a_key_that_does_not_open_its_secrets() {
    let f = fixture().await;
    // An older version kept no fingerprint: the key is judged by the API secrets it sealed.
    raw(&f, "DELETE FROM master_key");
    let path = f._dir.path().join("idv.sqlite3").display().to_string();
    let wrong = Database::open(&path, Arc::new(Vault::new(&[8; 32]))).expect("open");
    let refused = wrong
        .migrate(now().unix_timestamp())
        .expect_err("not this database's key");
    assert!(
        refused
            .to_string()
            .contains("does not open the API secrets"),
        "{refused}"
    );
    assert!(
        raw(&f, "SELECT fingerprint AS value FROM master_key").is_empty(),
        "nothing recorded"
    );
    f.db.migrate(now().unix_timestamp())
        .expect("the right key is accepted and recorded");
    assert_eq!(
        raw(&f, "SELECT fingerprint AS value FROM master_key").len(),
        1
    );
}

/// A quiz for `client` with this token and code.
fn quiz(client: &Profile, token: &str, code: &str) -> domain::quiz::Quiz {
    use domain::template::{Feature, FeatureList, FeatureSet, Requirement};
    let mut list = FeatureList::default();
    list.set(Feature::SsnSubmit, Requirement::Required);
    domain::quiz::Quiz {
        id: "q1".into(),
        merchant_id: client.merchant_id.clone(),
        profile_id: client.id.clone(),
        token: token.to_owned().into(),
        code: code.to_owned().into(),
        template: domain::quiz::TemplateSnapshot {
            template_id: None,
            name: "Custom".into(),
            list,
            created_at: now(),
        },
        expiry_days: Default::default(),
        created_at: now(),
        expires_at: now() + time::Duration::days(5),
        expired_at: None,
        submitted_at: None,
        deleted_at: None,
        opened_at: None,
        completed: FeatureSet::default(),
        redirect_url: None,
    }
}

#[tokio::test]
async fn a_quiz_stored_with_clear_links_by_an_older_version_still_opens_after_migration() {
    use domain::ports::{ProfileWrite, QuizRepository};
    use domain::quiz::{QuizLink, QuizLinks};
    let f = fixture().await;
    let ada = profile(&f, "p1", "ada@example.com", "4165550123");
    let (token, code) = ("TokenOfAnOlderVersion0123456789abcdefABCDEF", "Code012345");
    let quiz = quiz(&ada, token, code);
    let links = QuizLinks::of("https://idv.example", &quiz);
    let created = Event::about_quiz(
        "e1".into(),
        &ada,
        Activity::QuizCreated,
        "sent",
        "Custom",
        links.clone(),
        now(),
    );
    let created = Entry {
        event: created,
        deliveries: Vec::new(),
    };
    QuizRepository::create(&f.db, &ProfileWrite::Insert(ada.clone()), &quiz, &[created])
        .await
        .expect("stored");
    let everything = |f: &Fixture| {
        let mut cells = raw(
            f,
            "SELECT token_hash || ' ' || code_hash || ' ' || sealed_token || ' ' || sealed_code AS value FROM quizzes",
        );
        cells.extend(raw(f, "SELECT url AS value FROM events"));
        cells.join("\n")
    };
    let stored = everything(&f);
    assert!(
        !stored.contains(token) && !stored.contains(code),
        "{stored}"
    );
    // What an older version left: the links in clear, nothing sealed, and no record of
    // the data migration.
    raw(
        &f,
        &format!(
            "UPDATE quizzes SET token_hash = '{token}', code_hash = '{code}', sealed_token = NULL, sealed_code = NULL"
        ),
    );
    raw(&f, &format!("UPDATE events SET url = '{}'", links.tiny_url));
    raw(&f, "DELETE FROM data_migrations");
    f.db.migrate(now().unix_timestamp())
        .expect("migrated again");
    let migrated = everything(&f);
    assert!(
        !migrated.contains(token) && !migrated.contains(code),
        "{migrated}"
    );
    for link in [
        QuizLink::Token(token.to_owned().into()),
        QuizLink::Code(code.to_owned().into()),
    ] {
        let found =
            f.db.find_live(&link)
                .await
                .expect("read")
                .expect("the old link opens");
        assert_eq!(QuizLinks::of("https://idv.example", &found.quiz), links);
    }
    let events = ProfileRepository::events(&f.db, &ada.id, Page::new(0, 10).expect("page"))
        .await
        .expect("events");
    assert_eq!(events.items[0].url, links.tiny_url);
    // Once done, it is not done again.
    f.db.migrate(now().unix_timestamp())
        .expect("migrated a third time");
    assert_eq!(everything(&f), migrated);
}

/// The ids a dashboard search for `text` finds among the fixture's merchant's profiles.
async fn search(f: &Fixture, text: &str) -> Vec<String> {
    let filter = domain::profile::ProfileFilter {
        text: Some(text.into()),
        status: None,
    };
    let page = Page::new(0, 50).expect("page");
    let found =
        f.db.search(&f.merchant, &filter, page)
            .await
            .expect("searched");
    let mut ids: Vec<String> = found.items.into_iter().map(|p| p.id.to_string()).collect();
    ids.sort();
    ids
}

/// The search index is kept behind the writes: what it holds, and what a search finds
/// before and after the indexer has caught up, through renames and deletions.
#[tokio::test]
async fn the_search_finds_profiles_whether_the_index_has_caught_up_or_not() {
    let f = fixture().await;
    let indexed_by_fts = || {
        raw(
            &f,
            "SELECT CAST(rowid AS TEXT) AS value FROM profile_search WHERE profile_search MATCH '\"lovelace\"'",
        )
    };
    let (ada, grace) = (
        profile(&f, "p1", "ada@example.com", "4165550101"),
        profile(&f, "p2", "grace@example.com", "4165550102"),
    );
    for p in [&ada, &grace] {
        f.db.insert(p, &event(&format!("ev-{}", p.id.as_str()), p))
            .await
            .expect("stored");
    }
    assert_eq!(
        search(&f, "lovelace").await,
        ["p1", "p2"],
        "before indexing"
    );
    assert!(indexed_by_fts().is_empty(), "the writes did not index");
    assert_eq!(f.db.index_profiles().await.expect("indexed"), 2);
    assert_eq!(
        f.db.index_profiles().await.expect("indexed"),
        0,
        "caught up"
    );
    assert_eq!(indexed_by_fts().len(), 2, "the index names both");
    assert_eq!(search(&f, "lovelace").await, ["p1", "p2"], "after indexing");
    assert_eq!(search(&f, "grace@").await, ["p2"]);

    let mut renamed = ada.clone();
    renamed.last_name = ShortText::parse("Byron").expect("valid");
    renamed.revision += 1;
    f.db.update(&renamed, &event("ev-rename", &renamed))
        .await
        .expect("renamed");
    assert_eq!(search(&f, "byron").await, ["p1"], "indexed again at once");
    assert_eq!(search(&f, "lovelace").await, ["p2"]);
    assert_eq!(indexed_by_fts().len(), 1, "the old name left the index");

    let late = profile(&f, "p3", "late@example.com", "4165550103");
    f.db.insert(&late, &event("ev-p3", &late))
        .await
        .expect("stored");
    assert_eq!(
        search(&f, "lovelace").await,
        ["p2", "p3"],
        "not indexed yet, found"
    );
    let tombstone = Entry {
        event: Event {
            profile_id: None,
            ..Event::about(
                "ev-gone".into(),
                &grace,
                Activity::ProfileDeleted,
                "",
                now(),
            )
        },
        deliveries: Vec::new(),
    };
    f.db.delete(&grace, &tombstone).await.expect("deleted");
    assert_eq!(f.db.index_profiles().await.expect("indexed"), 1);
    assert_eq!(search(&f, "lovelace").await, ["p3"]);
    assert_eq!(indexed_by_fts().len(), 1, "the deleted one left the index");
}

/// The index's segments are merged by the indexer's own steps, never inside a batch
/// (migration 000022): four batches leave four segments for the steps to merge, a step
/// says when nothing is left, and every profile is still found.
#[tokio::test]
async fn the_search_index_is_merged_in_steps_of_its_own() {
    let f = fixture().await;
    assert_eq!(
        raw(
            &f,
            "SELECT CAST(v AS TEXT) AS value FROM profile_search_config WHERE k = 'automerge'"
        ),
        ["0"],
        "FTS5 merges nothing inside a batch"
    );
    let mut ids = Vec::new();
    for n in 1..=4 {
        let p = profile(
            &f,
            &format!("p{n}"),
            &format!("c{n}@example.com"),
            &format!("416555010{n}"),
        );
        f.db.insert(&p, &event(&format!("ev-{n}"), &p))
            .await
            .expect("stored");
        assert_eq!(f.db.index_profiles().await.expect("indexed"), 1);
        ids.push(format!("p{n}"));
    }
    assert!(
        f.db.merge_profile_search().await.expect("merged"),
        "four segments left for the steps"
    );
    let mut steps = 1;
    while f.db.merge_profile_search().await.expect("merged") {
        steps += 1;
        assert!(steps < 100, "the merges never end");
    }
    assert!(
        !f.db.merge_profile_search().await.expect("merged"),
        "nothing left to merge"
    );
    assert_eq!(search(&f, "lovelace").await, ids);
    assert_eq!(search(&f, "c3@").await, ["p3"]);
}

/// `read` run on a current-thread runtime whose only blocking thread is held meanwhile;
/// what it read. A read through that thread would never complete: the wait fails.
fn with_the_blocking_thread_held<T, F>(read: impl FnOnce(Fixture) -> F) -> T
where
    F: std::future::Future<Output = T>,
{
    let runtime = tokio::runtime::Builder::new_current_thread()
        .max_blocking_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let f = fixture().await;
        let (release, held) = std::sync::mpsc::channel::<()>();
        let (taken, thread_taken) = tokio::sync::oneshot::channel();
        let holder = tokio::task::spawn_blocking(move || {
            taken.send(()).expect("the test waits");
            held.recv().expect("released");
        });
        thread_taken.await.expect("the blocking thread is held");
        let read = tokio::time::timeout(std::time::Duration::from_secs(10), read(f))
            .await
            .expect("the read waited for the held blocking thread");
        release.send(()).expect("the holder waits");
        holder.await.expect("released");
        read
    })
}

/// A lookup by a client's unique key runs where it is awaited when a connection is free:
/// the hop to a blocking thread cost more than the read (docs/BENCHMARKS.md).
#[test]
fn a_profile_lookup_takes_no_blocking_thread() {
    let (found, ada) = with_the_blocking_thread_held(|f| async move {
        let ada = profile(&f, "p1", "ada@example.com", "4165550123");
        f.db.insert(&ada, &event("e1", &ada))
            .await
            .expect("inserted");
        let found = ProfileRepository::find(&f.db, &f.merchant, &ada.key).await;
        (found.expect("read"), ada)
    });
    assert_eq!(found.map(|p| p.id), Some(ada.id));
}

/// Nor does the read of a merchant's webhooks that precedes every write logging an event
/// (the hop cost a fifth of the create rate, docs/BENCHMARKS.md).
#[test]
fn a_merchants_webhooks_are_read_on_no_blocking_thread() {
    use domain::ports::WebhookRepository;
    let subscribed = with_the_blocking_thread_held(|f| async move {
        WebhookRepository::insert(&f.db, &endpoint(&f, "w-all", EventFilter::default()), 16)
            .await
            .expect("endpoint");
        f.db.subscriptions(&f.merchant).await.expect("read")
    });
    let ids: Vec<&str> = subscribed.iter().map(|s| s.webhook_id.as_str()).collect();
    assert_eq!(ids, ["w-all"]);
}
