//! One stored file streamed into a store: a copy to another store (`idv storage
//! migrate`), or a file rewritten in its own store under the current key (`idv rekey`).

use domain::ids::FileId;
use domain::ports::{DocumentStore, StoreResult};
use ring::digest::{Context as Digest, SHA256};

/// Streams file `id` from `source` to `target` (which may be the same store: the file is
/// then replaced whole once written, never seen half-written); returns the SHA-256 of what
/// was read, or `None` if the source no longer holds it.
pub async fn copy_file(
    source: &dyn DocumentStore,
    target: &dyn DocumentStore,
    id: &FileId,
) -> StoreResult<Option<String>> {
    let Some(mut download) = source.open(id).await? else {
        return Ok(None);
    };
    let mut upload = target.begin(id).await?;
    let mut digest = Digest::new(&SHA256);
    loop {
        match download.next().await {
            Ok(Some(piece)) => {
                digest.update(&piece);
                if let Err(e) = upload.write(piece).await {
                    upload.abort().await;
                    return Err(e);
                }
            }
            Ok(None) => break,
            Err(e) => {
                upload.abort().await;
                return Err(e);
            }
        }
    }
    upload.finish().await?;
    Ok(Some(hex::encode(digest.finish())))
}
