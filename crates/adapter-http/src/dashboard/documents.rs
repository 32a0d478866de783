//! A document's files and the reviewer's verdict on it. Addresses name a document by its
//! id alone: it is looked up among the reviewer's merchant's documents only.

use actix_web::{HttpResponse, web};
use domain::DomainError;
use domain::audit::AuditAction;
use domain::document::FileType;
use domain::event::Actor;
use domain::ids::{DocumentId, FileId};
use domain::services::DocumentAt;
use serde::Deserialize;

use super::profile::back_to;
use super::{DashboardError, Posted, Reviewer, StatusForm};
use crate::file_answer::{Disposition, file_answer};
use crate::state::State;

#[derive(Deserialize)]
pub(super) struct FilePath {
    id: String,
    file_id: String,
}

/// `GET /dashboard/documents/{id}/files/{file_id}`: an image shown in the page, a PDF
/// saved; never cached.
pub(super) async fn file(
    state: State,
    reviewer: Reviewer,
    path: web::Path<FilePath>,
) -> Result<HttpResponse, DashboardError> {
    let (Ok(id), Ok(file_id)) = (DocumentId::parse(&path.id), FileId::parse(&path.file_id)) else {
        return Err(DashboardError::NotFound);
    };
    let merchant = &reviewer.session.merchant_id;
    let (file, download) = state
        .documents
        .download(merchant, DocumentAt::Id(&id), &file_id)
        .await?;
    let subject = format!("{id}/{file_id}");
    let viewed = AuditAction::DocumentFileViewed;
    state
        .audit
        .record(merchant, &reviewer.initiator(), viewed, &subject)
        .await?;
    let disposition = match file.file_type {
        FileType::Pdf => Disposition::Attachment,
        FileType::Jpeg | FileType::Png => Disposition::Inline,
    };
    file_answer(&file, download, disposition)
        .await
        .map_err(|e| DomainError::from(e).into())
}

/// `POST /dashboard/documents/{id}/status`: the reviewer's verdict on a document, logged
/// with their e-mail; back to the document's profile.
pub(super) async fn set_status(
    state: State,
    Posted { reviewer, form }: Posted<StatusForm>,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    let id = DocumentId::parse(&id).map_err(|_| DashboardError::NotFound)?;
    let status = form.status()?;
    let actor = Actor::Reviewer(&reviewer.session.email);
    let merchant = &reviewer.session.merchant_id;
    let document = state
        .documents
        .set_status(merchant, DocumentAt::Id(&id), status, actor)
        .await?;
    Ok(back_to(&document.profile_id))
}
