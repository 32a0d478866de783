//! What the quiz pages show, built from a `QuizSession`, and the HTML templates.

use std::collections::HashMap;

use askama::Template;
use domain::quiz::QuizState;
use domain::services::QuizSession;
use domain::template::{Feature, Requirement, StepKind};
use serde::Serialize;

use crate::error::ApiError;
use crate::timefmt::rfc3339;

/// One step as a page or a JSON answer shows it.
#[derive(Debug, Clone)]
pub struct StepView {
    pub name: &'static str,
    pub label: &'static str,
    pub kind: StepKind,
    pub required: bool,
    pub done: bool,
    pub selfie: bool,
}

/// The `*_submit` steps, shown as one form.
#[derive(Debug, Default)]
pub struct FormView {
    pub any: bool,
    pub required: bool,
    pub done: bool,
    pub address: bool,
    pub mobile: bool,
    pub email: bool,
    pub date_of_birth: bool,
    pub ssn: bool,
}

/// Field name -> message, from an error answer, to show next to each field.
#[derive(Debug, Default)]
pub struct FieldErrors(HashMap<String, String>);

impl FieldErrors {
    pub fn from_error(error: &ApiError) -> (Self, Vec<String>) {
        let mut fields = HashMap::new();
        let mut summary = Vec::new();
        for item in &error.errors {
            let field = item
                .code
                .strip_suffix("_REQUIRED")
                .or_else(|| item.code.strip_suffix("_INVALID"))
                .map(str::to_ascii_lowercase);
            summary.push(item.description.clone());
            if let Some(field) = field {
                fields.insert(field, item.description.clone());
            }
        }
        (Self(fields), summary)
    }

    pub fn get(&self, field: &str) -> Option<&str> {
        self.0.get(field).map(String::as_str)
    }
}

pub fn steps(session: &QuizSession) -> Vec<StepView> {
    let quiz = &session.view.quiz;
    quiz.steps()
        .map(|(feature, requirement)| StepView {
            name: feature.name(),
            label: feature.label(),
            kind: feature.kind(),
            required: requirement == Requirement::Required,
            done: quiz.completed.contains(feature),
            selfie: feature == Feature::SelfieUpload,
        })
        .collect()
}

#[derive(Template)]
#[template(path = "quiz.html")]
pub struct QuizPage {
    pub merchant: String,
    pub client_name: String,
    pub token: String,
    pub expires_at: String,
    pub done_count: usize,
    pub total_count: usize,
    pub uploads: Vec<StepView>,
    pub form: FormView,
    pub agreement: Option<StepView>,
    pub fingerprint: Option<StepView>,
    pub providers: Vec<StepView>,
    pub blocked: Vec<&'static str>,
    pub summary: Vec<String>,
    pub errors: FieldErrors,
}

impl QuizPage {
    pub fn new(session: &QuizSession, error: Option<&ApiError>) -> Self {
        let all = steps(session);
        let of_kind = |kind: StepKind| all.iter().filter(move |s| s.kind == kind).cloned();
        let submits: Vec<StepView> = of_kind(StepKind::Submit).collect();
        let has = |feature: Feature| submits.iter().any(|s| s.name == feature.name());
        let form = FormView {
            any: !submits.is_empty(),
            required: submits.iter().any(|s| s.required),
            done: !submits.is_empty() && submits.iter().all(|s| s.done),
            address: has(Feature::AddressSubmit),
            mobile: has(Feature::MobilePhoneSubmit),
            email: has(Feature::EmailAddressSubmit),
            date_of_birth: has(Feature::DateOfBirthSubmit),
            ssn: has(Feature::SsnSubmit),
        };
        let (errors, summary) = error.map(FieldErrors::from_error).unwrap_or_default();
        let quiz = &session.view.quiz;
        Self {
            merchant: session.merchant_name.clone(),
            client_name: session.view.client.full_name(),
            token: quiz.token.as_str().to_owned(),
            expires_at: human_time(quiz.expires_at),
            done_count: all.iter().filter(|s| s.done).count(),
            total_count: all.len(),
            uploads: of_kind(StepKind::Upload).collect(),
            form,
            agreement: of_kind(StepKind::Agreement).next(),
            fingerprint: of_kind(StepKind::Fingerprint).next(),
            providers: of_kind(StepKind::Provider).collect(),
            blocked: quiz.needs_provider().iter().map(Feature::label).collect(),
            summary,
            errors,
        }
    }
}

/// "27 November 2026, 10:55 UTC": for people, not parsers.
fn human_time(t: domain::OffsetDateTime) -> String {
    let format = time::macros::format_description!(
        "[day padding:none] [month repr:long] [year], [hour]:[minute] UTC"
    );
    t.to_offset(time::UtcOffset::UTC)
        .format(&format)
        .unwrap_or_else(|_| rfc3339(t))
}

#[derive(Template)]
#[template(path = "message.html")]
pub struct MessagePage {
    pub heading: &'static str,
    pub text: String,
}

fn kind_name(kind: StepKind) -> &'static str {
    match kind {
        StepKind::Upload => "upload",
        StepKind::Submit => "submit",
        StepKind::Agreement => "agreement",
        StepKind::Fingerprint => "fingerprint",
        StepKind::Provider => "provider",
    }
}

pub fn state_name(state: QuizState) -> &'static str {
    match state {
        QuizState::Active => "active",
        QuizState::Expired => "expired",
        QuizState::Submitted => "submitted",
        QuizState::Deleted => "deleted",
    }
}

/// One step as the page's JSON answer shows it.
#[derive(Debug, Serialize)]
struct StepJson {
    step: &'static str,
    label: &'static str,
    kind: &'static str,
    /// 1 required, 2 optional.
    requirement: u8,
    done: bool,
    available: bool,
}

/// The quiz as the page's JSON answer shows it.
#[derive(Debug, Serialize)]
pub struct SessionJson {
    merchant_name: String,
    status: &'static str,
    expires_at: String,
    steps: Vec<StepJson>,
    missing_steps: Vec<&'static str>,
}

impl SessionJson {
    pub fn of(session: &QuizSession) -> Self {
        let quiz = &session.view.quiz;
        Self {
            merchant_name: session.merchant_name.clone(),
            status: state_name(session.state),
            expires_at: rfc3339(quiz.expires_at),
            steps: steps(session)
                .iter()
                .map(|s| StepJson {
                    step: s.name,
                    label: s.label,
                    kind: kind_name(s.kind),
                    requirement: if s.required { 1 } else { 2 },
                    done: s.done,
                    available: s.kind != StepKind::Provider,
                })
                .collect(),
            missing_steps: quiz.missing_steps().iter().map(Feature::name).collect(),
        }
    }
}
