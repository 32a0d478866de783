use domain::quiz::QuizWithClient;

use crate::dto::quiz::{QuizAnswer, QuizView, read_link};
use crate::dto::requests::QuizLinkRequest;
use crate::envelope::{Envelope, Reply};
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::signed::Signed;

/// One quiz, by its long or short address.
#[utoipa::path(post, path = "/api/v1/quiz/get", tag = "quizzes",
    request_body = QuizLinkRequest,
    responses((status = 200, description = "The quiz", body = Envelope<QuizAnswer>)))]
pub async fn handle(state: State, req: Signed) -> Answer<QuizAnswer> {
    let mut f = Fields::new(&req.body);
    let link = read_link(&mut f);
    let link = f.finish(|| link)?;
    let view = state.quizzes.get(&req.merchant, &link).await?;
    Ok(Reply::ok(answer(&state, &view)))
}

/// A quiz as quiz/get answers it (quiz/extend answers the same).
pub(super) fn answer(state: &State, view: &QuizWithClient) -> QuizAnswer {
    let links = state.quizzes.links(&view.quiz);
    QuizAnswer {
        quiz: QuizView::of(view, &links, state.clock.now()),
    }
}
