//! The audit trail's promises: it is per merchant, in order.

use super::{NOW, Ports, seed_merchant};
use crate::audit::{AuditAction, AuditEntry, AuditKind, Auditor};
use crate::ids::UserId;
use crate::merchant::MerchantId;
use crate::profile::Email;

pub(super) async fn audit_in_order(p: Ports) {
    let m1 = seed_merchant(&p, "m1").await;
    let m2 = seed_merchant(&p, "m2").await;
    let entry = |id: &str, merchant: &MerchantId, action, minutes: i64| AuditEntry {
        id: id.into(),
        merchant_id: merchant.clone(),
        auditor: Auditor::User(
            UserId::new("u1"),
            Email::parse("admin@example.com").expect("valid"),
        ),
        action,
        subject: "key-x".into(),
        address: "203.0.113.7".into(),
        at: NOW + time::Duration::minutes(minutes),
    };
    let first = entry("a1", &m1, AuditAction::SignedIn, 0);
    let mut second = entry("a2", &m1, AuditAction::KeyCreated, 1);
    second.auditor = Auditor::Cli;
    second.address = String::new();
    let third = entry("a3", &m1, AuditAction::SignedOut, 2);
    for e in [
        &first,
        &second,
        &third,
        &entry("b1", &m2, AuditAction::SignedIn, 1),
    ] {
        p.audit.append(e).await.expect("stored");
    }
    let latest = p
        .audit
        .latest(&m1, AuditKind::Actions, 2)
        .await
        .expect("read");
    assert_eq!(latest, [third.clone(), second.clone()]);
    let since = p
        .audit
        .since(&m1, NOW + time::Duration::minutes(1), None, 10)
        .await
        .expect("read");
    assert_eq!(since, [second.clone(), third.clone()]);
    let page = p.audit.since(&m1, NOW, Some("a1"), 1).await.expect("read");
    assert_eq!(page, [second.clone()]);
    // Refused sign-ins are read apart: a flood of them leaves the actions in sight.
    let refused = entry("a4", &m1, AuditAction::SignInFailed, 3);
    p.audit.append(&refused).await.expect("stored");
    let actions = p
        .audit
        .latest(&m1, AuditKind::Actions, 2)
        .await
        .expect("read");
    assert_eq!(actions, [third.clone(), second.clone()]);
    let refusals = p
        .audit
        .latest(&m1, AuditKind::Refusals, 5)
        .await
        .expect("read");
    assert_eq!(refusals, [refused]);
}
