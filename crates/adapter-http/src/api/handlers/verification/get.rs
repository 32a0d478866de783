use domain::paging::Page;
use domain::{DomainError, error::Resource};

use crate::api::dto::requests::{VerificationGetRequest, VerificationOf};
use crate::api::dto::verification::{VerificationAnswer, VerificationView};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// The latest verification of a quiz (by its long or short address), or of a profile (by
/// its e-mail and mobile).
#[utoipa::path(post, path = "/api/v1/verification/get", tag = "verifications",
    request_body = VerificationGetRequest,
    responses((status = 200, description = "The verification", body = Envelope<VerificationAnswer>)))]
pub async fn handle(state: State, req: Signed) -> Answer<VerificationAnswer> {
    let found = match req.parse::<VerificationGetRequest, _>()? {
        VerificationOf::Quiz(link) => state.verifications.of_quiz(&req.merchant, &link).await?,
        VerificationOf::Profile(key) => {
            let latest = Page::new(0, 1).unwrap_or_default();
            let mut paged = state
                .verifications
                .of_profile(&req.merchant, &key, latest)
                .await?;
            paged
                .items
                .pop()
                .ok_or(DomainError::NotFound(Resource::Verification))?
        }
    };
    Ok(Reply::ok(VerificationAnswer {
        verification: VerificationView::of(&found, |l| req.shown(l)),
    }))
}
