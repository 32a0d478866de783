use domain::paging::Page;

use crate::api::dto::paging::Paging;
use crate::api::dto::quiz::{QuizList, QuizView};
use crate::api::dto::requests::PageRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// The merchant's quizzes, newest first.
#[utoipa::path(post, path = "/api/v1/quiz/read", tag = "quizzes",
    request_body = PageRequest,
    responses((status = 200, description = "A page of quizzes", body = Envelope<QuizList>)))]
pub async fn handle(state: State, req: Signed) -> Answer<QuizList> {
    let page: Page = req.parse::<PageRequest, _>()?;
    let paged = state.quizzes.list(&req.merchant, page).await?;
    let now = state.clock.now();
    Ok(Reply::ok(QuizList {
        paging: Paging::of(page, &paged),
        quiz: paged
            .items
            .iter()
            .map(|view| QuizView::of(view, &req.shown(state.quizzes.links(&view.quiz)), now))
            .collect(),
    }))
}
