//! The documents' promises: documents past the limits are refused, a side uploaded again
//! replaces the earlier one, and documents belong to their profile.

use super::{NOW, Ports, document, entry, seed_merchant, seed_quiz, uploaded};
use crate::document::{DocumentStatus, Evidence, Side};
use crate::event::{Activity, Event};
use crate::merchant::MerchantId;
use crate::ports::StoreError;
use crate::quiz::UploadLimits;
use crate::template::Feature;

pub(super) async fn document_limits(p: Ports) {
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

pub(super) async fn document_replaced(p: Ports) {
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

pub(super) async fn document_scope(p: Ports) {
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
