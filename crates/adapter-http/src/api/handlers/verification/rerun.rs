use domain::quiz::QuizLink;

use crate::api::dto::requests::QuizLinkRequest;
use crate::api::dto::verification::{VerificationAnswer, VerificationView};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// Queues another verification of a submitted quiz; answers it, `pending`.
#[utoipa::path(post, path = "/api/v1/verification/rerun", tag = "verifications",
    request_body = QuizLinkRequest,
    responses((status = 202, description = "The new verification, pending", body = Envelope<VerificationAnswer>)))]
pub async fn handle(state: State, req: Signed) -> Answer<VerificationAnswer> {
    let link: QuizLink = req.parse::<QuizLinkRequest, _>()?;
    let queued = state.verifications.rerun(&req.merchant, &link).await?;
    Ok(Reply::accepted(VerificationAnswer {
        verification: VerificationView::of(&queued, |l| req.shown(l)),
    }))
}
