use domain::profile::{ProfileChanges, ProfileKey};

use crate::api::dto::profile::{ProfileAnswer, ProfileView};
use crate::api::dto::requests::ProfileRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// Create a client profile.
///
/// `response_time` is a two-decimal string here, as the interface shows.
#[utoipa::path(post, path = "/api/v1/profile/create", tag = "profiles",
    request_body = ProfileRequest,
    responses((status = 201, description = "Created", body = Envelope<ProfileAnswer>)))]
pub async fn handle(state: State, req: Signed) -> Answer<ProfileAnswer> {
    let (key, changes): (ProfileKey, ProfileChanges) = req.parse::<ProfileRequest, _>()?;
    let profile = state.profiles.create(&req.merchant, key, changes).await?;
    Ok(Reply::created(ProfileAnswer {
        profile: ProfileView::of(&profile),
    })
    .with_response_time_as_text())
}
