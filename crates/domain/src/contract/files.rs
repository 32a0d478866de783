//! The contract of the file store ([`DocumentStore`]): what an upload, a download, a
//! deletion and the sweeper's listing promise, whatever holds the bytes (memory, the
//! local disk, an S3 bucket). Each check gets an empty store.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::CheckOn;
use crate::ids::FileId;
use crate::ports::DocumentStore;

/// One promise of the file store's contract, run on an empty store.
pub type FileCheck = CheckOn<Arc<dyn DocumentStore>>;

/// Every check, by a name that reads as the promise.
pub const FILE_CHECKS: &[(&str, FileCheck)] = checks![
    "a_file_comes_back_exact_and_only_once_finished" => exact_once_finished,
    "an_aborted_upload_leaves_no_file" => aborted,
    "a_deleted_file_is_gone_and_deleting_it_again_is_no_error" => deleted,
    "files_stay_apart_by_id" => apart,
    "a_file_under_the_current_key_is_not_rewritten" => not_resealed,
];

/// A file id as the service makes them (a ULID: 26 letters and digits), numbered.
fn file_id(n: u8) -> FileId {
    FileId::new(format!("01JFILE{n:019}"))
}

/// `len` bytes that never repeat in step with any chunking (a multiplicative hash of the
/// position), so a piece out of place, lost or repeated shows.
fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len as u64)
        .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8 ^ seed)
        .collect()
}

/// Whether the sweeper's listing names `id` as a finished file.
async fn listed_finished(store: &dyn DocumentStore, id: &FileId) -> bool {
    let listed = store.list().await.expect("listed");
    listed.iter().any(|o| &o.file_id == id && !o.partial)
}

/// Stores `bytes` under `id` in pieces of at most `piece` bytes.
async fn put(store: &dyn DocumentStore, id: &FileId, bytes: &[u8], piece: usize) {
    let mut upload = store.begin(id).await.expect("begun");
    for chunk in bytes.chunks(piece) {
        upload.write(chunk.to_vec()).await.expect("written");
    }
    upload.finish().await.expect("finished");
}

async fn exact_once_finished(store: Arc<dyn DocumentStore>) {
    let id = file_id(1);
    // Pieces of odd sizes across any chunking a store seals with, and past one part of
    // a multipart upload (5 MiB).
    let bytes = pattern(6 * 1024 * 1024 + 1, 7);
    let mut upload = store.begin(&id).await.expect("begun");
    for chunk in bytes.chunks(70_001) {
        upload.write(chunk.to_vec()).await.expect("written");
    }
    assert!(
        store.open(&id).await.expect("read").is_none(),
        "nothing shows before the upload is finished"
    );
    assert!(!listed_finished(&*store, &id).await);
    upload.finish().await.expect("finished");
    let back = store.get(&id).await.expect("read").expect("the file");
    assert_eq!(back.len(), bytes.len());
    assert!(back == bytes, "the bytes come back exactly as written");
    // Read piece by piece, the pieces add up to the file too.
    let mut download = store.open(&id).await.expect("read").expect("the file");
    let mut joined = Vec::new();
    while let Some(piece) = download.next().await.expect("a piece") {
        joined.extend_from_slice(&piece);
    }
    assert!(joined == bytes);
    assert!(listed_finished(&*store, &id).await, "listed once finished");
}

async fn aborted(store: Arc<dyn DocumentStore>) {
    let id = file_id(2);
    let mut upload = store.begin(&id).await.expect("begun");
    upload.write(pattern(10_000, 1)).await.expect("written");
    upload.abort().await;
    assert!(store.open(&id).await.expect("read").is_none());
    assert!(!listed_finished(&*store, &id).await);
}

async fn deleted(store: Arc<dyn DocumentStore>) {
    let id = file_id(3);
    put(&*store, &id, &pattern(5_000, 2), 1_000).await;
    store.delete(&id).await.expect("deleted");
    assert!(store.open(&id).await.expect("read").is_none());
    assert!(store.get(&id).await.expect("read").is_none());
    assert!(!listed_finished(&*store, &id).await);
    store
        .delete(&id)
        .await
        .expect("a second deletion is no error");
    store
        .delete(&file_id(99))
        .await
        .expect("deleting a file never stored is no error");
}

async fn apart(store: Arc<dyn DocumentStore>) {
    let (a, b) = (file_id(4), file_id(5));
    put(&*store, &a, &pattern(20_000, 3), 4_096).await;
    put(&*store, &b, &pattern(30_000, 4), 65_536).await;
    assert!(store.get(&a).await.expect("read") == Some(pattern(20_000, 3)));
    assert!(store.get(&b).await.expect("read") == Some(pattern(30_000, 4)));
    store.delete(&a).await.expect("deleted");
    assert!(
        store.get(&b).await.expect("read") == Some(pattern(30_000, 4)),
        "deleting one file leaves the other"
    );
    assert!(store.get(&file_id(6)).await.expect("read").is_none());
}

async fn not_resealed(store: Arc<dyn DocumentStore>) {
    let id = file_id(7);
    put(&*store, &id, &pattern(1_000, 5), 1_000).await;
    assert!(!store.reseal(&id).await.expect("checked"));
    assert!(!store.reseal(&file_id(8)).await.expect("no such file"));
    assert!(store.get(&id).await.expect("read") == Some(pattern(1_000, 5)));
}

/// Runs every check on an empty store from `fresh`, each under its name; panics naming
/// every check that failed.
pub fn run_all(
    fresh: impl FnMut() -> Arc<dyn DocumentStore>,
    block_on: impl Fn(Pin<Box<dyn Future<Output = ()> + Send>>),
) {
    super::run_each(FILE_CHECKS, fresh, block_on);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::MemoryFiles;

    #[test]
    fn the_memory_file_store_keeps_the_contract() {
        run_all(
            || Arc::new(MemoryFiles::default()),
            futures_executor::block_on,
        );
    }
}
