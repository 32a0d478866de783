//! `DocumentStore` on the local file system, under the data directory. Bytes are sealed
//! (`sealing/file_cipher.rs`) before they are written: what lies on disk never holds a document
//! in clear. Folders are created `0700` and files `0600`.

use domain::error::Report;
use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use domain::OffsetDateTime;
use domain::ids::FileId;
use domain::ports::{
    DocumentStore, FileDownload, FileUpload, StoreError, StoreResult, StoredObject,
};

use crate::failure::fault;
use crate::sealing::file_cipher::{CHUNK, Decryptor, FILE_HEAD};
use crate::sealing::vault::Vault;
use crate::storage::copy::copy_file;

/// Whether a stored file whose sealed bytes start with `head` is to be sealed again: it is
/// under an older key than the current one.
pub(crate) fn resealable(vault: &Vault, file_id: &FileId, head: &[u8]) -> StoreResult<bool> {
    match vault.file_is_current(head) {
        Some(current) => Ok(!current),
        None => Err(StoreError::Internal(
            format!("stored file {file_id} is not a sealed file").into(),
        )),
    }
}

/// Suffix of an upload under way: renamed to the file's id once finished.
const PARTIAL: &str = ".partial";
/// Tries for a removal before it is reported (the sweeper tries again later).
const DELETE_TRIES: u32 = 3;

/// Files live at `{root}/{last two characters of the id}/{id}`: ULIDs start with the
/// time, so their ends spread files evenly across 1024 folders.
#[derive(Debug, Clone)]
pub struct FileStore {
    root: PathBuf,
    vault: Arc<Vault>,
}

fn io_error(e: std::io::Error) -> StoreError {
    StoreError::Internal(fault("file store", e))
}

/// Creates `dir` and its missing parents with mode 0700.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    DirBuilder::new().recursive(true).mode(0o700).create(dir)
}

async fn blocking<T: Send + 'static>(
    job: impl FnOnce() -> StoreResult<T> + Send + 'static,
) -> StoreResult<T> {
    tokio::task::spawn_blocking(job)
        .await
        .map_err(|e| StoreError::Internal(fault("file task", e)))?
}

impl FileStore {
    pub fn new(root: impl Into<PathBuf>, vault: Arc<Vault>) -> Self {
        Self {
            root: root.into(),
            vault,
        }
    }

    fn path(&self, file_id: &str) -> StoreResult<PathBuf> {
        // Ids are ours (ULIDs); refuse anything else rather than touch an odd path.
        if file_id.len() < 2 || !file_id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(StoreError::Internal(
                format!("not a file id: {file_id:?}").into(),
            ));
        }
        Ok(self.root.join(&file_id[file_id.len() - 2..]).join(file_id))
    }
}

/// An upload under way: sealed chunks appended to `{id}.partial`, renamed into place,
/// flushed and its folder flushed by `finish`, so that a file exists whole or not at all.
struct LocalUpload {
    file_id: FileId,
    path: PathBuf,
    partial: PathBuf,
    /// Plaintext not yet sealed and the file it goes to, moved into each blocking job.
    state: Option<(crate::sealing::file_cipher::Encryptor, File)>,
}

impl LocalUpload {
    /// Runs `job` on the open file off the async workers, where sealing and writing happen.
    async fn with_file<T: Send + 'static>(
        &mut self,
        job: impl FnOnce(&mut crate::sealing::file_cipher::Encryptor, &mut File) -> StoreResult<T>
        + Send
        + 'static,
    ) -> StoreResult<T> {
        let (mut encryptor, mut file) = self
            .state
            .take()
            .ok_or_else(|| StoreError::Internal("upload already ended".into()))?;
        let (result, encryptor, file) = blocking(move || {
            let result = job(&mut encryptor, &mut file);
            Ok((result, encryptor, file))
        })
        .await?;
        self.state = Some((encryptor, file));
        result
    }
}

#[async_trait]
impl FileUpload for LocalUpload {
    async fn write(&mut self, bytes: Vec<u8>) -> StoreResult<()> {
        self.with_file(move |encryptor, file| {
            let sealed = encryptor
                .push(&bytes)
                .map_err(|e| StoreError::Internal(Box::new(e)))?;
            file.write_all(&sealed).map_err(io_error)
        })
        .await
    }

