//! One profile: who the client is, what they submitted, their documents, notes and log.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use domain::DomainError;
use domain::paging::Page;
use domain::profile::{Profile, ProfileId};
use domain::validation::parse_object_id;

use domain::event::Actor;
use domain::note::NoteText;
use serde::Deserialize;

use super::{Reviewer, csrf_ok, csrf_refused, message, reviewer};
use crate::handlers::State;
use crate::pages::{html, redirect_to};
use crate::timefmt::rfc3339;

/// The newest entries shown of each list on the page.
const SHOWN: i64 = 50;

struct Field {
    label: &'static str,
    value: String,
}

struct DocumentRow {
    step: &'static str,
    status: String,
    created_at: String,
}

struct NoteRow {
    text: String,
    created_at: String,
}

struct EventRow {
    activity: &'static str,
    details: String,
    created_at: String,
}

#[derive(Template)]
#[template(path = "dashboard/profile.html")]
struct ProfilePage<'a> {
    reviewer: &'a str,
    csrf_token: &'a str,
    id: &'a str,
    status: &'static str,
    statuses: [&'static str; 4],
    name: String,
    fields: Vec<Field>,
    submitted: Vec<Field>,
    documents: Vec<DocumentRow>,
    notes: Vec<NoteRow>,
    events: Vec<EventRow>,
}

/// The page of a profile of the reviewer's merchant; any other id is a 404 page.
pub(super) async fn show(state: State, req: HttpRequest, id: web::Path<String>) -> HttpResponse {
    let Reviewer { session, .. } = match reviewer(&state, &req).await {
        Ok(r) => r,
        Err(answer) => return answer,
    };
    let merchant = &session.merchant_id;
    let Ok(id) = parse_object_id(&id).map(ProfileId) else {
        return not_found();
    };
    let profile = match state.profiles.get_by_id(merchant, &id).await {
        Ok(profile) => profile,
        Err(DomainError::NotFound(_)) => return not_found(),
        Err(e) => return unavailable(e),
    };
    let page = Page::new(0, SHOWN).unwrap_or_default();
    let key = &profile.key;
    let documents = state.documents.list(merchant, key, page).await;
    let notes = state.notes.list(merchant, key, page).await;
    let events = state.profiles.events(merchant, key, page).await;
    let (documents, notes, events) = match (documents, notes, events) {
        (Ok((_, d)), Ok(n), Ok(e)) => (d, n, e),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return unavailable(e),
    };
    html(
        StatusCode::OK,
        &ProfilePage {
            reviewer: session.email.as_str(),
            csrf_token: &session.csrf_token,
            id: &profile.id.0,
            status: profile.status.as_str(),
            statuses: ["Pending", "Reviewed", "Approved", "Declined"],
            name: profile.full_name(),
            fields: fields(&profile),
            submitted: submitted(&profile),
            documents: documents
                .items
                .iter()
                .map(|d| DocumentRow {
                    step: d.step.label(),
                    status: d.status.to_string(),
                    created_at: rfc3339(d.created_at),
                })
                .collect(),
            notes: notes
                .items
                .iter()
                .map(|n| NoteRow {
                    text: n.text.as_str().to_owned(),
                    created_at: rfc3339(n.created_at),
                })
                .collect(),
            events: events
                .items
                .iter()
                .map(|e| EventRow {
                    activity: e.activity.as_str(),
                    details: e.details.clone(),
                    created_at: rfc3339(e.created_at),
                })
                .collect(),
        },
    )
}

fn fields(p: &Profile) -> Vec<Field> {
    vec![
        Field {
            label: "E-mail",
            value: p.key.email.as_str().to_owned(),
        },
        Field {
            label: "Mobile",
            value: p.key.mobile.as_str().to_owned(),
        },
        Field {
            label: "Status",
            value: p.status.as_str().to_owned(),
        },
        Field {
            label: "Created",
            value: rfc3339(p.created_at),
        },
    ]
}

