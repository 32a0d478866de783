//! document/get, document/delete, document/update-status and document/download.

use domain::document::DocumentStatus;
use domain::ids::{DocumentId, FileId};
use domain::profile::ProfileKey;
use serde::Deserialize;
use utoipa::ToSchema;

use super::{ProfileKeyRequest, rules};
use crate::error::ApiError;
use crate::fields::{Check, Sent};

/// document/get and document/delete.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct DocumentRequest {
    #[serde(flatten)]
    pub key: ProfileKeyRequest,
    #[serde(default)]
    #[schema(schema_with = rules::object_id, required)]
    pub document_id: Sent,
}

impl DocumentRequest {
    /// The profile's pair and the document's id (a string, or an integer read as its
    /// decimal string).
    fn read(&self, c: &mut Check) -> Option<(ProfileKey, DocumentId)> {
        let key = self.key.read(c);
        let id = c.required_id("document_id", &self.document_id, DocumentId::parse);
        Some((key?, id?))
    }
}

impl TryFrom<DocumentRequest> for (ProfileKey, DocumentId) {
    type Error = ApiError;

    fn try_from(r: DocumentRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let read = r.read(&mut c);
        c.finish(|| read)
    }
}

/// document/update-status.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct DocumentStatusRequest {
    #[serde(flatten)]
    pub document: DocumentRequest,
    #[serde(default)]
    #[schema(schema_with = rules::document_status, required)]
    pub status: Sent,
}

impl TryFrom<DocumentStatusRequest> for (ProfileKey, DocumentId, DocumentStatus) {
    type Error = ApiError;

    fn try_from(r: DocumentStatusRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let document = r.document.read(&mut c);
        let status = c.required("status", &r.status, str::parse::<DocumentStatus>);
        c.finish(|| {
            let (key, id) = document?;
            Some((key, id, status?))
        })
    }
}

/// document/download.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct DownloadRequest {
    #[serde(flatten)]
    pub document: DocumentRequest,
    #[serde(default)]
    #[schema(schema_with = rules::object_id, required)]
    pub file_id: Sent,
}

impl TryFrom<DownloadRequest> for (ProfileKey, DocumentId, FileId) {
    type Error = ApiError;

    fn try_from(r: DownloadRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let document = r.document.read(&mut c);
        let file_id = c.required_id("file_id", &r.file_id, FileId::parse);
        c.finish(|| {
            let (key, id) = document?;
            Some((key, id, file_id?))
        })
    }
}
