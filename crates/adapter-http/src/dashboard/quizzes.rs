//! A new quiz link for a profile, from one of the merchant's stored templates, shown with
//! a QR code a client can scan with their phone.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use domain::event::Actor;
use domain::profile::ProfileChanges;
use domain::services::{QuizRequest, TemplateChoice};
use serde::Deserialize;

use domain::ids::{QuizId, TemplateId};
use domain::quiz::{Quiz, QuizState, QuizWithClient};
use time::OffsetDateTime;

use super::profile::find;
use super::{DashboardError, Posted, Reviewer};
use crate::pages::{html, redirect_to};
use crate::state::State;
use crate::timefmt::rfc3339;

#[derive(Deserialize)]
pub(super) struct QuizForm {
    #[serde(default)]
    template_id: String,
}

#[derive(Template)]
#[template(path = "dashboard/quiz.html")]
struct QuizPage<'a> {
    reviewer: &'a str,
    csrf_token: &'a str,
    profile_id: &'a str,
    name: String,
    template: &'a str,
    state: &'static str,
    expires_at: String,
    long_url: String,
    tiny_url: String,
    /// The short link as a QR code: an SVG image in a `data:` address.
    qr_code: Option<String>,
}

/// `POST /dashboard/profiles/{id}/quizzes`: sends the client a new quiz from a stored
/// template, logged with the reviewer's e-mail; on to the quiz's page.
pub(super) async fn create(
    state: State,
    Posted { reviewer, form }: Posted<QuizForm>,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    let session = &reviewer.session;
    let profile = find(&state, &session.merchant_id, &id).await?;
    let template_id =
        TemplateId::parse(&form.template_id).map_err(|_| DashboardError::Refused {
            heading: "Not sent",
            text: "Choose one of your templates.".to_owned(),
        })?;
    let request = QuizRequest {
        key: profile.key.clone(),
        changes: ProfileChanges::none_to(&profile),
        expiry_days: None,
        redirect_url: None,
        template: TemplateChoice {
            template_id: Some(template_id),
            ..TemplateChoice::default()
        },
    };
    let actor = Actor::Reviewer(&session.email);
    let sent = state
        .quizzes
        .create(&session.merchant_id, request, actor)
        .await?;
    Ok(redirect_to(format!("/dashboard/quizzes/{}", sent.quiz.id)))
}

/// `GET /dashboard/quizzes/{id}`: one of the merchant's quizzes, its links and a QR code
/// of the short one for a phone; another merchant's is the 404 page.
pub(super) async fn show(
    state: State,
    Reviewer { session, .. }: Reviewer,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    let id = QuizId::parse(&id).map_err(|_| DashboardError::NotFound)?;
    let QuizWithClient { quiz, client } =
        state.quizzes.get_by_id(&session.merchant_id, &id).await?;
    let links = state.quizzes.links(&quiz);
    Ok(html(
        StatusCode::OK,
        &QuizPage {
            reviewer: session.email.as_str(),
            csrf_token: &session.csrf_token,
            profile_id: client.id.as_str(),
            name: client.full_name(),
            template: &quiz.template.name,
            state: quiz_state(&quiz, state.clock.now()),
            expires_at: rfc3339(quiz.expired_at.unwrap_or(quiz.expires_at)),
            qr_code: crate::qr::data_address(&links.tiny_url),
            long_url: links.long_url,
            tiny_url: links.tiny_url,
        },
    ))
}

/// Where a quiz stands, in a reviewer's words.
pub(super) fn quiz_state(quiz: &Quiz, now: OffsetDateTime) -> &'static str {
    match quiz.state(now) {
        QuizState::Active if quiz.opened_at.is_some() => "Opened",
        QuizState::Active => "Sent",
        QuizState::Submitted => "Submitted",
        QuizState::Expired => "Expired",
        QuizState::Deleted => "Deleted",
    }
}
