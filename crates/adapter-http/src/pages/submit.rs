use actix_web::{HttpRequest, HttpResponse, web};
use domain::quiz::QuizLink;

use super::respond::{after_post, api_error};
use crate::error::ApiError;
use crate::handlers::State;
use crate::timefmt::rfc3339;

/// What a completed quiz answers a script.
#[derive(Debug, serde::Serialize)]
struct Completed {
    status: &'static str,
    submitted_at: Option<String>,
}

/// `POST /quiz/{token}/submit`: completes the quiz, or names the steps still missing.
pub async fn handle(
    state: State,
    req: HttpRequest,
    token: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let link = QuizLink::Token(token.into_inner().into());
    let result = state
        .client
        .complete(&link)
        .await
        .map_err(api_error)
        .map(|quiz| Completed {
            status: "submitted",
            submitted_at: quiz.submitted_at.map(rfc3339),
        });
    after_post(&state, &req, &link, result).await
}
