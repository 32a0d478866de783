use domain::document::DocumentStatus;
use domain::event::Actor;
use domain::services::DocumentAt;

use crate::api::dto::document::{DocumentStatusAnswer, read_document_id};
use crate::api::dto::profile::read_key;
use crate::api::dto::requests::DocumentStatusRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::fields::Fields;
use crate::timefmt::rfc3339;

/// Set a document's status (any status may follow any other).
#[utoipa::path(post, path = "/api/v1/document/update-status", tag = "documents",
    request_body = DocumentStatusRequest,
    responses((status = 200, description = "The new status", body = Envelope<DocumentStatusAnswer>)))]
pub async fn handle(state: State, req: Signed) -> Answer<DocumentStatusAnswer> {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    let id = read_document_id(&mut f);
    let status = f.required("status", str::parse::<DocumentStatus>);
    let (key, id, status) = f.finish(|| Some((key?, id?, status?)))?;
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
