//! `AuditLog`: the audit trail of the merchant's own people (contract §16).

use async_trait::async_trait;
use diesel::prelude::*;
use domain::OffsetDateTime;
use domain::audit::{AuditAction, AuditEntry, AuditKind, Auditor};
use domain::ids::UserId;
use domain::merchant::MerchantId;
use domain::ports::{AuditLog, StoreResult};
use domain::profile::Email;

use crate::Database;
use crate::failure::corrupt;
use crate::schema::audit_log;
use crate::timestamps::{from_db, to_db};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = audit_log)]
struct AuditRow {
    id: String,
    merchant_id: String,
    user_id: Option<String>,
    actor: String,
    action: String,
    subject: String,
    address: String,
    at: i64,
}

impl AuditRow {
    fn of(e: &AuditEntry) -> Self {
        Self {
            id: e.id.clone(),
            merchant_id: e.merchant_id.as_str().to_owned(),
            user_id: e.auditor.user_id().map(ToString::to_string),
            actor: e.auditor.name().into_owned(),
            action: e.action.as_str().to_owned(),
            subject: e.subject.clone(),
            address: e.address.clone(),
            at: to_db(e.at),
        }
    }

    fn into_domain(self) -> StoreResult<AuditEntry> {
        let auditor = match self.user_id {
            None => Auditor::not_a_user(&self.actor),
            Some(id) => Auditor::User(
                UserId::new(id),
                Email::parse(&self.actor).map_err(|e| corrupt("audit_log.actor", e))?,
            ),
        };
        Ok(AuditEntry {
            action: AuditAction::parse(&self.action)
                .ok_or_else(|| corrupt("audit_log.action", &self.action))?,
            at: from_db("audit_log.at", self.at)?,
            id: self.id,
            merchant_id: MerchantId::new(self.merchant_id),
            auditor,
            subject: self.subject,
            address: self.address,
        })
    }
}

#[async_trait]
impl AuditLog for Database {
    async fn append(&self, entry: &AuditEntry) -> StoreResult<()> {
        let row = AuditRow::of(entry);
        self.write(move |conn| {
            diesel::insert_into(audit_log::table)
                .values(&row)
                .execute(conn)?;
            Ok(())
        })
        .await
    }

    async fn since(
        &self,
        merchant: &MerchantId,
        since: OffsetDateTime,
        after: Option<&str>,
        limit: usize,
    ) -> StoreResult<Vec<AuditEntry>> {
        let (merchant, since) = (merchant.as_str().to_owned(), to_db(since));
        let after = after.unwrap_or_default().to_owned();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows: Vec<AuditRow> = self
            .read(move |conn| {
                Ok(audit_log::table
                    .filter(audit_log::merchant_id.eq(merchant))
                    .filter(audit_log::at.ge(since))
                    .filter(audit_log::id.gt(after))
                    .order(audit_log::id.asc())
                    .limit(limit)
                    .select(AuditRow::as_select())
                    .load(conn)?)
            })
            .await?;
        rows.into_iter().map(AuditRow::into_domain).collect()
    }

    async fn latest(
        &self,
        merchant: &MerchantId,
        kind: AuditKind,
        limit: usize,
    ) -> StoreResult<Vec<AuditEntry>> {
        let merchant = merchant.as_str().to_owned();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let actions: Vec<&'static str> = kind.actions().iter().map(|a| a.as_str()).collect();
        let rows: Vec<AuditRow> = self
            .read(move |conn| {
                Ok(audit_log::table
                    .filter(audit_log::merchant_id.eq(merchant))
                    .filter(audit_log::action.eq_any(actions))
                    .order(audit_log::id.desc())
                    .limit(limit)
                    .select(AuditRow::as_select())
                    .load(conn)?)
            })
            .await?;
        rows.into_iter().map(AuditRow::into_domain).collect()
    }
}
