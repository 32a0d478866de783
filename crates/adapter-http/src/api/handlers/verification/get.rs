use domain::paging::Page;
use domain::{DomainError, error::Resource};

use crate::api::dto::profile::read_key;
use crate::api::dto::quiz::read_link;
use crate::api::dto::requests::VerificationGetRequest;
use crate::api::dto::verification::{VerificationAnswer, VerificationView};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::fields::Fields;

/// The latest verification of a quiz (by its long or short address), or of a profile (by
/// its e-mail and mobile).
#[utoipa::path(post, path = "/api/v1/verification/get", tag = "verifications",
    request_body = VerificationGetRequest,
    responses((status = 200, description = "The verification", body = Envelope<VerificationAnswer>)))]
pub async fn handle(state: State, req: Signed) -> Answer<VerificationAnswer> {
    let mut f = Fields::new(&req.body);
    let found = if f.has("url") || f.has("short_url") || !f.has("email_address") {
        let link = read_link(&mut f);
        let link = f.finish(|| link)?;
        state.verifications.of_quiz(&req.merchant, &link).await?
    } else {
        let key = read_key(&mut f);
        let key = f.finish(|| key)?;
        let latest = Page::new(0, 1).unwrap_or_default();
        let mut paged = state
            .verifications
            .of_profile(&req.merchant, &key, latest)
            .await?;
        paged
            .items
            .pop()
            .ok_or(DomainError::NotFound(Resource::Verification))?
    };
    Ok(Reply::ok(VerificationAnswer {
        verification: VerificationView::of(&found),
    }))
}
