//! One profile: who the client is, what they submitted, their documents, notes and log.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use domain::DomainError;
use domain::paging::Page;
use domain::profile::{Profile, ProfileId};
use domain::validation::parse_object_id;

use super::{Reviewer, message, reviewer};
use crate::handlers::State;
use crate::pages::html;
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
