//! `idv rekey`: the master key rotation of contract §15, run beside instances serving on
//! both keys (docs/DEPLOY.md, key rotation). Every part of the database, then every stored
//! file, is brought under the new key in batches; progress is printed as counts, never
//! values. Killed anywhere, it is run again: what is under the new key already is skipped.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, bail};
use domain::ports::DocumentRepository;

use crate::cli::StorageArgs;
use crate::wiring;

pub async fn run(
    new_key_file: Option<&Path>,
    batch: usize,
    pause_ms: u64,
    storage: StorageArgs,
) -> anyhow::Result<()> {
    let from_file = new_key_file
        .map(|path| {
            std::fs::read_to_string(path)
                .with_context(|| format!("reading the new master key from {}", path.display()))
                .map(|text| (text, path.display().to_string()))
        })
        .transpose()?;
    let new_key = match (&from_file, &storage.new_master_key) {
        (Some((text, path)), _) => (text.as_str(), path.as_str()),
        (None, Some(text)) => (text.as_str(), "IDV_NEW_MASTER_KEY"),
        (None, None) => {
            bail!("idv rekey needs the new master key: --new-key-file FILE or IDV_NEW_MASTER_KEY")
        }
    };
    let db = wiring::open_database_with(&storage, Some(new_key))?;
    wiring::migrate(&db)?;
    println!(
        "rotating {} to the master key {}",
        db.describe(),
        db.master_key_fingerprint()
    );
    let (batch, pause) = (batch.max(1), Duration::from_millis(pause_ms));
    for part in adapter_db::REKEY_PARTS {
        let (mut after, mut resealed) = (String::new(), 0);
        loop {
            let done = db.rekey_batch(part, after, batch).await?;
            resealed += done.resealed;
            let Some(next) = done.next else { break };
            println!("{}: {resealed} re-sealed so far", part.name);
            after = next;
            tokio::time::sleep(pause).await;
        }
        println!("{}: done, {resealed} re-sealed", part.name);
    }
    let store = wiring::file_store(&db, &storage)?;
    let (mut after, mut resealed) = (String::new(), 0);
    loop {
        let ids = db.files_after(after, batch).await?;
        let Some(last) = ids.last() else { break };
        after = last.to_string();
        for id in &ids {
            if store.reseal(id).await? {
                resealed += 1;
                // Its document was deleted while it was rewritten: rewriting it must not
                // bring it back.
                if !db.file_in_use(id).await? {
                    store.delete(id).await?;
                }
            }
        }
        println!("files: {resealed} re-sealed so far");
        tokio::time::sleep(pause).await;
    }
    println!("files: done, {resealed} re-sealed");
    db.finish_rekey().await?;
    println!(
        "done: everything is sealed under the master key {}. Set IDV_MASTER_KEY to the new \
         key, unset IDV_NEW_MASTER_KEY and restart every instance; the old key opens nothing.",
        db.master_key_fingerprint()
    );
    Ok(())
}
