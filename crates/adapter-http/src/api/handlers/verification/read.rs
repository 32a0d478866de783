use domain::paging::Page;
use domain::profile::ProfileKey;

use crate::api::dto::paging::Paging;
use crate::api::dto::requests::ProfilePageRequest;
use crate::api::dto::verification::{VerificationList, VerificationView};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// A profile's verifications, newest first.
#[utoipa::path(post, path = "/api/v1/verification/read", tag = "verifications",
    request_body = ProfilePageRequest,
    responses((status = 200, description = "A page of verifications", body = Envelope<VerificationList>)))]
pub async fn handle(state: State, req: Signed) -> Answer<VerificationList> {
    let (key, page): (ProfileKey, Page) = req.parse::<ProfilePageRequest, _>()?;
    let paged = state
        .verifications
        .of_profile(&req.merchant, &key, page)
        .await?;
    Ok(Reply::ok(VerificationList {
        paging: Paging::of(page, &paged),
        email_address: key.email.as_str().to_owned(),
        mobile_number: key.mobile.as_str().to_owned(),
        verifications: paged
            .items
            .iter()
            .map(|found| VerificationView::of(found, |l| req.shown(l)))
            .collect(),
    }))
}