    async fn finish(mut self: Box<Self>) -> StoreResult<()> {
        let (encryptor, mut file) = self
            .state
            .take()
            .ok_or_else(|| StoreError::Internal("upload already ended".into()))?;
        let (partial, path) = (self.partial.clone(), self.path.clone());
        blocking(move || {
            let last = encryptor
                .finish()
                .map_err(|e| StoreError::Internal(Box::new(e)))?;
            file.write_all(&last).map_err(io_error)?;
            file.sync_all().map_err(io_error)?;
            fs::rename(&partial, &path).map_err(io_error)?;
            let dir = path.parent().unwrap_or(Path::new("."));
            File::open(dir).and_then(|d| d.sync_all()).map_err(io_error)
        })
        .await
    }

    async fn abort(mut self: Box<Self>) {
        self.state = None;
        let partial = self.partial.clone();
        let _ = blocking(move || {
            let _ = fs::remove_file(partial);
            Ok(())
        })
        .await;
        tracing::debug!(file.id = %self.file_id, "upload aborted");
    }
}

/// Sealed bytes read from disk a piece at a time, opened on the way.
struct LocalDownload {
    /// `None` once the last chunk was opened.
    state: Option<(Decryptor, File)>,
}

/// Sealed bytes read per piece: a few chunks, so a download holds little in memory.
const READ_PIECE: usize = 4 * CHUNK;

#[async_trait]
impl FileDownload for LocalDownload {
    async fn next(&mut self) -> StoreResult<Option<Vec<u8>>> {
        let Some((mut decryptor, mut file)) = self.state.take() else {
            return Ok(None);
        };
        let (plain, state) = blocking(move || {
            let undecryptable =
                |e: crate::sealing::file_cipher::Undecryptable| StoreError::Internal(Box::new(e));
            let mut buffer = vec![0u8; READ_PIECE];
            loop {
                let read = file.read(&mut buffer).map_err(io_error)?;
                if read == 0 {
                    return Ok((decryptor.finish().map_err(undecryptable)?, None));
                }
                let plain = decryptor.push(&buffer[..read]).map_err(undecryptable)?;
                if !plain.is_empty() {
                    return Ok((plain, Some((decryptor, file))));
                }
            }
        })
        .await?;
        self.state = state;
        Ok(Some(plain))
    }
}

