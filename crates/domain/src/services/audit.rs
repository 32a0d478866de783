use std::sync::Arc;

use time::OffsetDateTime;

use crate::audit::{AuditAction, AuditEntry, AuditKind, Auditor};
use crate::error::DomainError;
use crate::merchant::MerchantId;
use crate::ports::{AuditLog, Clock, IdGenerator};

/// Who acts, and from where: what every audited use case is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Initiator {
    /// The operator or a dashboard user.
    pub auditor: Auditor,
    /// The client address the request came from; empty for the CLI.
    pub address: String,
}

impl Initiator {
    /// The operator, at the server's own machine.
    pub fn cli() -> Self {
        Self {
            auditor: Auditor::Cli,
            address: String::new(),
        }
    }
}

/// The ports an [`AuditTrail`] writes through.
#[derive(Clone)]
pub struct AuditPorts {
    /// Where the audit entries are kept.
    pub log: Arc<dyn AuditLog>,
    /// The clock.
    pub clock: Arc<dyn Clock>,
    /// Makes ids.
    pub ids: Arc<dyn IdGenerator>,
}

debug_as_name!(AuditPorts);

/// Writes and reads the audit trail.
#[derive(Clone)]
pub struct AuditTrail {
    log: Arc<dyn AuditLog>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
}

debug_as_name!(AuditTrail);

impl AuditTrail {
    /// The trail over its ports.
    pub fn new(ports: AuditPorts) -> Self {
        let AuditPorts { log, clock, ids } = ports;
        Self { log, clock, ids }
    }

    /// Records that `by` did `action` to `subject` in `merchant`'s account, now.
    pub async fn record(
        &self,
        merchant: &MerchantId,
        by: &Initiator,
        action: AuditAction,
        subject: &str,
    ) -> Result<(), DomainError> {
        let entry = AuditEntry {
            id: self.ids.next_id(),
            merchant_id: merchant.clone(),
            auditor: by.auditor.clone(),
            action,
            subject: subject.to_owned(),
            address: by.address.clone(),
            at: self.clock.now(),
        };
        Ok(self.log.append(&entry).await?)
    }

    /// The merchant's entries from `since` on, oldest first, `limit` at a time, after the
    /// entry `after`.
    pub async fn since(
        &self,
        merchant: &MerchantId,
        since: OffsetDateTime,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<AuditEntry>, DomainError> {
        Ok(self.log.since(merchant, since, after, limit).await?)
    }

    /// The merchant's latest entries of `kind`, newest first.
    pub async fn latest(
        &self,
        merchant: &MerchantId,
        kind: AuditKind,
        limit: usize,
    ) -> Result<Vec<AuditEntry>, DomainError> {
        Ok(self.log.latest(merchant, kind, limit).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::UserId;
    use crate::memory::{FixedClock, MemoryAudit, SequentialIds};
    use crate::profile::Email;
    use futures_executor::block_on;

    #[test]
    fn entries_are_kept_per_merchant_and_read_oldest_or_newest_first() {
        let trail = AuditTrail::new(AuditPorts {
            log: Arc::new(MemoryAudit::default()),
            clock: Arc::new(FixedClock::default()),
            ids: Arc::new(SequentialIds::default()),
        });
        let (acme, globex) = (MerchantId::new("m1"), MerchantId::new("m2"));
        let admin = Initiator {
            auditor: Auditor::User(
                UserId::new("u1"),
                Email::parse("admin@example.com").expect("valid"),
            ),
            address: "203.0.113.9".into(),
        };
        block_on(trail.record(&acme, &admin, AuditAction::SignedIn, "")).expect("kept");
        block_on(trail.record(&acme, &Initiator::cli(), AuditAction::KeyCreated, "key-1"))
            .expect("kept");
        block_on(trail.record(&globex, &admin, AuditAction::SignedIn, "")).expect("kept");

        let latest = block_on(trail.latest(&acme, AuditKind::Actions, 10)).expect("read");
        let actions: Vec<_> = latest.iter().map(|e| e.action).collect();
        assert_eq!(actions, [AuditAction::KeyCreated, AuditAction::SignedIn]);
        assert_eq!(latest[1].address, "203.0.113.9");
        assert_eq!(latest[0].auditor, Auditor::Cli);

        let epoch = OffsetDateTime::UNIX_EPOCH;
        let first = block_on(trail.since(&acme, epoch, None, 1)).expect("read");
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].action, AuditAction::SignedIn);
        let rest = block_on(trail.since(&acme, epoch, Some(&first[0].id), 10)).expect("read");
        assert_eq!(rest.len(), 1);
        assert_eq!(rest[0].action, AuditAction::KeyCreated);
    }
}
