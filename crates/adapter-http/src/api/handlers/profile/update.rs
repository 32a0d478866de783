use domain::profile::{ProfileChanges, ProfileKey};

use crate::api::dto::profile::{ProfileAnswer, ProfileView};
use crate::api::dto::requests::ProfileRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// Update a client profile: the pair names the profile and cannot be changed.
///
/// An absent field is left as it is; `null` or `""` clears an optional one.
#[utoipa::path(post, path = "/api/v1/profile/update", tag = "profiles",
    request_body = ProfileRequest,
    responses((status = 200, description = "Updated", body = Envelope<ProfileAnswer>)))]
pub async fn handle(state: State, req: Signed) -> Answer<ProfileAnswer> {
    let (key, changes): (ProfileKey, ProfileChanges) = req.parse::<ProfileRequest, _>()?;
    let profile = state.profiles.update(&req.merchant, &key, changes).await?;
    super::screen(&state, &profile).await;
    Ok(Reply::ok(ProfileAnswer {
        profile: ProfileView::of(&profile),
    })
    .with_response_time_as_text())
}
