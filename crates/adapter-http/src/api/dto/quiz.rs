use domain::OffsetDateTime;
use domain::quiz::{Quiz, QuizLinks, QuizWithClient};

use serde::Serialize;
use utoipa::ToSchema;

use super::paging::Paging;
use super::template::{ListView, list_view};
use crate::timefmt::rfc3339;

/// A quiz's `redirect_url` as the merchant gave it.
pub fn redirect_view(quiz: &Quiz) -> Option<String> {
    quiz.redirect_url.as_ref().map(|u| u.as_str().to_owned())
}

/// The template a quiz was made from, as it was then.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuizTemplate {
    /// Absent for a list sent with the quiz (a custom template).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template_id: Option<String>,
    pub template_name: String,
    /// 1 for a list sent with the quiz, 0 for a stored template.
    pub is_custom: u8,
    pub created_at: String,
    #[schema(value_type = HashMap<String, u8>)]
    pub list: ListView,
}

/// A quiz as quiz get and quiz read show it.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuizView {
    pub first_name: String,
    pub last_name: String,
    pub email_address: String,
    pub mobile_number: String,
    pub long_url: String,
    pub tiny_url: String,
    pub quiz_expiry_days: u8,
    /// 1 once expired (by time or quiz/expire), else 0.
    pub expired: u8,
    pub expires_at: String,
    pub created_at: String,
    pub template: QuizTemplate,
    /// Where the client's browser goes after submitting; null when nowhere.
    pub redirect_url: Option<String>,
}

impl QuizView {
    pub fn of(view: &QuizWithClient, links: &QuizLinks, now: OffsetDateTime) -> Self {
        let (quiz, client) = (&view.quiz, &view.client);
        Self {
            first_name: client.first_name.as_str().to_owned(),
            last_name: client.last_name.as_str().to_owned(),
            email_address: client.key.email.as_str().to_owned(),
            mobile_number: client.key.mobile.as_str().to_owned(),
            long_url: links.long_url.clone(),
            tiny_url: links.tiny_url.clone(),
            quiz_expiry_days: quiz.expiry_days.days(),
            expired: u8::from(quiz.is_expired(now)),
            expires_at: rfc3339(quiz.expires_at),
            created_at: rfc3339(quiz.created_at),
            template: QuizTemplate {
                template_id: quiz.template.template_id.as_ref().map(ToString::to_string),
                template_name: quiz.template.name.clone(),
                is_custom: u8::from(quiz.template.is_custom()),
                created_at: rfc3339(quiz.template.created_at),
                list: list_view(&quiz.template.list),
            },
            redirect_url: redirect_view(quiz),
        }
    }
}

/// quiz/create.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuizCreated {
    pub email_address: String,
    pub mobile_number: String,
    pub tiny_url: String,
    pub long_url: String,
    pub quiz_expiry_days: u8,
    pub expires_at: String,
    pub created_at: String,
    pub template_name: String,
    /// The stored template used, if one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template_id: Option<String>,
    /// The list sent, when no stored template was used.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<HashMap<String, u8>>)]
    pub list: Option<ListView>,
    /// Where the client's browser goes after submitting; null when nowhere.
    pub redirect_url: Option<String>,
}

/// quiz/get.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuizAnswer {
    pub quiz: QuizView,
}

/// quiz/read: the merchant's quizzes, newest first (`quiz`, as the interface names it).
#[derive(Debug, Serialize, ToSchema)]
pub struct QuizList {
    #[serde(flatten)]
    pub paging: Paging,
    pub quiz: Vec<QuizView>,
}

/// quiz/expire.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuizExpired {
    pub tiny_url: String,
    pub long_url: String,
    /// Always 1.
    pub expired: u8,
    pub expired_at: Option<String>,
}

/// quiz/delete.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuizDeleted {
    pub tiny_url: String,
    pub long_url: String,
    /// Always 1.
    pub deleted: u8,
    pub deleted_at: Option<String>,
}
