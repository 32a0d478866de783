//! The user repository's promises: disabling a dashboard user disables the keys it made.

use super::{Ports, key_of, merchant, seed_merchant, user};
use crate::merchant::ApiKeyId;
use crate::ports::StoreError;
use crate::profile::Email;
use crate::user::{Role, TotpSecret, User};

pub(super) async fn users_and_their_keys(p: Ports) {
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
