use domain::profile::ProfileKey;

use crate::api::dto::profile::{ReviewedProfile, ReviewedProfileAnswer};
use crate::api::dto::requests::ProfileKeyRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// One profile, with its status and what the client submitted.
#[utoipa::path(post, path = "/api/v1/profile/get", tag = "profiles",
    request_body = ProfileKeyRequest,
    responses((status = 200, description = "The profile", body = Envelope<ReviewedProfileAnswer>)))]
pub async fn handle(state: State, req: Signed) -> Answer<ReviewedProfileAnswer> {
    let key: ProfileKey = req.parse::<ProfileKeyRequest, _>()?;
    let profile = state.profiles.get(&req.merchant, &key).await?;
    Ok(Reply::ok(ReviewedProfileAnswer {
        profile: ReviewedProfile::of(&profile),
    }))
}
