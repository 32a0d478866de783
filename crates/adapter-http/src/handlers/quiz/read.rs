use serde_json::Value;

use crate::dto::merged;
use crate::dto::paging::{paging_fields, read_page};
use crate::dto::quiz::quiz_json;
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;

/// `POST /api/v1/quiz/read`: the merchant's quizzes, newest first, under the key `quiz`.
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let page = read_page(&mut f, true);
    let page = f.finish(|| page)?;
    let paged = state.quizzes.list(&req.merchant, page).await?;
    let now = state.clock.now();
    let quizzes: Vec<Value> = paged
        .items
        .iter()
        .map(|view| quiz_json(view, &state.quizzes.links(&view.quiz), now))
        .collect();
    Ok(Reply::ok(merged(
        paging_fields(page, &paged),
        object! { "quiz": quizzes },
    )))
}
