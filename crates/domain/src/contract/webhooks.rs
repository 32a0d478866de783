//! The webhook repository's promises: endpoints stay their merchant's and within its
//! limit, deliveries (owed by another repository's outbox entry) go with their endpoint,
//! and the worker's claims hand each due delivery to one claimer at a time, a merchant at
//! most so many at once.

use time::Duration;

use super::{NOW, Ports, event, seed_merchant, seed_profile};
use crate::event::Activity;
use crate::ids::{DeliveryId, WebhookId};
use crate::merchant::MerchantId;
use crate::outbox::{Entry, Subscription};
use crate::paging::Page;
use crate::ports::StoreError;
use crate::profile::Profile;
use crate::webhook::{Delivery, DeliveryStatus, EventFilter, Webhook, WebhookSecret, WebhookUrl};

fn webhook(merchant: &MerchantId, id: &str) -> Webhook {
    Webhook {
        id: id.into(),
        merchant_id: merchant.clone(),
        url: WebhookUrl::stored(format!("https://hooks.example.com/{id}")),
        events: EventFilter::default(),
        description: format!("endpoint {id}"),
        enabled: true,
        secret: WebhookSecret::stored(format!("whsec_{id}")),
        previous_secret: None,
        created_at: NOW,
        updated_at: NOW,
    }
}

/// What a stored endpoint must give back as written, its secret included.
fn as_written(w: &Webhook) -> (String, String, String, EventFilter, String, bool, String) {
    (
        w.id.to_string(),
        w.merchant_id.to_string(),
        w.url.as_str().to_owned(),
        w.events.clone(),
        w.description.clone(),
        w.enabled,
        w.secret.expose().to_owned(),
    )
}

/// Stores a change of `client` whose event owes one delivery to each of `webhooks`, as a
/// change's outbox entry does; returns the deliveries' ids.
async fn owe(
    p: &Ports,
    client: &mut Profile,
    event_id: &str,
    webhooks: &[&WebhookId],
) -> Vec<DeliveryId> {
    client.revision += 1;
    let event = event(event_id, client);
    let deliveries: Vec<Delivery> = webhooks
        .iter()
        .map(|w| Delivery::owed(format!("{event_id}-{w}").into(), w, &event))
        .collect();
    let ids = deliveries.iter().map(|d| d.id.clone()).collect();
    p.profiles
        .update(client, &Entry { event, deliveries })
        .await
        .expect("the change and its deliveries stored");
    ids
}

pub(super) async fn endpoints(p: Ports) {
    let m1 = seed_merchant(&p, "m1").await;
    let m2 = seed_merchant(&p, "m2").await;
    let (w1, w2) = (webhook(&m1, "w1"), webhook(&m1, "w2"));
    p.webhooks.insert(&w1, 2).await.expect("stored");
    p.webhooks.insert(&w2, 2).await.expect("stored");
    let third = p.webhooks.insert(&webhook(&m1, "w3"), 2).await;
    assert!(matches!(third, Err(StoreError::LimitReached)), "{third:?}");
    p.webhooks
        .insert(&webhook(&m2, "w4"), 2)
        .await
        .expect("another merchant's count is its own");
    let listed = p.webhooks.list(&m1, Page::default()).await.expect("read");
    assert_eq!(listed.total_count, 2);
    let ids: Vec<&str> = listed.items.iter().map(|w| w.id.as_str()).collect();
    assert_eq!(ids, ["w2", "w1"], "newest first");
    assert_eq!(
        as_written(&listed.items[1]),
        as_written(&w1),
        "kept as written, secret included"
    );
    assert!(p.webhooks.find(&m2, &w1.id).await.expect("read").is_none());
    let off = Webhook {
        enabled: false,
        description: "paused".into(),
        ..w1.clone()
    };
    p.webhooks.update(&off).await.expect("updated");
    let found = p.webhooks.find(&m1, &w1.id).await.expect("read");
    assert_eq!(found.as_ref().map(as_written), Some(as_written(&off)));
    let theirs = Webhook {
        merchant_id: m2.clone(),
        ..off
    };
    let refused = p.webhooks.update(&theirs).await;
    assert!(matches!(refused, Err(StoreError::Missing)), "{refused:?}");
    let refused = p.webhooks.delete(&m2, &w1.id).await;
    assert!(matches!(refused, Err(StoreError::Missing)), "{refused:?}");
    p.webhooks.delete(&m1, &w1.id).await.expect("deleted");
    assert!(p.webhooks.find(&m1, &w1.id).await.expect("read").is_none());
    let again = p.webhooks.delete(&m1, &w1.id).await;
    assert!(matches!(again, Err(StoreError::Missing)), "{again:?}");
}

