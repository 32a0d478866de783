use actix_web::{HttpRequest, HttpResponse, web};
use domain::quiz::QuizLink;

use super::respond::{after_post, api_error, redirect_to, wants_json};
use crate::error::ApiError;
use crate::state::State;
use crate::timefmt::rfc3339;

/// What a completed quiz answers a script.
#[derive(Debug, serde::Serialize)]
struct Completed {
    status: &'static str,
    submitted_at: Option<String>,
    /// Where a browser would have been sent, when the merchant gave a `redirect_url`.
    #[serde(skip_serializing_if = "Option::is_none")]
    redirect_url: Option<String>,
}

/// `POST /quiz/{token}/submit`: completes the quiz, or names the steps still missing.
/// A person whose quiz has a `redirect_url` is sent there (303), with `quiz=<short code>`,
/// instead of back to the page.
pub async fn handle(
    state: State,
    req: HttpRequest,
    token: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let link = QuizLink::Token(token.into_inner().into());
    let result = state.client.complete(&link).await.map_err(api_error);
    let onward = result.as_ref().ok().and_then(|quiz| {
        let url = quiz.redirect_url.as_ref()?;
        Some(url.for_quiz(&quiz.code))
    });
    if let Some(onward) = &onward
        && !wants_json(&req)
    {
        return Ok(redirect_to(onward.clone()));
    }
    let result = result.map(|quiz| Completed {
        status: "submitted",
        submitted_at: quiz.submitted_at.map(rfc3339),
        redirect_url: onward,
    });
    after_post(&state, &req, &link, result).await
}
