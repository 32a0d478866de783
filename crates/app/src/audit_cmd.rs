//! `idv audit`: a merchant's audit trail as JSON lines, oldest first, for a person to read
//! or a log collector to take in.

use std::io::Write;

use domain::OffsetDateTime;
use domain::audit::AuditEntry;
use domain::merchant::MerchantId;
use serde_json::json;
use time::format_description::well_known::Rfc3339;

use crate::cli::StorageArgs;
use crate::wiring;

/// Entries read from the database at a time.
const PAGE: usize = 500;

pub async fn run(
    merchant: &str,
    since: Option<OffsetDateTime>,
    storage: &StorageArgs,
) -> anyhow::Result<()> {
    let trail = wiring::audit_trail(storage)?;
    let merchant = MerchantId::new(merchant.to_owned());
    let since = since.unwrap_or(OffsetDateTime::UNIX_EPOCH);
    let mut out = std::io::stdout().lock();
    let mut after: Option<String> = None;
    loop {
        let page = trail
            .since(&merchant, since, after.as_deref(), PAGE)
            .await?;
        for entry in &page {
            writeln!(out, "{}", line(entry)?)?;
        }
        match page.last() {
            Some(last) if page.len() == PAGE => after = Some(last.id.clone()),
            _ => break,
        }
    }
    Ok(())
}

fn line(e: &AuditEntry) -> anyhow::Result<serde_json::Value> {
    Ok(json!({
        "id": e.id,
        "at": e.at.format(&Rfc3339)?,
        "action": e.action.as_str(),
        "actor": e.auditor.name(),
        "user_id": e.auditor.user_id().map(ToString::to_string),
        "subject": e.subject,
        "address": e.address,
    }))
}