pub(super) async fn deliveries_follow_their_endpoint(p: Ports) {
    let m1 = seed_merchant(&p, "m1").await;
    let (w1, w2) = (webhook(&m1, "w1"), webhook(&m1, "w2"));
    p.webhooks.insert(&w1, 10).await.expect("stored");
    p.webhooks.insert(&w2, 10).await.expect("stored");
    let mut client = seed_profile(&p, &m1, "p1", "ada@example.com").await;
    let owed = owe(&p, &mut client, "ev-2", &[&w1.id, &w2.id]).await;
    let of_w1 = p
        .webhooks
        .deliveries(&w1.id, Page::default())
        .await
        .expect("read");
    assert_eq!(of_w1.total_count, 1);
    let first = &of_w1.items[0];
    assert_eq!(first.id, owed[0]);
    assert_eq!(
        (first.status, first.attempts, first.activity),
        (DeliveryStatus::Pending, 0, Activity::ProfileCreated)
    );
    let found = p.webhooks.find_delivery(&m1, &owed[1]).await.expect("read");
    assert_eq!(found.map(|d| d.webhook_id), Some(w2.id.clone()));
    let other = seed_merchant(&p, "m2").await;
    assert!(
        p.webhooks
            .find_delivery(&other, &owed[1])
            .await
            .expect("read")
            .is_none(),
        "another merchant's delivery is not found"
    );
    p.webhooks.delete(&m1, &w1.id).await.expect("deleted");
    assert!(
        p.webhooks
            .find_delivery(&m1, &owed[0])
            .await
            .expect("read")
            .is_none(),
        "an endpoint's deliveries go with it"
    );
    assert!(
        p.webhooks
            .find_delivery(&m1, &owed[1])
            .await
            .expect("read")
            .is_some()
    );
}

