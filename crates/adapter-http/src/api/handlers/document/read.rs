use domain::paging::Page;
use domain::profile::ProfileKey;

use crate::api::dto::document::{DocumentList, DocumentProfile, DocumentView};
use crate::api::dto::paging::Paging;
use crate::api::dto::requests::ProfilePageRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// A profile's documents, newest first.
#[utoipa::path(post, path = "/api/v1/document/read", tag = "documents",
    request_body = ProfilePageRequest,
    responses((status = 200, description = "A page of documents", body = Envelope<DocumentList>)))]
pub async fn handle(state: State, req: Signed) -> Answer<DocumentList> {
    let (key, page): (ProfileKey, Page) = req.parse::<ProfilePageRequest, _>()?;
    let (profile, paged) = state.documents.list(&req.merchant, &key, page).await?;
    Ok(Reply::ok(DocumentList {
        paging: Paging::of(page, &paged),
        email_address: profile.key.email.as_str().to_owned(),
        mobile_number: profile.key.mobile.as_str().to_owned(),
        profile: DocumentProfile::of(&profile),
        documents: paged.items.iter().map(DocumentView::of).collect(),
    }))
}
