use domain::quiz::QuizLink;
use domain::quiz::QuizWithClient;

use crate::api::dto::quiz::{QuizAnswer, QuizView};
use crate::api::dto::requests::QuizLinkRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// One quiz, by its long or short address.
#[utoipa::path(post, path = "/api/v1/quiz/get", tag = "quizzes",
    request_body = QuizLinkRequest,
    responses((status = 200, description = "The quiz", body = Envelope<QuizAnswer>)))]
pub async fn handle(state: State, req: Signed) -> Answer<QuizAnswer> {
    let link: QuizLink = req.parse::<QuizLinkRequest, _>()?;
    let view = state.quizzes.get(&req.merchant, &link).await?;
    Ok(Reply::ok(answer(&state, &req, &view)))
}

/// A quiz as quiz/get answers it (quiz/extend answers the same).
pub(super) fn answer(state: &State, req: &Signed, view: &QuizWithClient) -> QuizAnswer {
    let links = req.shown(state.quizzes.links(&view.quiz));
    QuizAnswer {
        quiz: QuizView::of(view, &links, state.clock.now()),
    }
}
