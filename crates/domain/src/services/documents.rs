use std::sync::Arc;

use time::OffsetDateTime;

use super::find_profile;
use crate::document::{Document, DocumentStatus, StoredFile};
use crate::error::{DomainError, Resource};
use crate::event::{Activity, Actor};
use crate::ids::{DocumentId, FileId};
use crate::merchant::MerchantId;
use crate::outbox::Outbox;
use crate::paging::{Page, Paged};
use crate::ports::{
    Clock, DocumentRepository, DocumentStore, FileDownload, ProfileRepository, StoreError,
};
use crate::profile::{Profile, ProfileKey};

/// How old a partial upload or an unnamed file must be before the sweeper removes it.
pub const SWEEP_AFTER: time::Duration = time::Duration::hours(1);

/// What one sweep removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SweepReport {
    /// Uploads never finished, removed.
    pub partial_uploads: u64,
    /// Stored files no document named, removed.
    pub orphan_files: u64,
}

/// How a caller names a document; either way it is looked for among the merchant's only.
#[derive(Debug, Clone, Copy)]
pub enum DocumentAt<'a> {
    /// A document of the profile with this pair (the API names it so).
    OfProfile(&'a ProfileKey, &'a DocumentId),
    /// A document by its id alone (the dashboard's addresses).
    Id(&'a DocumentId),
}

/// The ports a [`DocumentService`] works through.
#[derive(Clone)]
pub struct DocumentPorts {
    /// Profiles.
    pub profiles: Arc<dyn ProfileRepository>,
    /// Documents.
    pub documents: Arc<dyn DocumentRepository>,
    /// Where files are kept.
    pub store: Arc<dyn DocumentStore>,
    /// The clock.
    pub clock: Arc<dyn Clock>,
    /// Makes the events, with their ids, and where they go.
    pub outbox: Outbox,
}

debug_as_name!(DocumentPorts);

/// The merchant's review of what clients handed in.
#[derive(Clone)]
pub struct DocumentService {
    profiles: Arc<dyn ProfileRepository>,
    documents: Arc<dyn DocumentRepository>,
    store: Arc<dyn DocumentStore>,
    clock: Arc<dyn Clock>,
    outbox: Outbox,
}

debug_as_name!(DocumentService);

impl DocumentService {
    /// The service over its ports.
    pub fn new(ports: DocumentPorts) -> Self {
        let DocumentPorts {
            profiles,
            documents,
            store,
            clock,
            outbox,
        } = ports;
        Self {
            profiles,
            documents,
            store,
            clock,
            outbox,
        }
    }

    /// Removes what no crash or failure may leave behind in the file store: uploads never
    /// finished, and files no document names (an upload whose record was never stored, a
    /// file whose removal failed). Only objects older than [`SWEEP_AFTER`] are touched, so
    /// an upload under way, or one whose record is being written, is left alone.
    pub async fn sweep_files(&self) -> Result<SweepReport, DomainError> {
        let cutoff = self.clock.now() - SWEEP_AFTER;
        let mut report = SweepReport::default();
        for object in self.store.list().await? {
            if object.modified > cutoff {
                continue;
            }
            let orphan = !object.partial && !self.documents.file_in_use(&object.file_id).await?;
            if object.partial || orphan {
                self.store.delete(&object.file_id).await?;
                if object.partial {
                    report.partial_uploads += 1;
                } else {
                    report.orphan_files += 1;
                }
            }
        }
        Ok(report)
    }

    /// The merchant's document `at`, with its profile; another merchant's is `NotFound`,
    /// as if it did not exist.
    pub async fn get(
        &self,
        merchant: &MerchantId,
        at: DocumentAt<'_>,
    ) -> Result<(Profile, Document), DomainError> {
        match at {
            DocumentAt::OfProfile(key, id) => {
                let profile = find_profile(&*self.profiles, merchant, key).await?;
                let document = self
                    .documents
                    .find(&profile.id, id)
                    .await?
                    .ok_or(DomainError::NotFound(Resource::Document))?;
                Ok((profile, document))
            }
            DocumentAt::Id(id) => {
                let document = self
                    .documents
                    .find_of_merchant(merchant, id)
                    .await?
                    .ok_or(DomainError::NotFound(Resource::Document))?;
                let profile = self
                    .profiles
                    .find_by_id(merchant, &document.profile_id)
                    .await?
                    .ok_or(DomainError::NotFound(Resource::Document))?;
                Ok((profile, document))
            }
        }
    }

    /// The profile's documents, newest first, with the profile.
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

    /// Sets a document's status and records it, with who set it.
    pub async fn set_status(
        &self,
        merchant: &MerchantId,
        at: DocumentAt<'_>,
        status: DocumentStatus,
        actor: Actor<'_>,
    ) -> Result<Document, DomainError> {
        let (profile, mut document) = self.get(merchant, at).await?;
        let now = self.clock.now();
        let details = actor.sign(format!(
            "Document {} status changed from {} to {status}",
            document.step.name(),
            document.status
        ));
        document.status = status;
        document.updated_at = now;
        let event = self
            .outbox
            .event(&profile, Activity::DocumentStatusChanged, details, now)
            .with_document(&document.id);
        self.documents
            .update_status(&document, &self.outbox.entry(event).await?)
            .await
            .map_err(missing_document)?;
        Ok(document)
    }

