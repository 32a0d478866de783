use domain::ids::DocumentId;
use domain::profile::ProfileKey;
use domain::services::DocumentAt;

use crate::api::dto::YES;
use crate::api::dto::document::DocumentDeleted;
use crate::api::dto::requests::DocumentRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::timefmt::rfc3339;

/// Delete a document; its file bytes are removed at once.
#[utoipa::path(post, path = "/api/v1/document/delete", tag = "documents",
    request_body = DocumentRequest,
    responses((status = 200, description = "Deleted", body = Envelope<DocumentDeleted>)))]
pub async fn handle(state: State, req: Signed) -> Answer<DocumentDeleted> {
    let (key, id): (ProfileKey, DocumentId) = req.parse::<DocumentRequest, _>()?;
    let deleted_at = state
        .documents
        .delete(&req.merchant, DocumentAt::OfProfile(&key, &id))
        .await?;
    Ok(Reply::ok(DocumentDeleted {
        email_address: key.email.as_str().to_owned(),
        mobile_number: key.mobile.as_str().to_owned(),
        document_id: id.to_string(),
        deleted: YES,
        deleted_at: rfc3339(deleted_at),
    }))
}
