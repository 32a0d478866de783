use domain::OffsetDateTime;
use domain::quiz::{QuizLink, QuizLinks, QuizWithClient};
use serde_json::{Map, Value};

use super::template::list_json;
use crate::fields::Fields;
use crate::object;
use crate::timefmt::rfc3339;

/// `url` (or its alias `short_url`): the quiz's long or short address.
pub fn read_link(f: &mut Fields<'_>) -> Option<QuizLink> {
    let name = if f.has("url") || !f.has("short_url") {
        "url"
    } else {
        "short_url"
    };
    f.required(name, QuizLink::parse)
}

/// A quiz as quiz get and quiz read show it.
pub fn quiz_json(view: &QuizWithClient, links: &QuizLinks, now: OffsetDateTime) -> Value {
    let (quiz, client) = (&view.quiz, &view.client);
    let mut template = Map::new();
    if let Some(id) = &quiz.template.template_id {
        template.insert("template_id".into(), id.clone().into());
    }
    template.extend(object! {
        "template_name": quiz.template.name,
        "is_custom": i32::from(quiz.template.is_custom()),
        "created_at": rfc3339(quiz.template.created_at),
        "list": list_json(&quiz.template.list),
    });
    Value::Object(object! {
        "first_name": client.first_name.as_str(),
        "last_name": client.last_name.as_str(),
        "email_address": client.key.email.as_str(),
        "mobile_number": client.key.mobile.as_str(),
        "long_url": links.long_url,
        "tiny_url": links.tiny_url,
        "quiz_expiry_days": quiz.expiry_days.days(),
        "expired": i32::from(quiz.is_expired(now)),
        "expires_at": rfc3339(quiz.expires_at),
        "created_at": rfc3339(quiz.created_at),
        "template": template,
    })
}