/// What the client typed through quizzes. The SSN shows only its last four digits: the
/// full number is for the API, not for a screen anyone may look over.
fn submitted(p: &Profile) -> Vec<Field> {
    let Some(s) = &p.submitted else {
        return Vec::new();
    };
    let mut shown = Vec::new();
    let mut add = |label, value: Option<String>| {
        if let Some(value) = value {
            shown.push(Field { label, value });
        }
    };
    add(
        "E-mail",
        s.email_address.as_ref().map(|e| e.as_str().to_owned()),
    );
    add(
        "Mobile",
        s.mobile_number.as_ref().map(|m| m.as_str().to_owned()),
    );
    add("Address", s.address.clone());
    add("Date of birth", s.date_of_birth.map(|d| d.to_string()));
    add(
        "SSN",
        s.ssn.as_ref().map(|ssn| {
            let digits = ssn.as_str();
            format!("•••-••-{}", &digits[digits.len().saturating_sub(4)..])
        }),
    );
    shown
}

fn not_found() -> HttpResponse {
    message(
        StatusCode::NOT_FOUND,
        "Not found",
        "No profile of yours has this address.",
    )
}

fn unavailable(e: DomainError) -> HttpResponse {
    tracing::error!(error = %e, "profile page failed");
    message(
        StatusCode::SERVICE_UNAVAILABLE,
        "Unavailable",
        "The service cannot be reached right now. Try again in a moment.",
    )
}

#[derive(Deserialize)]
pub(super) struct StatusForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    status: String,
}

#[derive(Deserialize)]
pub(super) struct NoteForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    note: String,
}

/// The profile of the signed-in reviewer's merchant behind `id`, once the post's CSRF
/// token is checked; otherwise the answer to give.
async fn profile_for_post(
    state: &State,
    req: &HttpRequest,
    id: &str,
    csrf_token: &str,
) -> Result<(Reviewer, Profile), HttpResponse> {
    let reviewer = reviewer(state, req).await?;
    if !csrf_ok(&reviewer, csrf_token) {
        return Err(csrf_refused());
    }
    let id = parse_object_id(id)
        .map(ProfileId)
        .map_err(|_| not_found())?;
    match state
        .profiles
        .get_by_id(&reviewer.session.merchant_id, &id)
        .await
    {
        Ok(profile) => Ok((reviewer, profile)),
        Err(DomainError::NotFound(_)) => Err(not_found()),
        Err(e) => Err(unavailable(e)),
    }
}

/// `POST /dashboard/profiles/{id}/status`: the reviewer's verdict, logged with their
/// e-mail.
pub(super) async fn set_status(
    state: State,
    req: HttpRequest,
    id: web::Path<String>,
    form: web::Form<StatusForm>,
) -> HttpResponse {
    let (reviewer, profile) = match profile_for_post(&state, &req, &id, &form.csrf_token).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let Ok(status) = form.status.parse() else {
        return message(
            StatusCode::BAD_REQUEST,
            "Not saved",
            "Choose one of the statuses.",
        );
    };
    let actor = Actor::Reviewer(&reviewer.session.email);
    match state
        .profiles
        .set_status(&reviewer.session.merchant_id, &profile.key, status, actor)
        .await
    {
        Ok(_) => redirect_to(format!("/dashboard/profiles/{}", profile.id.0)),
        Err(e) => unavailable(e),
    }
}

/// `POST /dashboard/profiles/{id}/notes`: a note, logged with the reviewer's e-mail.
pub(super) async fn add_note(
    state: State,
    req: HttpRequest,
    id: web::Path<String>,
    form: web::Form<NoteForm>,
) -> HttpResponse {
    let (reviewer, profile) = match profile_for_post(&state, &req, &id, &form.csrf_token).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let Ok(text) = NoteText::parse(&form.note) else {
        return message(
            StatusCode::BAD_REQUEST,
            "Not saved",
            "A note is 1 to 255 characters of plain text.",
        );
    };
    let actor = Actor::Reviewer(&reviewer.session.email);
    match state
        .notes
        .create(&reviewer.session.merchant_id, &profile.key, text, actor)
        .await
    {
        Ok(_) => redirect_to(format!("/dashboard/profiles/{}", profile.id.0)),
        Err(e) => unavailable(e),
    }
}
