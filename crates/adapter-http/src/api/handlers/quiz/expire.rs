use domain::quiz::QuizLink;

use crate::api::dto::YES;
use crate::api::dto::quiz::QuizExpired;
use crate::api::dto::requests::QuizLinkRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::timefmt::rfc3339;

/// End a quiz early (`QUIZ_EXPIRED` if it already ended).
#[utoipa::path(post, path = "/api/v1/quiz/expire", tag = "quizzes",
    request_body = QuizLinkRequest,
    responses((status = 200, description = "Expired", body = Envelope<QuizExpired>)))]
pub async fn handle(state: State, req: Signed) -> Answer<QuizExpired> {
    let link: QuizLink = req.parse::<QuizLinkRequest, _>()?;
    let quiz = state.quizzes.expire(&req.merchant, &link).await?;
    let links = state.quizzes.links(&quiz);
    Ok(Reply::ok(QuizExpired {
        tiny_url: links.tiny_url,
        long_url: links.long_url,
        expired: YES,
        expired_at: quiz.expired_at.map(rfc3339),
    }))
}
