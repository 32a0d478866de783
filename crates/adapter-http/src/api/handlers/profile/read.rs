use domain::paging::Page;

use crate::api::dto::paging::Paging;
use crate::api::dto::profile::{ProfileList, ReviewedProfile};
use crate::api::dto::requests::PageRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// The merchant's profiles, newest first.
#[utoipa::path(post, path = "/api/v1/profile/read", tag = "profiles",
    request_body = PageRequest,
    responses((status = 200, description = "A page of profiles", body = Envelope<ProfileList>)))]
pub async fn handle(state: State, req: Signed) -> Answer<ProfileList> {
    let page: Page = req.parse::<PageRequest, _>()?;
    let paged = state.profiles.list(&req.merchant, page).await?;
    Ok(Reply::ok(ProfileList {
        paging: Paging::of(page, &paged),
        profiles: paged.items.iter().map(ReviewedProfile::of).collect(),
    }))
}
