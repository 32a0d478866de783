use std::sync::Arc;

use time::OffsetDateTime;

use super::find_profile;
use crate::document::{Document, DocumentStatus, StoredFile};
use crate::error::{DomainError, Resource};
use crate::event::{Activity, Event};
use crate::merchant::MerchantId;
use crate::paging::{Page, Paged};
use crate::ports::{
    Clock, DocumentRepository, DocumentStore, IdGenerator, ProfileRepository, StoreError,
};
use crate::profile::{Profile, ProfileKey};

/// The merchant's review of what clients handed in.
#[derive(Clone)]
pub struct DocumentService {
    profiles: Arc<dyn ProfileRepository>,
    documents: Arc<dyn DocumentRepository>,
    store: Arc<dyn DocumentStore>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
}

impl std::fmt::Debug for DocumentService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DocumentService")
    }
}

impl DocumentService {
    pub fn new(
        profiles: Arc<dyn ProfileRepository>,
        documents: Arc<dyn DocumentRepository>,
        store: Arc<dyn DocumentStore>,
        clock: Arc<dyn Clock>,
        ids: Arc<dyn IdGenerator>,
    ) -> Self {
        Self {
            profiles,
            documents,
            store,
            clock,
            ids,
        }
    }

    /// The document, if it belongs to this profile of this merchant.
    pub async fn get(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
        id: &str,
    ) -> Result<(Profile, Document), DomainError> {
        let profile = find_profile(&*self.profiles, merchant, key).await?;
        let document = self
            .documents
            .find(&profile.id, id)
            .await?
            .ok_or(DomainError::NotFound(Resource::Document))?;
        Ok((profile, document))
    }

    pub async fn list(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
        page: Page,
    ) -> Result<(Profile, Paged<Document>), DomainError> {
        let profile = find_profile(&*self.profiles, merchant, key).await?;
        let documents = self.documents.list(&profile.id, page).await?;
        Ok((profile, documents))
    }

    pub async fn set_status(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
        id: &str,
        status: DocumentStatus,
    ) -> Result<Document, DomainError> {
        let (profile, mut document) = self.get(merchant, key, id).await?;
        let now = self.clock.now();
        let details = format!(
            "Document {} status changed from {} to {status}",
            document.name, document.status
        );
        document.status = status;
        document.updated_at = now;
        let event = Event::about(
            self.ids.next_id(),
            &profile,
            Activity::DocumentStatusChanged,
            details,
            now,
        );
        self.documents
            .update_status(&document, &event)
            .await
            .map_err(missing_document)?;
        Ok(document)
    }

    /// Deletes the document and, at once, its files' bytes.
    pub async fn delete(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
        id: &str,
    ) -> Result<OffsetDateTime, DomainError> {
        let (profile, document) = self.get(merchant, key, id).await?;
        let now = self.clock.now();
        let details = format!("Document {} deleted with its files", document.name);
        let event = Event::about(
            self.ids.next_id(),
            &profile,
            Activity::DocumentDeleted,
            details,
            now,
        );
        self.documents
            .delete(&document, &event)
            .await
            .map_err(missing_document)?;
        for file in document.files() {
            self.store.delete(&file.file_id).await?;
        }
        Ok(now)
    }

    /// One file of a document, with its bytes.
    pub async fn download(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
        id: &str,
        file_id: &str,
    ) -> Result<(StoredFile, Vec<u8>), DomainError> {
        let (_, document) = self.get(merchant, key, id).await?;
        let file = document
            .files()
            .iter()
            .find(|f| f.file_id == file_id)
            .cloned()
            .ok_or(DomainError::NotFound(Resource::File))?;
        let bytes = self.store.get(&file.file_id).await?.ok_or_else(|| {
            DomainError::Internal(format!("the bytes of file {} are missing", file.file_id))
        })?;
        Ok((file, bytes))
    }
}

fn missing_document(e: StoreError) -> DomainError {
    match e {
        StoreError::Missing => DomainError::NotFound(Resource::Document),
        other => other.into(),
    }
}
