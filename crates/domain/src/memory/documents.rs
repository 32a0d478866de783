//! Documents in memory, over the profiles' data.

use std::sync::Arc;

use async_trait::async_trait;

use super::{MemoryProfiles, page_of};
use crate::document::Document;
use crate::ids::{DocumentId, FileId};
use crate::merchant::MerchantId;
use crate::outbox::Entry;
use crate::paging::{Page, Paged};
use crate::ports::{DocumentRepository, StoreError, StoreResult};
use crate::profile::ProfileId;

/// Documents, over the same data as the quizzes that make them.
#[derive(Debug)]
pub struct MemoryDocuments(pub Arc<MemoryProfiles>);

#[async_trait]
impl DocumentRepository for MemoryDocuments {
    async fn find(&self, profile: &ProfileId, id: &DocumentId) -> StoreResult<Option<Document>> {
        let documents = self.0.documents.lock().expect("lock");
        Ok(documents
            .iter()
            .find(|d| &d.profile_id == profile && &d.id == id)
            .cloned())
    }

    async fn find_of_merchant(
        &self,
        merchant: &MerchantId,
        id: &DocumentId,
    ) -> StoreResult<Option<Document>> {
        let documents = self.0.documents.lock().expect("lock");
        Ok(documents
            .iter()
            .find(|d| &d.merchant_id == merchant && &d.id == id)
            .cloned())
    }

    async fn list(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Document>> {
        let documents = self.0.documents.lock().expect("lock");
        let mine = documents
            .iter()
            .filter(|d| &d.profile_id == profile)
            .cloned()
            .collect();
        Ok(page_of(mine, page))
    }

    async fn update_status(&self, document: &Document, entry: &Entry) -> StoreResult<()> {
        let mut documents = self.0.documents.lock().expect("lock");
        let stored = documents
            .iter_mut()
            .find(|d| d.id == document.id)
            .ok_or(StoreError::Missing)?;
        stored.status = document.status;
        stored.updated_at = document.updated_at;
        self.0.record(entry);
        Ok(())
    }

    async fn delete(&self, document: &Document, entry: &Entry) -> StoreResult<()> {
        let mut documents = self.0.documents.lock().expect("lock");
        let before = documents.len();
        documents.retain(|d| d.id != document.id);
        if documents.len() == before {
            return Err(StoreError::Missing);
        }
        self.0.record(entry);
        Ok(())
    }

    async fn file_in_use(&self, file_id: &FileId) -> StoreResult<bool> {
        let documents = self.0.documents.lock().expect("lock");
        Ok(documents
            .iter()
            .any(|d| d.files().iter().any(|f| &f.file_id == file_id)))
    }
}
