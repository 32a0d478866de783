use domain::merchant::QuizExpiryDays;
use domain::quiz::QuizLink;

use crate::api::dto::quiz::QuizAnswer;
use crate::api::dto::requests::QuizExtendRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, ErrorBody, Reply};

/// Give a quiz `quiz_expiry_days` (1 to 30) from now: an expired quiz (by time or by
/// quiz/expire) opens again. Answers the quiz as quiz/get does.
#[utoipa::path(post, path = "/api/v1/quiz/extend", tag = "quizzes",
    request_body = QuizExtendRequest,
    responses(
        (status = 200, description = "The quiz, as quiz/get shows it", body = Envelope<QuizAnswer>),
        (status = 409, description = "`QUIZ_SUBMITTED`: the client completed the quiz; it cannot be extended",
            body = Envelope<ErrorBody>)))]
pub async fn handle(state: State, req: Signed) -> Answer<QuizAnswer> {
    let (link, days): (QuizLink, QuizExpiryDays) = req.parse::<QuizExtendRequest, _>()?;
    let view = state.quizzes.extend(&req.merchant, &link, days).await?;
    Ok(Reply::ok(super::get::answer(&state, &req, &view)))
}
