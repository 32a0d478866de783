use domain::merchant::QuizExpiryDays;

use crate::api::dto::quiz::{QuizAnswer, read_link};
use crate::api::dto::requests::QuizExtendRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, ErrorBody, Reply};
use crate::fields::Fields;

/// Give a quiz `quiz_expiry_days` (1 to 30) from now: an expired quiz (by time or by
/// quiz/expire) opens again. Answers the quiz as quiz/get does.
#[utoipa::path(post, path = "/api/v1/quiz/extend", tag = "quizzes",
    request_body = QuizExtendRequest,
    responses(
        (status = 200, description = "The quiz, as quiz/get shows it", body = Envelope<QuizAnswer>),
        (status = 409, description = "`QUIZ_SUBMITTED`: the client completed the quiz; it cannot be extended",
            body = Envelope<ErrorBody>)))]
pub async fn handle(state: State, req: Signed) -> Answer<QuizAnswer> {
    let mut f = Fields::new(&req.body);
    let link = read_link(&mut f);
    // Unlike quiz/create's, a bad number here is refused: nothing silently falls back.
    let days = f.integer("quiz_expiry_days", true);
    let days = f.check("quiz_expiry_days", days, QuizExpiryDays::new);
    let (link, days) = f.finish(|| Some((link?, days?)))?;
    let view = state.quizzes.extend(&req.merchant, &link, days).await?;
    Ok(Reply::ok(super::get::answer(&state, &view)))
}
