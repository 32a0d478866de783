//! `idv backup --to DIR` and `idv restore --from DIR` (contract §15; the runbook is in
//! `docs/DEPLOY.md`).
//!
//! A backup folder holds the database's copy (`database.sqlite3` or `database.pgdump`),
//! `files/` (every stored file, sealed as in the store: a local store of the same master
//! key) and `manifest.json`, written last, so a folder without it is no backup. The
//! manifest names the master key by its fingerprint only (a keyed digest from which the
//! key cannot be recovered); the key itself never enters the folder.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use adapter_db::{BackupKind, Vault, create_private_dir};
use anyhow::{Context, bail};
use domain::ports::{Clock, DocumentStore};
use serde::{Deserialize, Serialize};
use time::format_description::well_known::Rfc3339;

use crate::cli::StorageArgs;
use crate::system::SystemClock;
use crate::{master_key, storage_cmd, wiring};

const MANIFEST: &str = "manifest.json";
const FILES: &str = "files";
/// The layout of the folder; a restore refuses one it does not know.
const FORMAT: u32 = 1;

/// What `manifest.json` says of the backup beside it.
#[derive(Debug, Serialize, Deserialize)]
struct Manifest {
    format: u32,
    /// When the copy of the database was taken (RFC 3339).
    created_at: String,
    /// `sqlite` or `postgres`.
    backend: String,
    /// The newest schema migration the database copy holds.
    schema_version: String,
    /// Stored files copied.
    files: usize,
    /// The master key's fingerprint, as `idv` reports it in its errors.
    master_key_fingerprint: String,
}

/// `idv backup --to DIR`: while the service runs.
pub async fn backup(to: &Path, storage: &StorageArgs) -> anyhow::Result<()> {
    if fs::read_dir(to).is_ok_and(|mut entries| entries.next().is_some()) {
        bail!(
            "{} is not empty: a backup goes into a new or empty folder",
            to.display()
        );
    }
    // An empty folder that was there already keeps its mode unless it is set.
    create_private_dir(to)
        .and_then(|()| fs::set_permissions(to, fs::Permissions::from_mode(0o700)))
        .with_context(|| format!("creating {}", to.display()))?;
    let to = to
        .canonicalize()
        .with_context(|| format!("resolving {}", to.display()))?;
    let db = wiring::open_migrated(storage)?;
    let kind = BackupKind::of(&wiring::database_url(storage));
    let created_at = SystemClock.now();
    let schema_version = db
        .snapshot(to.join(kind.file_name()))
        .await
        .context("copying the database")?;
    // After the database's copy: a file is stored before the document naming it is
    // written, so every file the copy names is in the store by now.
    let source = wiring::file_store(&db, storage)?;
    let target = db
        .file_store(Some(&local_url(&to.join(FILES))), to.join(FILES))
        .map_err(anyhow::Error::msg)?;
    let files = storage_cmd::migrate(source.as_ref(), target.as_ref())
        .await
        .context("copying the stored files")?
        .files();
    let manifest = Manifest {
        format: FORMAT,
        created_at: created_at.format(&Rfc3339)?,
        backend: kind.as_str().to_owned(),
        schema_version,
        files,
        master_key_fingerprint: db.master_key_fingerprint().to_owned(),
    };
    write_manifest(&to, &manifest)?;
    println!(
        "backup of {} taken at {} in {}: the database and {files} files",
        db.describe(),
        manifest.created_at,
        to.display()
    );
    Ok(())
}

/// `idv restore --from DIR`: into an empty database and an empty file store, under the
/// backup's master key.
pub async fn restore(from: &Path, storage: &StorageArgs) -> anyhow::Result<()> {
    let manifest = read_manifest(from)?;
    let kind = BackupKind::parse(&manifest.backend).with_context(|| {
        format!(
            "{}: unknown backend {:?}",
            from.join(MANIFEST).display(),
            manifest.backend
        )
    })?;
    let url = wiring::database_url(storage);
    if BackupKind::of(&url) != kind {
        bail!(
            "the backup holds a {} database, but the configured database is {}",
            kind.as_str(),
            BackupKind::of(&url).as_str()
        );
    }
    create_private_dir(&storage.data_dir)
        .with_context(|| format!("creating {}", storage.data_dir.display()))?;
    // Without a key configured, none is made: the backup's key must be given.
    let key = master_key::load(storage.master_key.as_deref(), &storage.data_dir, || {
        Ok(Some(manifest.master_key_fingerprint.clone()))
    })?;
    let vault = Arc::new(Vault::new(&key));
    if vault.fingerprint() != manifest.master_key_fingerprint {
        bail!(
            "the master key (fingerprint {}) is not the key this backup was taken under \
             (fingerprint {}): set IDV_MASTER_KEY (or the data directory's master.key) to \
             that key; nothing was restored",
            vault.fingerprint(),
            manifest.master_key_fingerprint
        );
    }
    let store = adapter_db::file_store(
        storage.storage_url.as_deref(),
        storage.data_dir.join(FILES),
        vault.clone(),
    )
    .map_err(anyhow::Error::msg)?;
    if !store
        .list()
        .await
        .context("listing the file store")?
        .is_empty()
    {
        bail!(
            "the file store is not empty: restore only into an empty store; nothing was restored"
        );
    }
    adapter_db::restore_database(&url, &from.join(kind.file_name()))?;
    // Checks the key against the restored database and applies any newer migrations.
    let db = wiring::open_migrated(storage)?;
    let from = from
        .canonicalize()
        .with_context(|| format!("resolving {}", from.display()))?;
    let source: Arc<dyn DocumentStore> =
        adapter_db::file_store(Some(&local_url(&from.join(FILES))), from.join(FILES), vault)
            .map_err(anyhow::Error::msg)?;
    let files = storage_cmd::migrate(source.as_ref(), store.as_ref())
        .await
        .context("copying the stored files")?
        .files();
    if files != manifest.files {
        bail!(
            "the backup's manifest lists {} files but {files} were found: the folder is damaged",
            manifest.files
        );
    }
    println!(
        "restored the backup taken at {} into {}: the database and {files} files",
        manifest.created_at,
        db.describe()
    );
    Ok(())
}

/// The store URL of a local folder.
fn local_url(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn write_manifest(dir: &Path, manifest: &Manifest) -> anyhow::Result<()> {
    let path = dir.join(MANIFEST);
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)
        .with_context(|| format!("creating {}", path.display()))?;
    file.write_all(serde_json::to_string_pretty(manifest)?.as_bytes())?;
    file.sync_all()?;
    // The manifest marks the backup complete: its name must be durable too.
    fs::File::open(dir)?.sync_all()?;
    Ok(())
}

fn read_manifest(dir: &Path) -> anyhow::Result<Manifest> {
    let path: PathBuf = dir.join(MANIFEST);
    let text = fs::read_to_string(&path).with_context(|| {
        format!(
            "{} is not a complete backup: {MANIFEST} cannot be read",
            dir.display()
        )
    })?;
    let manifest: Manifest = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a backup manifest", path.display()))?;
    if manifest.format != FORMAT {
        bail!(
            "{}: backup format {} is not known to this version (it reads {FORMAT})",
            path.display(),
            manifest.format
        );
    }
    Ok(manifest)
}
