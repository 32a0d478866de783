//! One profile: who the client is, what they submitted, their quizzes and documents,
//! notes and log; and the reviewer's changes to it.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use domain::audit::AuditAction;
use domain::document::{Document, DocumentStatus, Evidence, FileType, Side};
use domain::event::Actor;
use domain::ids::QuizId;
use domain::note::NoteText;
use domain::paging::Page;
use domain::profile::{Profile, ProfileId, ProfileStatus};
use domain::quiz::Quiz;
use domain::template::Feature;
use serde::Deserialize;

use super::reading::{ReadTable, tables};
use super::screening::ScreeningSection;
use super::verification::VerificationSection;
use super::{DashboardError, Posted, Reviewer, StatusForm};
use crate::pages::{html, redirect_to};
use crate::state::State;
use crate::timefmt::rfc3339;

/// The newest entries shown of each list on the page.
const SHOWN: i64 = 50;

struct Field {
    label: &'static str,
    value: String,
}

struct QuizRow {
    id: String,
    template: String,
    state: &'static str,
    created_at: String,
    expires_at: String,
    tiny_url: String,
}

struct FileRow {
    url: String,
    name: String,
    image: bool,
    side: &'static str,
}

/// One card of the documents section: the documents a quiz received for one step, the
/// sides of a card together (front first), each with its own verdict.
struct DocumentCard {
    /// The first document's id, naming the card.
    id: String,
    step: &'static str,
    parts: Vec<DocumentRow>,
}

struct DocumentRow {
    id: String,
    step: &'static str,
    /// Which side of a card it is, for a step that asks for each.
    side: Option<Side>,
    status: &'static str,
    created_at: String,
    files: Vec<FileRow>,
    /// What a step without files holds (the signed name, the fingerprint).
    summary: Option<String>,
    /// What verification read from it, beside what was typed.
    read: Vec<ReadTable>,
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

struct TemplateOption {
    id: String,
    name: String,
}

#[derive(Template)]
#[template(path = "dashboard/profile.html")]
struct ProfilePage<'a> {
    reviewer: &'a str,
    csrf_token: &'a str,
    id: &'a str,
    status: &'static str,
    statuses: &'static [ProfileStatus],
    document_statuses: &'static [DocumentStatus],
    name: String,
    fields: Vec<Field>,
    submitted: Vec<Field>,
    quizzes: Vec<QuizRow>,
    templates: Vec<TemplateOption>,
    documents: Vec<DocumentCard>,
    notes: Vec<NoteRow>,
    events: Vec<EventRow>,
    verification: Option<VerificationSection>,
    screening: Option<ScreeningSection>,
}

/// The page of a profile of the reviewer's merchant; any other id is a 404 page.
pub(super) async fn show(
    state: State,
    signed_in: Reviewer,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    let session = &signed_in.session;
    let merchant = &session.merchant_id;
    let profile = find(&state, merchant, &id).await?;
    let viewed = AuditAction::ProfileViewed;
    state
        .audit
        .record(
            merchant,
            &signed_in.initiator(),
            viewed,
            profile.id.as_str(),
        )
        .await?;
    let page = Page::new(0, SHOWN).unwrap_or_default();
    let key = &profile.key;
    let latest = Page::new(0, 1).unwrap_or_default();
    let (quizzes, templates, documents, notes, events, verifications, screening) = futures_util::try_join!(
        state.quizzes.list_of_profile(&profile, page),
        state.templates.list(merchant, page),
        state.documents.list(merchant, key, page),
        state.notes.list(merchant, key, page),
        state.profiles.events(merchant, key, page),
        state.verifications.of_profile(merchant, key, latest),
        state.screening.latest(merchant, &profile.id),
    )?;
    let now = state.clock.now();
    Ok(html(
        StatusCode::OK,
        &ProfilePage {
            reviewer: session.email.as_str(),
            csrf_token: &session.csrf_token,
            id: profile.id.as_str(),
            status: profile.status.as_str(),
            statuses: ProfileStatus::ALL,
            document_statuses: DocumentStatus::ALL,
            name: profile.full_name(),
            fields: fields(&profile),
            submitted: submitted(&profile),
            quizzes: quizzes
                .items
                .iter()
                .map(|q| quiz_row(&state, q, now))
                .collect(),
            templates: templates
                .items
                .into_iter()
                .map(|t| TemplateOption {
                    id: t.id.to_string(),
                    name: t.name,
                })
                .collect(),
            documents: document_cards(&profile, &documents.1.items),
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
            verification: verifications.items.first().map(VerificationSection::of),
            screening: screening.as_ref().map(ScreeningSection::of),
        },
    ))
}

