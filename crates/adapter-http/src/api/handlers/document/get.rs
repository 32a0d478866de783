use domain::ids::DocumentId;
use domain::profile::ProfileKey;
use domain::services::DocumentAt;

use crate::api::dto::document::{DocumentAnswer, DocumentProfile, DocumentView};
use crate::api::dto::requests::DocumentRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// One document of a profile, with the profile in the document layout.
#[utoipa::path(post, path = "/api/v1/document/get", tag = "documents",
    request_body = DocumentRequest,
    responses((status = 200, description = "The document", body = Envelope<DocumentAnswer>)))]
pub async fn handle(state: State, req: Signed) -> Answer<DocumentAnswer> {
    let (key, id): (ProfileKey, DocumentId) = req.parse::<DocumentRequest, _>()?;
    let (profile, document) = state
        .documents
        .get(&req.merchant, DocumentAt::OfProfile(&key, &id))
        .await?;
    Ok(Reply::ok(DocumentAnswer {
        email_address: profile.key.email.as_str().to_owned(),
        mobile_number: profile.key.mobile.as_str().to_owned(),
        profile: DocumentProfile::of(&profile),
        document: DocumentView::of(&document),
    }))
}
