use crate::dto::quiz::read_link;
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;
use crate::timefmt::rfc3339;

/// `POST /api/v1/quiz/delete`: the quiz is gone for every later call.
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let link = read_link(&mut f);
    let link = f.finish(|| link)?;
    let quiz = state.quizzes.delete(&req.merchant, &link).await?;
    let links = state.quizzes.links(&quiz);
    Ok(Reply::ok(object! {
        "tiny_url": links.tiny_url,
        "long_url": links.long_url,
        "deleted": 1,
        "deleted_at": quiz.deleted_at.map(rfc3339),
    }))
}