/// The merchant's profile behind an address's id; anything else is the 404 page.
pub(super) async fn find(
    state: &State,
    merchant: &domain::merchant::MerchantId,
    id: &str,
) -> Result<Profile, DashboardError> {
    let id = ProfileId::parse(id).map_err(|_| DashboardError::NotFound)?;
    Ok(state.profiles.get_by_id(merchant, &id).await?)
}

fn quiz_row(state: &State, quiz: &Quiz, now: time::OffsetDateTime) -> QuizRow {
    QuizRow {
        id: quiz.id.to_string(),
        template: quiz.template.name.clone(),
        state: super::quizzes::quiz_state(quiz, now),
        created_at: rfc3339(quiz.created_at),
        expires_at: rfc3339(quiz.expired_at.unwrap_or(quiz.expires_at)),
        tiny_url: state.quizzes.links(quiz).tiny_url,
    }
}

/// The documents, listed as they come, gathered one card per quiz and step.
fn document_cards(profile: &Profile, documents: &[Document]) -> Vec<DocumentCard> {
    let mut cards: Vec<(&QuizId, Feature, DocumentCard)> = Vec::new();
    for d in documents {
        let row = document_row(profile, d);
        match cards
            .iter_mut()
            .find(|(quiz, step, _)| **quiz == d.quiz_id && *step == d.step)
        {
            Some((_, _, card)) => card.parts.push(row),
            None => cards.push((
                &d.quiz_id,
                d.step,
                DocumentCard {
                    id: row.id.clone(),
                    step: row.step,
                    parts: vec![row],
                },
            )),
        }
    }
    cards
        .into_iter()
        .map(|(_, _, mut card)| {
            // Front, then back, then what names no side (stable: newest first within).
            card.parts.sort_by_key(|p| match p.side {
                Some(Side::Front) => 0,
                Some(Side::Back) => 1,
                None => 2,
            });
            card
        })
        .collect()
}

fn document_row(profile: &Profile, d: &Document) -> DocumentRow {
    DocumentRow {
        id: d.id.to_string(),
        step: d.step.label(),
        side: d.files().iter().find_map(|f| f.side),
        status: d.status.as_str(),
        created_at: rfc3339(d.created_at),
        files: d
            .files()
            .iter()
            .map(|f| FileRow {
                url: format!("/dashboard/documents/{}/files/{}", d.id, f.file_id),
                name: f.file_name.clone(),
                image: f.file_type != FileType::Pdf,
                side: f.side.map_or("", |s| s.as_str()),
            })
            .collect(),
        read: tables(profile, &d.read),
        summary: match &d.evidence {
            Evidence::Files(_) => None,
            Evidence::Agreement {
                signed_name,
                signed_at,
            } => Some(format!("Signed “{signed_name}” at {}", rfc3339(*signed_at))),
            Evidence::Fingerprint { fingerprint } => Some(format!("Device {fingerprint}")),
        },
    }
}

impl DocumentRow {
    /// The side's heading on the card: empty for a document that is not a side.
    fn side_label(&self) -> &'static str {
        match self.side {
            Some(Side::Front) => "Front",
            Some(Side::Back) => "Back",
            None => "",
        }
    }
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

#[derive(Deserialize)]
pub(super) struct NoteForm {
    #[serde(default)]
    note: String,
}

/// Where a change to a profile sends the browser back to.
pub(super) fn back_to(profile: &ProfileId) -> HttpResponse {
    redirect_to(format!("/dashboard/profiles/{}", profile.as_str()))
}

/// `POST /dashboard/profiles/{id}/status`: the reviewer's verdict, logged with their
/// e-mail.
pub(super) async fn set_status(
    state: State,
    Posted { reviewer, form }: Posted<StatusForm>,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    let merchant = &reviewer.session.merchant_id;
    let profile = find(&state, merchant, &id).await?;
    let status = form.status()?;
    let actor = Actor::Reviewer(&reviewer.session.email);
    state
        .profiles
        .set_status(merchant, &profile.key, status, actor)
        .await?;
    Ok(back_to(&profile.id))
}

/// `POST /dashboard/profiles/{id}/notes`: a note, logged with the reviewer's e-mail.
pub(super) async fn add_note(
    state: State,
    Posted { reviewer, form }: Posted<NoteForm>,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    let merchant = &reviewer.session.merchant_id;
    let profile = find(&state, merchant, &id).await?;
    let text = NoteText::parse(&form.note)
        .map_err(|_| DashboardError::not_saved("A note is 1 to 255 characters of plain text."))?;
    let actor = Actor::Reviewer(&reviewer.session.email);
    state
        .notes
        .create(merchant, &profile.key, text, actor)
        .await?;
    Ok(back_to(&profile.id))
}
