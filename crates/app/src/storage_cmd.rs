//! `idv storage migrate --to URL`: every stored file copied to another store, each copy
//! read back and checked against the original by its SHA-256, so an operator can move
//! from the local disk to a bucket without downtime (copy, switch `IDV_STORAGE_URL`,
//! copy again for what arrived meanwhile).

use std::collections::HashSet;

use anyhow::{Context, bail};
use domain::ids::FileId;
use domain::ports::DocumentStore;
use ring::digest::{Context as Digest, SHA256};

use crate::cli::StorageCommand;
use crate::wiring;

pub async fn run(cmd: StorageCommand) -> anyhow::Result<()> {
    let StorageCommand::Migrate { to, storage } = cmd;
    let db = wiring::open_migrated(&storage)?;
    let source = wiring::file_store(&db, &storage)?;
    let target = db
        .file_store(Some(&to), storage.data_dir.join("files"))
        .map_err(anyhow::Error::msg)?;
    let report = migrate(source.as_ref(), target.as_ref()).await?;
    println!(
        "{} copied, {} already there and verified, {} files",
        report.copied,
        report.verified,
        report.files()
    );
    Ok(())
}

#[derive(Debug, Default)]
pub struct Report {
    copied: usize,
    verified: usize,
}

impl Report {
    /// Every file the target now holds of the source's.
    pub fn files(&self) -> usize {
        self.copied + self.verified
    }
}

/// Copies every finished file of `source` missing from `target`, and checks each copy
/// (and each file already there) against the original by its SHA-256.
pub async fn migrate(
    source: &dyn DocumentStore,
    target: &dyn DocumentStore,
) -> anyhow::Result<Report> {
    let present: HashSet<FileId> = target
        .list()
        .await
        .context("listing the target store")?
        .into_iter()
        .filter(|o| !o.partial)
        .map(|o| o.file_id)
        .collect();
    let mut report = Report::default();
    // Unfinished uploads are not files yet: their upload either finishes (and a later run
    // copies it) or is swept.
    for object in source.list().await?.into_iter().filter(|o| !o.partial) {
        let id = object.file_id;
        let original = if present.contains(&id) {
            hash(source, &id).await?
        } else {
            let copied = adapter_db::copy_file(source, target, &id).await;
            match copied {
                Ok(digest) => digest,
                Err(e) => {
                    let _ = target.delete(&id).await;
                    return Err(anyhow::Error::from(e).context(format!("copying file {id}")));
                }
            }
        };
        let Some(original) = original else {
            // Removed from the source meanwhile (its document was deleted).
            continue;
        };
        let copy = hash(target, &id).await?;
        if copy.as_deref() != Some(original.as_str()) {
            bail!("file {id}: the copy does not match the original (SHA-256 differs)");
        }
        if present.contains(&id) {
            report.verified += 1;
        } else {
            report.copied += 1;
        }
    }
    Ok(report)
}

/// The SHA-256 of a stored file's bytes (`None` if the store does not hold it).
async fn hash(store: &dyn DocumentStore, id: &FileId) -> anyhow::Result<Option<String>> {
    let Some(mut download) = store.open(id).await? else {
        return Ok(None);
    };
    let mut digest = Digest::new(&SHA256);
    while let Some(piece) = download.next().await? {
        digest.update(&piece);
    }
    Ok(Some(hex::encode(digest.finish())))
}