#[async_trait]
impl DocumentStore for FileStore {
    async fn begin(&self, file_id: &FileId) -> StoreResult<Box<dyn FileUpload>> {
        let path = self.path(file_id.as_str())?;
        let partial = path.with_file_name(format!("{file_id}{PARTIAL}"));
        let encryptor = self
            .vault
            .file_encryptor(file_id.as_str())
            .map_err(|e| StoreError::Internal(Box::new(e)))?;
        let open_path = partial.clone();
        let file = blocking(move || {
            if let Some(dir) = open_path.parent() {
                create_private_dir(dir).map_err(io_error)?;
            }
            OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&open_path)
                .map_err(io_error)
        })
        .await?;
        Ok(Box::new(LocalUpload {
            file_id: file_id.clone(),
            path,
            partial,
            state: Some((encryptor, file)),
        }))
    }

    async fn open(&self, file_id: &FileId) -> StoreResult<Option<Box<dyn FileDownload>>> {
        let path = self.path(file_id.as_str())?;
        let file = blocking(move || match File::open(&path) {
            Ok(file) => Ok(Some(file)),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_error(e)),
        })
        .await?;
        Ok(file.map(|file| {
            let decryptor = self.vault.file_decryptor(file_id.as_str());
            Box::new(LocalDownload {
                state: Some((decryptor, file)),
            }) as _
        }))
    }

    /// Tried a few times; a file that still cannot be removed is logged (with its id, never
    /// its content) and left to the sweeper.
    async fn delete(&self, file_id: &FileId) -> StoreResult<()> {
        let path = self.path(file_id.as_str())?;
        let id = file_id.to_owned();
        blocking(move || {
            let mut last = None;
            for attempt in 1..=DELETE_TRIES {
                match fs::remove_file(&path) {
                    Ok(()) => return Ok(()),
                    Err(e) if e.kind() == ErrorKind::NotFound => return Ok(()),
                    Err(e) => {
                        last = Some(e);
                        std::thread::sleep(Duration::from_millis(50 * u64::from(attempt)));
                    }
                }
            }
            let error = last.map(io_error).unwrap_or_else(|| io_error(ErrorKind::Other.into()));
            tracing::warn!(file.id = %id, error = %Report(&error), "stored file could not be removed; the sweeper will retry");
            Err(error)
        })
        .await
    }

    async fn reseal(&self, file_id: &FileId) -> StoreResult<bool> {
        let path = self.path(file_id.as_str())?;
        let partial = path.with_file_name(format!("{file_id}{PARTIAL}"));
        let head = blocking(move || {
            let mut file = match File::open(&path) {
                Ok(file) => file,
                Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
                Err(e) => return Err(io_error(e)),
            };
            let mut head = vec![0u8; FILE_HEAD];
            file.read_exact(&mut head).map_err(io_error)?;
            Ok(Some(head))
        })
        .await?;
        let Some(head) = head else { return Ok(false) };
        if !resealable(&self.vault, file_id, &head)? {
            return Ok(false);
        }
        // Uploads never reuse an id: a partial beside a finished file is what a killed
        // rotation left, and would stop this one.
        blocking(move || match fs::remove_file(partial) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io_error(e)),
        })
        .await?;
        Ok(copy_file(self, self, file_id).await?.is_some())
    }

    async fn list(&self) -> StoreResult<Vec<StoredObject>> {
        let root = self.root.clone();
        blocking(move || {
            let mut objects = Vec::new();
            let shards = match fs::read_dir(&root) {
                Ok(shards) => shards,
                Err(e) if e.kind() == ErrorKind::NotFound => return Ok(objects),
                Err(e) => return Err(io_error(e)),
            };
            for shard in shards.flatten() {
                for entry in fs::read_dir(shard.path()).map_err(io_error)?.flatten() {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let (file_id, partial) = match name.strip_suffix(PARTIAL) {
                        Some(id) => (id.to_owned(), true),
                        None => (name, false),
                    };
                    let modified = entry
                        .metadata()
                        .and_then(|m| m.modified())
                        .map(OffsetDateTime::from)
                        .map_err(io_error)?;
                    objects.push(StoredObject {
                        file_id: file_id.into(),
                        partial,
                        modified,
                    });
                }
            }
            Ok(objects)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;
    use crate::sealing::vault::MASTER_KEY_LEN;

    fn run<T>(f: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime")
            .block_on(f)
    }

    fn store(dir: &Path) -> FileStore {
        FileStore::new(dir, Arc::new(Vault::new(&[5; MASTER_KEY_LEN])))
    }

    async fn put(store: &FileStore, id: &str, pieces: &[&[u8]]) {
        let mut upload = store.begin(&id.into()).await.expect("begin");
        for piece in pieces {
            upload.write(piece.to_vec()).await.expect("write");
        }
        upload.finish().await.expect("finish");
    }

    #[test]
    fn files_are_stored_sealed_private_read_back_and_deleted() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = store(dir.path());
        run(async {
            put(&store, "01ABCDEF", &[b"MARKER-", b"bytes"]).await;
            assert_eq!(
                store.get(&"01ABCDEF".into()).await.expect("get"),
                Some(b"MARKER-bytes".to_vec())
            );
            let path = dir.path().join("EF").join("01ABCDEF");
            let on_disk = fs::read(&path).expect("on disk");
            assert!(!on_disk.windows(7).any(|w| w == b"MARKER-"), "sealed");
            let mode = |p: &Path| fs::metadata(p).expect("meta").permissions().mode() & 0o777;
            assert_eq!(mode(&path), 0o600);
            assert_eq!(mode(&dir.path().join("EF")), 0o700);
            store.delete(&"01ABCDEF".into()).await.expect("delete");
            assert_eq!(store.get(&"01ABCDEF".into()).await.expect("get"), None);
            store
                .delete(&"01ABCDEF".into())
                .await
                .expect("deleting twice is fine");
        });
    }

    #[test]
    fn an_upload_is_invisible_until_finished_and_gone_when_aborted() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = store(dir.path());
        run(async {
            let mut upload = store.begin(&"01PARTXY".into()).await.expect("begin");
            upload.write(b"half".to_vec()).await.expect("write");
            assert_eq!(store.get(&"01PARTXY".into()).await.expect("get"), None);
            let listed = store.list().await.expect("list");
            assert_eq!(listed.len(), 1);
            assert!(listed[0].partial && listed[0].file_id.as_str() == "01PARTXY");
            upload.abort().await;
            assert!(store.list().await.expect("list").is_empty());
        });
    }

    #[test]
    fn odd_ids_are_refused() {
        let store = store(Path::new("/nonexistent"));
        assert!(run(store.get(&"../etc/passwd".into())).is_err());
        assert!(run(store.begin(&"a/b".into())).is_err());
    }
}