    /// Deletes the document and, at once, its files' bytes.
    pub async fn delete(
        &self,
        merchant: &MerchantId,
        at: DocumentAt<'_>,
    ) -> Result<OffsetDateTime, DomainError> {
        let (profile, document) = self.get(merchant, at).await?;
        let now = self.clock.now();
        let details = format!("Document {} deleted with its files", document.step.name());
        let event = self
            .outbox
            .event(&profile, Activity::DocumentDeleted, details, now)
            .with_document(&document.id);
        self.documents
            .delete(&document, &self.outbox.entry(event).await?)
            .await
            .map_err(missing_document)?;
        super::remove_files(
            self.store.as_ref(),
            document.files().iter().map(|f| &f.file_id),
        )
        .await;
        Ok(now)
    }

    /// One file of a document, with its bytes to read piece by piece.
    pub async fn download(
        &self,
        merchant: &MerchantId,
        at: DocumentAt<'_>,
        file_id: &FileId,
    ) -> Result<(StoredFile, Box<dyn FileDownload>), DomainError> {
        let (_, document) = self.get(merchant, at).await?;
        let file = document
            .files()
            .iter()
            .find(|f| &f.file_id == file_id)
            .cloned()
            .ok_or(DomainError::NotFound(Resource::File))?;
        let bytes = self.store.open(&file.file_id).await?.ok_or_else(|| {
            DomainError::Internal(format!("the bytes of file {} are missing", file.file_id).into())
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

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use async_trait::async_trait;
    use futures_executor::block_on;

    use super::*;
    use crate::memory::{FixedClock, MemoryFiles, MemoryProfiles, SequentialIds};
    use crate::outbox::Entry;
    use crate::ports::{FileUpload, StoreResult, StoredObject};
    use crate::profile::ProfileId;

    /// Documents that name a fixed set of files; the sweeper asks nothing else.
    struct Naming(HashSet<String>);

    #[async_trait]
    impl DocumentRepository for Naming {
        async fn find(&self, _: &ProfileId, _: &DocumentId) -> StoreResult<Option<Document>> {
            Ok(None)
        }
        async fn find_of_merchant(
            &self,
            _: &MerchantId,
            _: &DocumentId,
        ) -> StoreResult<Option<Document>> {
            Ok(None)
        }
        async fn list(&self, _: &ProfileId, _: Page) -> StoreResult<Paged<Document>> {
            Ok(Paged {
                items: Vec::new(),
                total_count: 0,
                filtered: 0,
            })
        }
        async fn update_status(&self, _: &Document, _: &Entry) -> StoreResult<()> {
            Err(StoreError::Missing)
        }
        async fn delete(&self, _: &Document, _: &Entry) -> StoreResult<()> {
            Err(StoreError::Missing)
        }
        async fn file_in_use(&self, file_id: &FileId) -> StoreResult<bool> {
            Ok(self.0.contains(file_id.as_str()))
        }
    }

    /// Files with chosen ages and states, over the memory store.
    struct Aged {
        files: MemoryFiles,
        objects: Vec<StoredObject>,
    }

    #[async_trait]
    impl DocumentStore for Aged {
        async fn begin(&self, id: &FileId) -> StoreResult<Box<dyn FileUpload>> {
            self.files.begin(id).await
        }
        async fn open(&self, id: &FileId) -> StoreResult<Option<Box<dyn FileDownload>>> {
            self.files.open(id).await
        }
        async fn delete(&self, id: &FileId) -> StoreResult<()> {
            self.files.delete(id).await
        }
        async fn list(&self) -> StoreResult<Vec<StoredObject>> {
            let held = self.files.list().await?;
            Ok(self
                .objects
                .iter()
                .filter(|o| held.iter().any(|h| h.file_id == o.file_id))
                .cloned()
                .collect())
        }
    }

    #[test]
    fn the_sweeper_removes_old_partial_and_unnamed_files_only() {
        let clock = FixedClock::default();
        let now = clock.0;
        let old = now - SWEEP_AFTER - time::Duration::minutes(1);
        let recent = now - time::Duration::minutes(5);
        let object = |id: &str, partial, modified| StoredObject {
            file_id: id.into(),
            partial,
            modified,
        };
        let store = Arc::new(Aged {
            files: MemoryFiles::default(),
            objects: vec![
                object("named", false, old),
                object("orphan", false, old),
                object("partial", true, old),
                object("fresh-orphan", false, recent),
                object("fresh-partial", true, recent),
            ],
        });
        for o in &store.objects {
            let mut upload = block_on(store.begin(&o.file_id)).expect("begin");
            block_on(upload.write(vec![1])).expect("write");
            block_on(upload.finish()).expect("finish");
        }
        let service = DocumentService::new(DocumentPorts {
            profiles: Arc::new(MemoryProfiles::default()),
            documents: Arc::new(Naming(HashSet::from(["named".to_owned()]))),
            store: store.clone(),
            clock: Arc::new(clock),
            outbox: crate::memory::outbox(Arc::new(SequentialIds::default())),
        });
        let report = block_on(service.sweep_files()).expect("swept");
        assert_eq!(
            report,
            SweepReport {
                partial_uploads: 1,
                orphan_files: 1
            }
        );
        let mut left: Vec<String> = block_on(store.files.list())
            .expect("list")
            .into_iter()
            .map(|o| o.file_id.to_string())
            .collect();
        left.sort();
        assert_eq!(left, ["fresh-orphan", "fresh-partial", "named"]);
    }
}
