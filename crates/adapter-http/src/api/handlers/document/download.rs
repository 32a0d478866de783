use actix_web::HttpResponse;
use domain::DomainError;
use domain::ids::DocumentId;
use domain::ids::FileId;
use domain::profile::ProfileKey;
use domain::services::DocumentAt;

use crate::api::dto::requests::DownloadRequest;
use crate::api::signed::Signed;
use crate::error::ApiError;
use crate::file_answer::{Disposition, file_answer};
use crate::state::State;

/// The bytes of one file of a document, as an attachment with its sniffed type.
#[utoipa::path(post, path = "/api/v1/document/download", tag = "documents",
    request_body = DownloadRequest,
    responses((status = 200, description = "The file's bytes, exactly as uploaded",
        content(("image/jpeg"), ("image/png"), ("application/pdf")))))]
pub async fn handle(state: State, req: Signed) -> Result<HttpResponse, ApiError> {
    let (key, id, file_id): (ProfileKey, DocumentId, FileId) = req.parse::<DownloadRequest, _>()?;
    let (file, download) = state
        .documents
        .download(&req.merchant, DocumentAt::OfProfile(&key, &id), &file_id)
        .await?;
    file_answer(&file, download, Disposition::Attachment)
        .await
        .map_err(|e| ApiError::from(DomainError::from(e)))
}
