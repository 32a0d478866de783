//! The profile repository's promises: profiles are unique per merchant by e-mail and by
//! mobile, a stale update is a conflict, searches find by name, e-mail, mobile, status and
//! id and follow renames and deletions, the log keeps events as written (without their
//! subjects), a deletion erases everything under the profile and names its files, and
//! retention erases the personal data of the profiles due, once.

use time::OffsetDateTime;

use super::{
    NOW, Ports, document, entry, event, page, profile, seed_merchant, seed_profile, seed_quiz,
    uploaded,
};
use crate::document::{DocumentStatus, Evidence};
use crate::event::{Activity, Event};
use crate::merchant::RetentionDays;
use crate::ports::StoreError;
use crate::profile::{
    DateOfBirth, Patch, Profile, ProfileChanges, ProfileFilter, ProfileStatus, ShortText, Ssn,
    SubmittedFormFields,
};
use crate::quiz::{QuizLink, UploadLimits};

pub(super) async fn log_as_written(p: Ports) {
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

pub(super) async fn search(p: Ports) {
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
pub(super) async fn search_after_changes(p: Ports) {
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

pub(super) async fn unique_profiles(p: Ports) {
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

pub(super) async fn stale_update(p: Ports) {
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

pub(super) async fn profile_delete(p: Ports) {
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

pub(super) async fn retention(p: Ports) {
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
