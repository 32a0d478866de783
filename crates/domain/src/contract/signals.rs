//! The signal store's promises: what is kept of a profile replaces what it had (its
//! blocked faces excepted), a merchant sees only its own other profiles' signals and its
//! blocked faces, and a profile's signals go with it when it is deleted or erased.

use super::{NOW, Ports, entry, seed_merchant, seed_profile};
use crate::event::{Activity, Event};
use crate::profile::{Profile, ProfileId};
use crate::signals::{Kept, Signal};

fn kept(profile: &Profile, signal: Signal, blocked: bool) -> Kept {
    Kept {
        profile_id: profile.id.clone(),
        signal,
        blocked,
    }
}

fn sorted(mut kept: Vec<Kept>) -> Vec<Kept> {
    kept.sort_by_key(|k| (k.profile_id.clone(), format!("{:?}", k.signal)));
    kept
}

pub(super) async fn kept_per_merchant(p: Ports) {
    let m1 = seed_merchant(&p, "m1").await;
    let m2 = seed_merchant(&p, "m2").await;
    let ada = seed_profile(&p, &m1, "p1", "ada@example.com").await;
    let bob = seed_profile(&p, &m1, "p2", "bob@example.com").await;
    let eve = seed_profile(&p, &m2, "p3", "eve@example.com").await;
    let face = Signal::Face(vec![0.25, -0.5, 0.125].into());
    let s = &p.signals;
    s.keep(&m1, &ada.id, &[Signal::Picture(1), face.clone()])
        .await
        .expect("kept");
    s.keep(&m1, &bob.id, &[Signal::Portrait(2)])
        .await
        .expect("kept");
    s.keep(&m2, &eve.id, &[Signal::Picture(3)])
        .await
        .expect("kept");
    s.keep(&m1, &ProfileId::new("nobody"), &[Signal::Picture(4)])
        .await
        .expect("nothing kept of a profile that is not there");
    assert_eq!(
        sorted(s.others(&m1, &bob.id).await.expect("read")),
        sorted(vec![
            kept(&ada, Signal::Picture(1), false),
            kept(&ada, face.clone(), false),
        ]),
        "the merchant's other profiles', never another merchant's"
    );
    assert_eq!(
        s.others(&m1, &ada.id).await.expect("read"),
        [kept(&bob, Signal::Portrait(2), false)]
    );
    // A later verification's replace the earlier ones.
    s.keep(&m1, &bob.id, &[Signal::Picture(5)])
        .await
        .expect("kept");
    assert_eq!(
        s.others(&m1, &ada.id).await.expect("read"),
        [kept(&bob, Signal::Picture(5), false)]
    );
    // A blocked face stays through a later verification, and is the profile's own
    // concern too.
    assert_eq!(s.block_faces(&m1, &ada.id).await.expect("blocked"), 1);
    assert_eq!(s.block_faces(&m1, &bob.id).await.expect("none"), 0);
    s.keep(&m1, &ada.id, &[Signal::Picture(6)])
        .await
        .expect("kept");
    assert_eq!(
        sorted(s.others(&m1, &ada.id).await.expect("read")),
        sorted(vec![
            kept(&ada, face.clone(), true),
            kept(&bob, Signal::Picture(5), false),
        ])
    );
    assert_eq!(
        sorted(s.others(&m1, &bob.id).await.expect("read")),
        sorted(vec![
            kept(&ada, Signal::Picture(6), false),
            kept(&ada, face, true),
        ])
    );
    assert!(
        s.others(&m2, &bob.id).await.expect("read").len() == 1,
        "another merchant's own only"
    );
}

pub(super) async fn gone_with_the_profile(p: Ports) {
    let m1 = seed_merchant(&p, "m1").await;
    let ada = seed_profile(&p, &m1, "p1", "ada@example.com").await;
    let bob = seed_profile(&p, &m1, "p2", "bob@example.com").await;
    let cy = seed_profile(&p, &m1, "p3", "cy@example.com").await;
    let s = &p.signals;
    for (who, n) in [(&ada, 1), (&bob, 2)] {
        s.keep(
            &m1,
            &who.id,
            &[Signal::Picture(n), Signal::Face(vec![0.5].into())],
        )
        .await
        .expect("kept");
    }
    s.block_faces(&m1, &ada.id).await.expect("blocked");
    // Read once before: a store that keeps a copy must see the erasure and the deletion.
    assert_eq!(s.others(&m1, &cy.id).await.expect("read").len(), 4);
    let mut erased = ada.clone();
    erased.erase_personal_data(NOW);
    erased.revision += 1;
    let erasure = Event::about(
        "ez-1".into(),
        &erased,
        Activity::PersonalDataErased,
        "",
        NOW,
    );
    p.profiles
        .erase_personal_data(&erased, &entry(erasure))
        .await
        .expect("erased");
    let tombstone = Event {
        profile_id: None,
        ..Event::about("ev-del".into(), &bob, Activity::ProfileDeleted, "", NOW)
    };
    p.profiles
        .delete(&bob, &entry(tombstone))
        .await
        .expect("deleted");
    assert!(
        s.others(&m1, &cy.id).await.expect("read").is_empty(),
        "an erased profile's signals, blocked faces included, and a deleted one's are gone"
    );
    s.keep(&m1, &ada.id, &[Signal::Picture(7)])
        .await
        .expect("nothing kept of an erased profile");
    assert!(s.others(&m1, &cy.id).await.expect("read").is_empty());
}

/// Two servers on one storage: what one keeps, blocks or deletes, the other's next read
/// sees, though it read before (a server may hold the merchant's signals in memory).
pub(super) async fn across_servers(one: Ports, other: Ports) {
    let m1 = seed_merchant(&one, "m1").await;
    let ada = seed_profile(&one, &m1, "p1", "ada@example.com").await;
    let bob = seed_profile(&one, &m1, "p2", "bob@example.com").await;
    let cy = seed_profile(&one, &m1, "p3", "cy@example.com").await;
    let seen = || async { sorted(other.signals.others(&m1, &cy.id).await.expect("read")) };
    assert!(seen().await.is_empty());
    one.signals
        .keep(&m1, &ada.id, &[Signal::Picture(1)])
        .await
        .expect("kept");
    assert_eq!(seen().await, [kept(&ada, Signal::Picture(1), false)]);
    one.signals
        .keep(&m1, &ada.id, &[Signal::Picture(2)])
        .await
        .expect("kept");
    let face = Signal::Face(vec![0.5, 0.25].into());
    one.signals
        .keep(&m1, &bob.id, std::slice::from_ref(&face))
        .await
        .expect("kept");
    one.signals
        .block_faces(&m1, &bob.id)
        .await
        .expect("blocked");
    assert_eq!(
        seen().await,
        sorted(vec![
            kept(&ada, Signal::Picture(2), false),
            kept(&bob, face.clone(), true),
        ])
    );
    let tombstone = Event {
        profile_id: None,
        ..Event::about("ev-del".into(), &ada, Activity::ProfileDeleted, "", NOW)
    };
    one.profiles
        .delete(&ada, &entry(tombstone))
        .await
        .expect("deleted");
    assert_eq!(seen().await, [kept(&bob, face, true)]);
}
