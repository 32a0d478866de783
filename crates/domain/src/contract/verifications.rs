//! The verification queue's and the identity index's promises: a queued verification goes
//! to one claimer at a time until it is completed (or its claim lapses), and is completed
//! once, the latest of a
//! quiz is the one read back, and the index counts the other profiles of a merchant that
//! hold the same value of the same kind.

use time::Duration;

use super::{NOW, Ports, queued, seed_merchant, seed_profile, seed_quiz};
use crate::paging::Page;
use crate::ports::StoreError;
use crate::verification::{IdentityKind, Policy, VerificationStatus};

pub(super) async fn queue_and_claims(p: Ports) {
    let m1 = seed_merchant(&p, "m1").await;
    let (client, quiz) = seed_quiz(&p, &m1, "q1").await;
    let mut first = queued(&quiz, "v1");
    p.verifications.queue(&first).await.expect("queued");
    let until = NOW + Duration::minutes(1);
    let claimed = p.verifications.claim(NOW, until).await.expect("claimed");
    assert_eq!(claimed.map(|v| v.id), Some(first.id.clone()));
    let again = p.verifications.claim(NOW, until).await.expect("claimed");
    assert!(again.is_none(), "claimed once: {again:?}");
    let lapsed = p
        .verifications
        .claim(until + Duration::seconds(1), until + Duration::minutes(1))
        .await
        .expect("claimed");
    assert_eq!(
        lapsed.map(|v| v.id),
        Some(first.id.clone()),
        "a lapsed claim is taken up"
    );
    let pending = first.clone();
    first.complete(Vec::new(), &Policy::default(), NOW);
    p.verifications
        .complete(&first, &[], None, &[])
        .await
        .expect("completed");
    // The claimer whose claim lapsed finishes after the one that took the job up: its
    // result is refused, and the first one stays.
    let mut late = pending;
    late.complete(Vec::new(), &Policy::default(), NOW + Duration::minutes(3));
    let refused = p.verifications.complete(&late, &[], None, &[]).await;
    assert!(
        matches!(refused, Err(StoreError::Missing)),
        "completed twice: {refused:?}"
    );
    let done = p
        .verifications
        .claim(until + Duration::minutes(5), until + Duration::minutes(6))
        .await
        .expect("claimed");
    assert!(
        done.is_none(),
        "a completed verification is not claimed: {done:?}"
    );
    let latest = p
        .verifications
        .latest_of_quiz(&quiz.id)
        .await
        .expect("read");
    let latest = latest.expect("the quiz's verification");
    assert_ne!(latest.status, VerificationStatus::Pending);
    assert_eq!(latest.completed_at, Some(NOW));
    // A rerun is queued beside it and becomes the quiz's latest.
    let rerun = crate::verification::Verification::queued(
        "v2".into(),
        &m1,
        &client.id,
        &quiz.id,
        NOW + Duration::minutes(10),
    );
    p.verifications.queue(&rerun).await.expect("queued");
    let latest = p
        .verifications
        .latest_of_quiz(&quiz.id)
        .await
        .expect("read");
    assert_eq!(latest.map(|v| v.id), Some(rerun.id.clone()));
    let listed = p
        .verifications
        .list_of_profile(&client.id, Page::default())
        .await
        .expect("read");
    assert_eq!(listed.total_count, 2);
    let ids: Vec<&str> = listed.items.iter().map(|v| v.id.as_str()).collect();
    assert_eq!(ids, ["v2", "v1"], "newest first");
}

pub(super) async fn identities(p: Ports) {
    let m1 = seed_merchant(&p, "m1").await;
    let m2 = seed_merchant(&p, "m2").await;
    let ada = seed_profile(&p, &m1, "p1", "ada@example.com").await;
    let bob = seed_profile(&p, &m1, "p2", "bob@example.com").await;
    let eve = seed_profile(&p, &m2, "p3", "eve@example.com").await;
    let ssn = "123456789";
    let note = |merchant, profile, kind| p.identities.note(merchant, profile, kind, ssn);
    assert_eq!(
        note(&m1, &ada.id, IdentityKind::Ssn).await.expect("noted"),
        0
    );
    assert_eq!(
        note(&m1, &bob.id, IdentityKind::Ssn).await.expect("noted"),
        1,
        "another profile holds it"
    );
    assert_eq!(
        note(&m1, &ada.id, IdentityKind::Ssn).await.expect("noted"),
        1,
        "noting again counts the others, not itself"
    );
    assert_eq!(
        note(&m1, &ada.id, IdentityKind::Device)
            .await
            .expect("noted"),
        0,
        "kinds are apart"
    );
    assert_eq!(
        note(&m2, &eve.id, IdentityKind::Ssn).await.expect("noted"),
        0,
        "merchants are apart"
    );
}
