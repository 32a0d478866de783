//! The quiz repository's promises: completed steps and submitted fields of two writers
//! merge, a quiz's state changes happen once, an extension opens a quiz again unless it
//! was submitted or deleted, a submitted quiz takes nothing more, and a profile's quizzes
//! are its own and live.

use std::future::Future;

use super::{NOW, Ports, document, entry, page, queued, quiz, seed_merchant, seed_quiz, uploaded};
use crate::event::{Activity, Event};
use crate::paging::Page;
use crate::ports::{ProfileWrite, StoreError};
use crate::profile::{ProfileId, SubmittedFormFields};
use crate::quiz::{QuizLink, UploadLimits};
use crate::template::Feature;

pub(super) async fn steps_merge(p: Ports) {
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

pub(super) async fn fields_merge(p: Ports) {
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

pub(super) async fn state_once(p: Ports) {
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

pub(super) async fn extension(p: Ports) {
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

pub(super) async fn nothing_after_submission(p: Ports) {
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

pub(super) async fn quiz_scope(p: Ports) {
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
