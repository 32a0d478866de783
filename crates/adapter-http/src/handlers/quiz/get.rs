use crate::dto::quiz::{quiz_json, read_link};
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;

/// `POST /api/v1/quiz/get`
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let link = read_link(&mut f);
    let link = f.finish(|| link)?;
    let view = state.quizzes.get(&req.merchant, &link).await?;
    let links = state.quizzes.links(&view.quiz);
    Ok(Reply::ok(
        object! { "quiz": quiz_json(&view, &links, state.clock.now()) },
    ))
}
