use domain::event::Actor;
use domain::profile::{ProfileKey, ProfileStatus};

use crate::api::dto::profile::ProfileStatusAnswer;
use crate::api::dto::requests::ProfileStatusRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::timefmt::rfc3339;

/// Set a profile's status (any status may follow any other).
#[utoipa::path(post, path = "/api/v1/profile/update-status", tag = "profiles",
    request_body = ProfileStatusRequest,
    responses((status = 200, description = "The new status", body = Envelope<ProfileStatusAnswer>)))]
pub async fn handle(state: State, req: Signed) -> Answer<ProfileStatusAnswer> {
    let (key, status): (ProfileKey, ProfileStatus) = req.parse::<ProfileStatusRequest, _>()?;
    let profile = state
        .profiles
        .set_status(&req.merchant, &key, status, Actor::Api)
        .await?;
    Ok(Reply::ok(ProfileStatusAnswer {
        email_address: profile.key.email.as_str().to_owned(),
        mobile_number: profile.key.mobile.as_str().to_owned(),
        status: profile.status.as_str().to_owned(),
        updated_at: rfc3339(profile.updated_at),
    }))
}
