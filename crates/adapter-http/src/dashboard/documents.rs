//! A document's files and the reviewer's verdict on it. Addresses name a document by its
//! id alone: it is looked up among the reviewer's merchant's documents only.

use actix_web::{HttpRequest, HttpResponse, web};
use domain::audit::AuditAction;
use domain::document::FileType;
use domain::event::Actor;
use domain::ids::{DocumentId, FileId};
use domain::services::DocumentAt;
use serde::Deserialize;

use super::profile::back_to;
use super::{CHOOSE_A_STATUS, StatusForm, failed, not_found, not_saved, poster, reviewer};
use crate::file_answer::{Disposition, file_answer};
use crate::handlers::State;

#[derive(Deserialize)]
pub(super) struct FilePath {
    id: String,
    file_id: String,
}

/// `GET /dashboard/documents/{id}/files/{file_id}`: an image shown in the page, a PDF
/// saved; never cached.
pub(super) async fn file(
    state: State,
    req: HttpRequest,
    path: web::Path<FilePath>,
) -> HttpResponse {
    let reviewer = match reviewer(&state, &req).await {
        Ok(r) => r,
        Err(answer) => return answer,
    };
    let (Ok(id), Ok(file_id)) = (DocumentId::parse(&path.id), FileId::parse(&path.file_id)) else {
        return not_found();
    };
    let found = state
        .documents
        .download(&reviewer.session.merchant_id, DocumentAt::Id(&id), &file_id)
        .await;
    let (file, download) = match found {
        Ok(found) => found,
        Err(e) => return failed(e),
    };
    let subject = format!("{id}/{file_id}");
    let viewed = AuditAction::DocumentFileViewed;
    let by = reviewer.initiator(&req);
    let merchant = &reviewer.session.merchant_id;
    if let Err(e) = state.audit.record(merchant, &by, viewed, &subject).await {
        return failed(e);
    }
    let disposition = match file.file_type {
        FileType::Pdf => Disposition::Attachment,
        FileType::Jpeg | FileType::Png => Disposition::Inline,
    };
    match file_answer(&file, download, disposition).await {
        Ok(answer) => answer,
        Err(e) => failed(e.into()),
    }
}

/// `POST /dashboard/documents/{id}/status`: the reviewer's verdict on a document, logged
/// with their e-mail; back to the document's profile.
pub(super) async fn set_status(
    state: State,
    req: HttpRequest,
    id: web::Path<String>,
    form: web::Form<StatusForm>,
) -> HttpResponse {
    let reviewer = match poster(&state, &req, &form.csrf_token).await {
        Ok(r) => r,
        Err(answer) => return answer,
    };
    let Ok(id) = DocumentId::parse(&id) else {
        return not_found();
    };
    let Some(status) = form.status() else {
        return not_saved(CHOOSE_A_STATUS);
    };
    let actor = Actor::Reviewer(&reviewer.session.email);
    let merchant = &reviewer.session.merchant_id;
    match state
        .documents
        .set_status(merchant, DocumentAt::Id(&id), status, actor)
        .await
    {
        Ok(document) => back_to(&document.profile_id),
        Err(e) => failed(e),
    }
}
