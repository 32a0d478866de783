use crate::api::dto::paging::{Paging, read_page};
use crate::api::dto::profile::read_key;
use crate::api::dto::requests::ProfilePageRequest;
use crate::api::dto::verification::{VerificationList, VerificationView};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::fields::Fields;

/// A profile's verifications, newest first.
#[utoipa::path(post, path = "/api/v1/verification/read", tag = "verifications",
    request_body = ProfilePageRequest,
    responses((status = 200, description = "A page of verifications", body = Envelope<VerificationList>)))]
pub async fn handle(state: State, req: Signed) -> Answer<VerificationList> {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    let page = read_page(&mut f, false);
    let (key, page) = f.finish(|| Some((key?, page?)))?;
    let paged = state
        .verifications
        .of_profile(&req.merchant, &key, page)
        .await?;
    Ok(Reply::ok(VerificationList {
        paging: Paging::of(page, &paged),
        email_address: key.email.as_str().to_owned(),
        mobile_number: key.mobile.as_str().to_owned(),
        verifications: paged.items.iter().map(VerificationView::of).collect(),
    }))
}
