use domain::document::DocumentStatus;
use domain::event::Actor;
use domain::ids::DocumentId;
use domain::profile::ProfileKey;
use domain::services::DocumentAt;

use crate::api::dto::document::DocumentStatusAnswer;
use crate::api::dto::requests::DocumentStatusRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::timefmt::rfc3339;

/// Set a document's status (any status may follow any other).
#[utoipa::path(post, path = "/api/v1/document/update-status", tag = "documents",
    request_body = DocumentStatusRequest,
    responses((status = 200, description = "The new status", body = Envelope<DocumentStatusAnswer>)))]
pub async fn handle(state: State, req: Signed) -> Answer<DocumentStatusAnswer> {
    let (key, id, status): (ProfileKey, DocumentId, DocumentStatus) =
        req.parse::<DocumentStatusRequest, _>()?;
    let document = state
        .documents
        .set_status(
            &req.merchant,
            DocumentAt::OfProfile(&key, &id),
            status,
            Actor::Api,
        )
        .await?;
    Ok(Reply::ok(DocumentStatusAnswer {
        email_address: key.email.as_str().to_owned(),
        mobile_number: key.mobile.as_str().to_owned(),
        document_id: document.id.to_string(),
        status: document.status.as_str().to_owned(),
        updated_at: rfc3339(document.updated_at),
    }))
}
