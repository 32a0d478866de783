//! The file store in memory.

use std::sync::Mutex;

use async_trait::async_trait;

use crate::ids::FileId;
use crate::ports::StoreResult;

type FileMap = std::sync::Arc<Mutex<std::collections::HashMap<FileId, Vec<u8>>>>;

/// Finished files by id; an upload shows only once finished.
#[derive(Debug, Default)]
pub struct MemoryFiles(FileMap);

impl MemoryFiles {
    /// Stores a whole file at once.
    pub fn put(&self, file_id: &FileId, bytes: &[u8]) {
        self.0
            .lock()
            .expect("lock")
            .insert(file_id.clone(), bytes.to_vec());
    }

    /// How many files are stored.
    pub fn count(&self) -> usize {
        self.0.lock().expect("lock").len()
    }
}

struct MemoryUpload {
    files: FileMap,
    file_id: FileId,
    bytes: Vec<u8>,
}

#[async_trait]
impl crate::ports::FileUpload for MemoryUpload {
    async fn write(&mut self, bytes: Vec<u8>) -> StoreResult<()> {
        self.bytes.extend(bytes);
        Ok(())
    }

    async fn finish(self: Box<Self>) -> StoreResult<()> {
        self.files
            .lock()
            .expect("lock")
            .insert(self.file_id, self.bytes);
        Ok(())
    }

    async fn abort(self: Box<Self>) {}
}

/// A held file, handed out in one piece.
struct MemoryDownload(Option<Vec<u8>>);

#[async_trait]
impl crate::ports::FileDownload for MemoryDownload {
    async fn next(&mut self) -> StoreResult<Option<Vec<u8>>> {
        Ok(self.0.take())
    }
}

#[async_trait]
impl crate::ports::DocumentStore for MemoryFiles {
    async fn begin(&self, file_id: &FileId) -> StoreResult<Box<dyn crate::ports::FileUpload>> {
        Ok(Box::new(MemoryUpload {
            files: self.0.clone(),
            file_id: file_id.clone(),
            bytes: Vec::new(),
        }))
    }

    async fn open(
        &self,
        file_id: &FileId,
    ) -> StoreResult<Option<Box<dyn crate::ports::FileDownload>>> {
        let bytes = self.0.lock().expect("lock").get(file_id).cloned();
        Ok(bytes.map(|b| Box::new(MemoryDownload(Some(b))) as _))
    }

    async fn delete(&self, file_id: &FileId) -> StoreResult<()> {
        self.0.lock().expect("lock").remove(file_id);
        Ok(())
    }

    async fn list(&self) -> StoreResult<Vec<crate::ports::StoredObject>> {
        Ok(self
            .0
            .lock()
            .expect("lock")
            .keys()
            .map(|id| crate::ports::StoredObject {
                file_id: id.clone(),
                partial: false,
                modified: time::OffsetDateTime::UNIX_EPOCH,
            })
            .collect())
    }
}
