//! The audit trail, in memory.

use std::sync::Mutex;

use async_trait::async_trait;
use time::OffsetDateTime;

use crate::audit::{AuditEntry, AuditKind};
use crate::merchant::MerchantId;
use crate::ports::{AuditLog, StoreResult};

/// The audit trail, in memory.
#[derive(Debug, Default)]
pub struct MemoryAudit(Mutex<Vec<AuditEntry>>);

#[async_trait]
impl AuditLog for MemoryAudit {
    async fn append(&self, entry: &AuditEntry) -> StoreResult<()> {
        self.0.lock().expect("lock").push(entry.clone());
        Ok(())
    }

    async fn since(
        &self,
        merchant: &MerchantId,
        since: OffsetDateTime,
        after: Option<&str>,
        limit: usize,
    ) -> StoreResult<Vec<AuditEntry>> {
        let mut mine: Vec<AuditEntry> = self
            .0
            .lock()
            .expect("lock")
            .iter()
            .filter(|e| &e.merchant_id == merchant && e.at >= since)
            .filter(|e| after.is_none_or(|after| e.id.as_str() > after))
            .cloned()
            .collect();
        mine.sort_by(|a, b| a.id.cmp(&b.id));
        mine.truncate(limit);
        Ok(mine)
    }

    async fn latest(
        &self,
        merchant: &MerchantId,
        kind: AuditKind,
        limit: usize,
    ) -> StoreResult<Vec<AuditEntry>> {
        let mut mine: Vec<AuditEntry> = self
            .0
            .lock()
            .expect("lock")
            .iter()
            .filter(|e| &e.merchant_id == merchant && kind.includes(e.action))
            .cloned()
            .collect();
        mine.sort_by(|a, b| b.id.cmp(&a.id));
        mine.truncate(limit);
        Ok(mine)
    }
}