pub(super) async fn claims(p: Ports) {
    let m1 = seed_merchant(&p, "m1").await;
    let m2 = seed_merchant(&p, "m2").await;
    let (w1, w2) = (webhook(&m1, "w1"), webhook(&m2, "w2"));
    p.webhooks.insert(&w1, 10).await.expect("stored");
    p.webhooks.insert(&w2, 10).await.expect("stored");
    let mut client = seed_profile(&p, &m1, "p1", "ada@example.com").await;
    for n in 2..=4 {
        owe(&p, &mut client, &format!("ev-{n}"), &[&w1.id]).await;
    }
    let mut theirs = seed_profile(&p, &m2, "p2", "bob@example.com").await;
    let of_m2 = owe(&p, &mut theirs, "ev-5", &[&w2.id]).await;
    let until = NOW + Duration::minutes(1);
    let of = |claimed: &[crate::webhook::DueDelivery], w: &Webhook| -> Vec<DeliveryId> {
        let ids = claimed.iter().filter(|d| d.webhook.id == w.id);
        ids.map(|d| d.delivery.id.clone()).collect()
    };
    // At most two of a merchant's in flight at once; the other merchant has its own share.
    let first = p
        .webhooks
        .claim_due(NOW, until, 10, 2)
        .await
        .expect("claimed");
    assert_eq!((of(&first, &w1).len(), of(&first, &w2)), (2, of_m2.clone()));
    let claimed = first
        .iter()
        .find(|d| d.webhook.id == w1.id)
        .expect("one of m1");
    assert_eq!(as_written(&claimed.webhook), as_written(&w1));
    assert_eq!(claimed.notification.event_id, claimed.delivery.event_id);
    assert_eq!(claimed.notification.email_address, "ada@example.com");
    let second = p
        .webhooks
        .claim_due(NOW, until, 10, 2)
        .await
        .expect("claimed");
    assert!(second.is_empty(), "claims still running count: {second:?}");
    // An attempt's answer frees its claim; the merchant's third delivery may go.
    let tried = Delivery {
        status: DeliveryStatus::Succeeded,
        attempts: 1,
        last_status_code: Some(204),
        next_attempt_at: None,
        delivered_at: Some(NOW),
        ..claimed.delivery.clone()
    };
    p.webhooks
        .save_delivery(&tried, false)
        .await
        .expect("saved");
    let saved = p
        .webhooks
        .find_delivery(&m1, &tried.id)
        .await
        .expect("read")
        .expect("kept");
    assert_eq!(
        (saved.status, saved.attempts, saved.last_status_code),
        (DeliveryStatus::Succeeded, 1, Some(204))
    );
    let third = p
        .webhooks
        .claim_due(NOW, until, 10, 2)
        .await
        .expect("claimed");
    let third = of(&third, &w1);
    assert_eq!(third.len(), 1);
    assert!(
        !of(&first, &w1).contains(&third[0]),
        "a claimed delivery is not claimed again"
    );
    // Released, a claim is due again at once; lapsed, too.
    let other = of(&first, &w1)
        .into_iter()
        .find(|id| *id != tried.id)
        .expect("the other claimed");
    p.webhooks
        .release(std::slice::from_ref(&other))
        .await
        .expect("released");
    let again = p
        .webhooks
        .claim_due(NOW, until, 10, 2)
        .await
        .expect("claimed");
    assert_eq!(of(&again, &w1), [other]);
    let later = p
        .webhooks
        .claim_due(until, until + Duration::minutes(1), 10, 2)
        .await
        .expect("claimed");
    assert_eq!(
        (of(&later, &w1).len(), of(&later, &w2)),
        (2, of_m2),
        "lapsed claims are due again"
    );
    // A 410 turns the endpoint off: nothing of it is claimed after.
    let gone_from = later
        .iter()
        .find(|d| d.webhook.id == w1.id)
        .expect("one of m1");
    let gone = Delivery {
        status: DeliveryStatus::Failed,
        attempts: 1,
        last_status_code: Some(410),
        next_attempt_at: None,
        ..gone_from.delivery.clone()
    };
    p.webhooks.save_delivery(&gone, true).await.expect("saved");
    let found = p
        .webhooks
        .find(&m1, &w1.id)
        .await
        .expect("read")
        .expect("kept");
    assert!(!found.enabled);
    let after = p
        .webhooks
        .claim_due(
            until + Duration::minutes(5),
            until + Duration::minutes(6),
            10,
            2,
        )
        .await
        .expect("claimed");
    assert!(
        of(&after, &w1).is_empty(),
        "a disabled endpoint's deliveries wait: {after:?}"
    );
    assert_eq!(of(&after, &w2).len(), 1, "another endpoint's still go");
}

pub(super) async fn subscriptions(p: Ports) {
    let m1 = seed_merchant(&p, "m1").await;
    let m2 = seed_merchant(&p, "m2").await;
    let notes_only = Webhook {
        events: EventFilter::parse(&["note_created"]).expect("known"),
        ..webhook(&m1, "w1")
    };
    let off = Webhook {
        enabled: false,
        ..webhook(&m1, "w3")
    };
    for w in [&notes_only, &webhook(&m1, "w2"), &off, &webhook(&m2, "w4")] {
        p.webhooks.insert(w, 10).await.expect("stored");
    }
    let listening = |subscriptions: Vec<Subscription>| {
        let mut shown: Vec<(String, bool, bool)> = subscriptions
            .iter()
            .map(|s| {
                (
                    s.webhook_id.to_string(),
                    s.wants(Activity::NoteCreated),
                    s.wants(Activity::ProfileCreated),
                )
            })
            .collect();
        shown.sort();
        shown
    };
    let now = p.subscriptions.subscriptions(&m1).await.expect("read");
    assert_eq!(
        listening(now),
        [("w1".into(), true, false), ("w2".into(), true, true)],
        "the merchant's enabled endpoints, each with what it listens to"
    );
    let paused = Webhook {
        enabled: false,
        ..notes_only
    };
    p.webhooks.update(&paused).await.expect("updated");
    let now = p.subscriptions.subscriptions(&m1).await.expect("read");
    assert_eq!(listening(now), [("w2".into(), true, true)]);
}
