use domain::profile::ProfileKey;

use crate::api::dto::YES;
use crate::api::dto::profile::ProfileDeleted;
use crate::api::dto::requests::ProfileKeyRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::timefmt::rfc3339;

/// Erase a profile and everything under it (quizzes, documents and their files, notes,
/// events). The pair is free again afterwards.
#[utoipa::path(post, path = "/api/v1/profile/delete", tag = "profiles",
    request_body = ProfileKeyRequest,
    responses((status = 200, description = "Erased", body = Envelope<ProfileDeleted>)))]
pub async fn handle(state: State, req: Signed) -> Answer<ProfileDeleted> {
    let key: ProfileKey = req.parse::<ProfileKeyRequest, _>()?;
    let deleted_at = state.profiles.delete(&req.merchant, &key).await?;
    Ok(Reply::ok(ProfileDeleted {
        email_address: key.email.as_str().to_owned(),
        mobile_number: key.mobile.as_str().to_owned(),
        deleted: YES,
        deleted_at: rfc3339(deleted_at),
    }))
}
