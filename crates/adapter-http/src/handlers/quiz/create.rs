use domain::services::{QuizRequest, TemplateChoice};
use domain::template::parse_template_name;
use domain::validation::parse_object_id;

use crate::dto::profile::{read_changes, read_key};
use crate::dto::template::{list_json, read_list};
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;
use crate::timefmt::rfc3339;

/// `template`: `template_id` and/or `list` (and a name for a temporary template).
fn read_template(f: &mut Fields<'_>) -> Option<TemplateChoice> {
    let map = f.object("template", true)?;
    let mut inner = Fields::new(map);
    let choice = TemplateChoice {
        template_id: inner.optional_id("template_id", parse_object_id),
        list: read_list(&mut inner, false),
        name: inner.optional("template_name", parse_template_name),
    };
    f.absorb(inner);
    Some(choice)
}

/// `POST /api/v1/quiz/create`: creates or updates the client's profile and sends a quiz.
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    let changes = read_changes(&mut f);
    // Anything but a whole number from 1 to 30 silently means the merchant's default.
    let expiry_days = f.lenient_integer("quiz_expiry_days");
    let template = read_template(&mut f);
    let request = f.finish(|| {
        Some(QuizRequest {
            key: key?,
            changes: changes?,
            expiry_days,
            template: template?,
        })
    })?;
    let created = state.quizzes.create(&req.merchant, request).await?;
    let (quiz, client) = (&created.quiz, &created.client);
    let links = state.quizzes.links(quiz);
    let mut body = object! {
        "email_address": client.key.email.as_str(),
        "mobile_number": client.key.mobile.as_str(),
        "tiny_url": links.tiny_url,
        "long_url": links.long_url,
        "quiz_expiry_days": quiz.expiry_days.days(),
        "expires_at": rfc3339(quiz.expires_at),
        "created_at": rfc3339(quiz.created_at),
        "template_name": quiz.template.name,
    };
    match &quiz.template.template_id {
        Some(id) => body.insert("template_id".into(), id.clone().into()),
        None => body.insert("list".into(), list_json(&quiz.template.list)),
    };
    Ok(Reply::created(body))
}
