//! The session repository's promises: sessions carry their user's role and end with the
//! user, and sign-in attempts are counted in turn and withdrawn.

use time::OffsetDateTime;

use super::{NOW, Ports, seed_merchant, user};
use crate::session::{Session, SessionToken};
use crate::user::Role;

pub(super) async fn sessions_of_users(p: Ports) {
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

pub(super) async fn attempts_in_turn(p: Ports) {
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
