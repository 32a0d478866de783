//! The merchant repository's promises: merchants' keys and settings are kept, a merchant
//! holds at most its enabled keys, and a key's access is kept.

use super::{Ports, key_of, merchant, seed_merchant};
use crate::merchant::{ApiKey, KeyAccess, MerchantSettings};
use crate::ports::StoreError;

pub(super) async fn merchant_keys(p: Ports) {
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

pub(super) async fn key_limit(p: Ports) {
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

pub(super) async fn key_access(p: Ports) {
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
