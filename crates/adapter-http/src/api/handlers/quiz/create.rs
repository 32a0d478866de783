use domain::event::Actor;
use domain::services::QuizRequest;

use crate::api::dto::quiz::{QuizCreated, redirect_view};
use crate::api::dto::requests::QuizCreateRequest;
use crate::api::dto::template::list_view;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::timefmt::rfc3339;

/// Send a client a verification link: creates or updates the client's profile and makes
/// a quiz from a stored template (`template.template_id`) or a list sent with it.
#[utoipa::path(post, path = "/api/v1/quiz/create", tag = "quizzes",
    request_body = QuizCreateRequest,
    responses((status = 201, description = "The quiz's addresses", body = Envelope<QuizCreated>)))]
pub async fn handle(state: State, req: Signed) -> Answer<QuizCreated> {
    let request: QuizRequest = req.parse::<QuizCreateRequest, _>()?;
    let created = state
        .quizzes
        .create(&req.merchant, request, Actor::Api)
        .await?;
    let (quiz, client) = (&created.quiz, &created.client);
    let links = state.quizzes.links(quiz);
    let stored = quiz.template.template_id.as_ref().map(ToString::to_string);
    Ok(Reply::created(QuizCreated {
        email_address: client.key.email.as_str().to_owned(),
        mobile_number: client.key.mobile.as_str().to_owned(),
        tiny_url: links.tiny_url,
        long_url: links.long_url,
        quiz_expiry_days: quiz.expiry_days.days(),
        expires_at: rfc3339(quiz.expires_at),
        created_at: rfc3339(quiz.created_at),
        template_name: quiz.template.name.clone(),
        list: stored.is_none().then(|| list_view(&quiz.template.list)),
        template_id: stored,
        redirect_url: redirect_view(quiz),
    }))
}
