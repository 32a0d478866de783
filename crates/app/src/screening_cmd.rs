//! `idv screening`: lists imported from their files, all or nothing, and the versions in
//! force printed as JSON lines (contract §19).

use std::io::Write;
use std::path::PathBuf;

use adapter_lists::{Format, ListFile};
use anyhow::{Context, bail};
use domain::DomainError;
use domain::error::Resource;
use domain::merchant::MerchantId;
use domain::watchlist::{ListImport, ListKind, ListName, ListVersion};
use ring::digest::{Context as Digest, SHA256};
use serde_json::json;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::cli::{ScreeningCommand, StorageArgs};
use crate::wiring;

pub async fn run(command: ScreeningCommand) -> anyhow::Result<()> {
    match command {
        ScreeningCommand::Import {
            list,
            kind,
            format,
            merchant,
            files,
            storage,
        } => {
            let wanted = Wanted::of(&list, &kind, &format, merchant)?;
            import(wanted, &files, &storage).await
        }
        ScreeningCommand::Lists { storage } => {
            let service = wiring::screening_service(&storage)?;
            let mut out = std::io::stdout().lock();
            for version in service.lists().await? {
                writeln!(out, "{}", line(&version)?)?;
            }
            Ok(())
        }
    }
}

/// What an import was asked, checked before any file is read.
struct Wanted {
    name: ListName,
    kind: ListKind,
    format: Format,
    merchant: Option<MerchantId>,
}

impl Wanted {
    fn of(list: &str, kind: &str, format: &str, merchant: Option<String>) -> anyhow::Result<Self> {
        let Some(name) = ListName::parse(list) else {
            bail!("--list {list:?}: 1 to 64 letters, digits, '.', '_' or '-'");
        };
        let Some(kind) = ListKind::parse(kind) else {
            bail!("--kind {kind:?}: sanctions, pep or internal");
        };
        let format = Format::parse(format)?;
        if merchant.is_some() && kind != ListKind::Internal {
            bail!("--merchant: only an internal list belongs to one merchant");
        }
        Ok(Self {
            name,
            kind,
            format,
            merchant: merchant.map(MerchantId::new),
        })
    }
}

async fn import(wanted: Wanted, paths: &[PathBuf], storage: &StorageArgs) -> anyhow::Result<()> {
    let mut read = Vec::new();
    for path in paths {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        read.push((path.display().to_string(), bytes));
    }
    let files: Vec<ListFile<'_>> = read
        .iter()
        .map(|(name, bytes)| ListFile { name, bytes })
        .collect();
    // Refused whole before anything is written: the version in force stays.
    let entries = adapter_lists::read(wanted.format, &files)
        .with_context(|| format!("list {} refused; the version in force stays", wanted.name))?;
    // The version is the files' SHA-256, in the order given: one file's is its own.
    let mut digest = Digest::new(&SHA256);
    for file in &files {
        digest.update(file.bytes);
    }
    let service = wiring::screening_service(storage)?;
    let import = ListImport {
        version: ListVersion {
            name: wanted.name.clone(),
            kind: wanted.kind,
            merchant_id: wanted.merchant,
            version: hex::encode(digest.finish()),
            imported_at: OffsetDateTime::now_utc(),
            entries: entries.len() as u64,
        },
        entries,
    };
    let replaced = service.import(&import).await.map_err(|e| match e {
        DomainError::NotFound(Resource::Merchant) => {
            anyhow::anyhow!("--merchant: no such merchant")
        }
        e => e.into(),
    })?;
    let in_force = service
        .lists()
        .await?
        .into_iter()
        .find(|v| v.name == wanted.name)
        .context("the list imported is not in force")?;
    tracing::info!(
        list = %in_force.name,
        entries = in_force.entries,
        replaced,
        "list {}",
        if replaced { "imported" } else { "unchanged: this version is in force" }
    );
    writeln!(std::io::stdout().lock(), "{}", line(&in_force)?)?;
    Ok(())
}

/// A list's version as one JSON line.
fn line(v: &ListVersion) -> anyhow::Result<String> {
    Ok(json!({
        "list": v.name.as_str(),
        "kind": v.kind.as_str(),
        "merchant_id": v.merchant_id.as_ref().map(MerchantId::as_str),
        "version": v.version,
        "imported_at": v.imported_at.format(&Rfc3339)?,
        "entries": v.entries,
    })
    .to_string())
}
