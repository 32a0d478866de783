use domain::quiz::QuizLink;

use crate::api::dto::YES;
use crate::api::dto::quiz::QuizDeleted;
use crate::api::dto::requests::QuizLinkRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::timefmt::rfc3339;

/// Withdraw a quiz: gone for every later call, its link shows a not-found page.
#[utoipa::path(post, path = "/api/v1/quiz/delete", tag = "quizzes",
    request_body = QuizLinkRequest,
    responses((status = 200, description = "Deleted", body = Envelope<QuizDeleted>)))]
pub async fn handle(state: State, req: Signed) -> Answer<QuizDeleted> {
    let link: QuizLink = req.parse::<QuizLinkRequest, _>()?;
    let quiz = state.quizzes.delete(&req.merchant, &link).await?;
    let links = state.quizzes.links(&quiz);
    Ok(Reply::ok(QuizDeleted {
        tiny_url: links.tiny_url,
        long_url: links.long_url,
        deleted: YES,
        deleted_at: quiz.deleted_at.map(rfc3339),
    }))
}
