//! `DocumentStore` on the local file system, under the data directory.

use std::fs::{self, File};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use async_trait::async_trait;
use domain::ports::{DocumentStore, StoreError, StoreResult};

/// Files live at `{root}/{last two characters of the id}/{id}`: ULIDs start with the
/// time, so their ends spread files evenly across 1024 folders.
#[derive(Debug, Clone)]
pub struct FileStore {
    root: PathBuf,
}

impl FileStore {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    fn path(&self, file_id: &str) -> StoreResult<PathBuf> {
        // Ids are ours (ULIDs); refuse anything else rather than touch an odd path.
        if file_id.len() < 2 || !file_id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(StoreError::Internal(format!("not a file id: {file_id:?}")));
        }
        Ok(self.root.join(&file_id[file_id.len() - 2..]).join(file_id))
    }
}

fn io_error(e: std::io::Error) -> StoreError {
    StoreError::Internal(format!("file store: {e}"))
}

/// Written under a temporary name, flushed to disk, then renamed into place and the
/// folder flushed: a file either exists whole or not at all, even after a crash.
fn write_durably(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| std::io::Error::other("no parent folder"))?;
    fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let temporary = dir.join(format!(".{name}.partial"));
    let mut file = File::create(&temporary)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    fs::rename(&temporary, path)?;
    File::open(dir)?.sync_all()
}

async fn blocking<T: Send + 'static>(
    job: impl FnOnce() -> StoreResult<T> + Send + 'static,
) -> StoreResult<T> {
    tokio::task::spawn_blocking(job)
        .await
        .map_err(|e| StoreError::Internal(format!("file task failed: {e}")))?
}

#[async_trait]
impl DocumentStore for FileStore {
    async fn put(&self, file_id: &str, bytes: &[u8]) -> StoreResult<()> {
        let (path, bytes) = (self.path(file_id)?, bytes.to_vec());
        blocking(move || write_durably(&path, &bytes).map_err(io_error)).await
    }

    async fn get(&self, file_id: &str) -> StoreResult<Option<Vec<u8>>> {
        let path = self.path(file_id)?;
        blocking(move || match fs::read(&path) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_error(e)),
        })
        .await
    }

    async fn delete(&self, file_id: &str) -> StoreResult<()> {
        let path = self.path(file_id)?;
        blocking(move || match fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io_error(e)),
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<T>(f: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime")
            .block_on(f)
    }

    #[test]
    fn files_are_stored_read_and_deleted() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = FileStore::new(dir.path());
        run(async {
            store.put("01ABCDEF", b"bytes").await.expect("put");
            assert_eq!(
                store.get("01ABCDEF").await.expect("get"),
                Some(b"bytes".to_vec())
            );
            assert!(dir.path().join("EF").join("01ABCDEF").exists());
            store.delete("01ABCDEF").await.expect("delete");
            assert_eq!(store.get("01ABCDEF").await.expect("get"), None);
            store
                .delete("01ABCDEF")
                .await
                .expect("deleting twice is fine");
        });
    }

    #[test]
    fn odd_ids_are_refused() {
        let store = FileStore::new("/nonexistent");
        assert!(run(store.get("../etc/passwd")).is_err());
        assert!(run(store.put("a/b", b"x")).is_err());
    }
}
