use domain::event::Actor;
use domain::ids::TemplateId;
use domain::quiz::RedirectUrl;
use domain::services::{QuizRequest, TemplateChoice};
use domain::template::parse_template_name;

use crate::api::dto::profile::{read_changes, read_key};
use crate::api::dto::quiz::{QuizCreated, redirect_view};
use crate::api::dto::requests::QuizCreateRequest;
use crate::api::dto::template::{list_view, read_list};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::fields::Fields;
use crate::timefmt::rfc3339;

/// `template`: `template_id` and/or `list` (and a name for a temporary template).
fn read_template(f: &mut Fields<'_>) -> Option<TemplateChoice> {
    let map = f.object("template", true)?;
    let mut inner = Fields::new(map);
    let choice = TemplateChoice {
        template_id: inner.optional_id("template_id", TemplateId::parse),
        list: read_list(&mut inner, false),
        name: inner.optional("template_name", parse_template_name),
    };
    f.absorb(inner);
    Some(choice)
}

/// Send a client a verification link: creates or updates the client's profile and makes
/// a quiz from a stored template (`template.template_id`) or a list sent with it.
#[utoipa::path(post, path = "/api/v1/quiz/create", tag = "quizzes",
    request_body = QuizCreateRequest,
    responses((status = 201, description = "The quiz's addresses", body = Envelope<QuizCreated>)))]
pub async fn handle(state: State, req: Signed) -> Answer<QuizCreated> {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    let changes = read_changes(&mut f);
    // Anything but a whole number from 1 to 30 silently means the merchant's default.
    let expiry_days = f.lenient_integer("quiz_expiry_days");
    let template = read_template(&mut f);
    let redirect_url = f.optional("redirect_url", RedirectUrl::parse);
    let request = f.finish(|| {
        Some(QuizRequest {
            key: key?,
            changes: changes?,
            expiry_days,
            template: template?,
            redirect_url,
        })
    })?;
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
