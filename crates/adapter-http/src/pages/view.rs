//! What the quiz pages show, built from a `QuizSession`, and the HTML templates.

use std::collections::HashMap;

use askama::Template;
use domain::document::Side;
use domain::merchant::Language;
use domain::quiz::QuizState;
use domain::services::QuizSession;
use domain::template::{Feature, Requirement, StepKind};
use domain::verification::{QualityIssue, quality_limits};
use serde::Serialize;

use super::locale::{Locale, language_name};
use super::regions::{self, Region};
use crate::error::ApiError;
use crate::timefmt::rfc3339;

/// One step as a JSON answer shows it.
#[derive(Debug, Clone)]
pub struct StepView {
    pub name: &'static str,
    pub label: &'static str,
    pub kind: StepKind,
    pub required: bool,
    pub done: bool,
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
        })
        .collect()
}

/// One step as the page shows it, in the client's language.
pub struct StepCard {
    pub name: &'static str,
    pub label: String,
    /// "Done", "Required" or "Optional".
    pub badge: String,
    pub required: bool,
    pub done: bool,
    /// An upload step's forms: one per side it needs, else one.
    pub uploads: Vec<UploadForm>,
}

/// One upload form of a step.
pub struct UploadForm {
    /// `front` or `back`, for a step that asks for each side.
    pub side: Option<&'static str>,
    /// The file input's id, unique on the page.
    pub input: String,
    pub heading: Option<String>,
    pub label: String,
    pub accept: &'static str,
    pub multiple: bool,
    /// `user` (the front camera) for a selfie, `environment` for a document.
    pub capture: &'static str,
    /// The outline the camera guide draws over its preview: `face`, `card` (ID-1),
    /// `page` (a passport's data page) or `sheet` (a letter or A4 page).
    pub shape: &'static str,
    /// What the last upload to this form came to, told once after it.
    pub notice: Option<QualityNotice>,
}

/// The `*_submit` steps, shown as one form.
#[derive(Debug, Default)]
pub struct FormView {
    pub any: bool,
    pub done: bool,
    pub badge: String,
    pub address: bool,
    pub mobile: bool,
    pub email: bool,
    pub date_of_birth: bool,
    pub ssn: bool,
}

/// What the page says of an upload that just arrived, from the address the upload
/// sent the browser back to (`?uploaded=<step>&side=<side>&issues=<reason>,...`):
/// nothing stored, nothing personal, and a forged one only misleads its own reader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uploaded {
    pub step: Feature,
    pub side: Option<Side>,
    pub issues: Vec<QualityIssue>,
}

impl Uploaded {
    /// The query that carries this back to the page (without `?`).
    pub fn query(&self) -> String {
        let mut pairs = vec![("uploaded", self.step.name().to_owned())];
        if let Some(side) = self.side {
            pairs.push(("side", side.as_str().to_owned()));
        }
        let issues: Vec<&str> = self.issues.iter().map(|i| i.reason().as_str()).collect();
        pairs.push(("issues", issues.join(",")));
        serde_urlencoded::to_string(pairs).unwrap_or_default()
    }

    /// The upload named by a page's query, if it names one well.
    pub fn from_query(query: &str) -> Option<Self> {
        let pairs: HashMap<String, String> = serde_urlencoded::from_str(query).ok()?;
        let step = Feature::from_name(pairs.get("uploaded")?)?;
        let side = match pairs.get("side") {
            Some(name) => Some(Side::parse(name)?),
            None => None,
        };
        let issues = pairs
            .get("issues")
            .map(|list| {
                QualityIssue::ALL
                    .iter()
                    .copied()
                    .filter(|i| list.split(',').any(|r| r == i.reason().as_str()))
                    .collect()
            })
            .unwrap_or_default();
        Some(Self { step, side, issues })
    }
}

/// An upload's quality, told in the client's language.
#[derive(Debug, Clone)]
pub struct QualityNotice {
    pub passed: bool,
    pub text: String,
    pub fixes: Vec<String>,
}

impl QualityNotice {
    fn of(uploaded: &Uploaded, t: &Locale) -> Self {
        let passed = uploaded.issues.is_empty();
        Self {
            passed,
            text: t.text(if passed {
                "quality-passed"
            } else {
                "quality-failed"
            }),
            fixes: uploaded
                .issues
                .iter()
                .map(|i| t.text(&format!("quality-{}", i.reason().as_str())))
                .collect(),
        }
    }
}

/// Field name -> message, from an error answer, to show next to each field, in the
/// client's language.
#[derive(Debug, Default)]
pub struct FieldErrors(HashMap<String, String>);

impl FieldErrors {
    pub fn from_error(error: &ApiError, t: &Locale, merchant: &str) -> (Self, Vec<String>) {
        let mut fields = HashMap::new();
        let mut summary = Vec::new();
        for item in &error.errors {
            let (field, message) = explain(&item.code, t, merchant);
            summary.push(message.clone());
            if let Some(field) = field {
                fields.insert(field, message);
            }
        }
        (Self(fields), summary)
    }

    pub fn get(&self, field: &str) -> Option<&str> {
        self.0.get(field).map(String::as_str)
    }
}

/// The field an error code names (`SSN_INVALID`: `ssn`) and what to tell the client of
/// it: the field's own text, a missing step by its name, or a general one.
fn explain(code: &str, t: &Locale, merchant: &str) -> (Option<String>, String) {
    let own = format!("error-{code}");
    if t.has(&own) {
        return (None, t.fill(&own, &[("merchant", &merchant)]));
    }
    let Some((field, required)) = code
        .strip_suffix("_REQUIRED")
        .map(|f| (f, true))
        .or_else(|| code.strip_suffix("_INVALID").map(|f| (f, false)))
    else {
        return (None, t.text("error-other"));
    };
    let field = field.to_ascii_lowercase();
    let message = if let Some(step) = Feature::from_name(&field) {
        let name = t.text(&format!("step-{}", step.name()));
        t.fill("error-step-required", &[("step", &name)])
    } else if t.has(&format!("error-{field}")) {
        t.text(&format!("error-{field}"))
    } else if required {
        t.text("error-required")
    } else {
        t.text("error-invalid")
    };
    (Some(field), message)
}

/// A link to this page in another language.
pub struct LanguageLink {
    pub code: &'static str,
    pub name: String,
    pub current: bool,
}

#[derive(Template)]
#[template(path = "quiz.html")]
pub struct QuizPage {
    pub t: Locale,
    pub lang: &'static str,
    /// What the page's forms add to their addresses to keep the language.
    pub keep: String,
    pub title: String,
    pub merchant: String,
    pub intro: String,
    pub progress: String,
    pub token: String,
    pub done_count: usize,
    pub total_count: usize,
    pub uploads: Vec<StepCard>,
    pub form: FormView,
    pub agreement: Option<StepCard>,
    pub agreement_text: String,
    pub fingerprint: Option<StepCard>,
    pub providers: Vec<StepCard>,
    pub blocked: Option<String>,
    pub summary: Vec<String>,
    pub errors: FieldErrors,
    pub handoff: Option<String>,
    pub languages: Vec<LanguageLink>,
    pub us_states: &'static [Region],
    pub ca_regions: &'static [Region],
    pub countries: &'static [(&'static str, &'static str)],
    pub camera: CameraLimits,
}

/// The `document_quality` limits the camera guide judges each frame by, given to the
/// page's script so that it measures against the server's own figures.
pub struct CameraLimits {
    pub min_short_side: u32,
    pub min_sharpness: f64,
    pub min_brightness: f64,
}

impl CameraLimits {
    const OF_THE_SERVER: Self = Self {
        min_short_side: quality_limits::MIN_SHORT_SIDE,
        min_sharpness: quality_limits::MIN_SHARPNESS,
        min_brightness: quality_limits::MIN_BRIGHTNESS,
    };
}

impl QuizPage {
    pub fn new(
        session: &QuizSession,
        t: Locale,
        error: Option<&ApiError>,
        uploaded: Option<&Uploaded>,
    ) -> Self {
        let quiz = &session.view.quiz;
        let merchant = session.merchant_name.clone();
        let badge = |done: bool, required: bool| {
            t.text(match (done, required) {
                (true, _) => "badge-done",
                (false, true) => "badge-required",
                (false, false) => "badge-optional",
            })
        };
        let mut cards: Vec<(StepKind, StepCard)> = quiz
            .steps()
            .map(|(feature, requirement)| {
                let required = requirement == Requirement::Required;
                let done = quiz.completed.contains(feature);
                let card = StepCard {
                    name: feature.name(),
                    label: t.text(&format!("step-{}", feature.name())),
                    badge: badge(done, required),
                    required,
                    done,
                    uploads: upload_forms(feature, done, &t, uploaded),
                };
                (feature.kind(), card)
            })
            .collect();
        let done_count = cards.iter().filter(|(_, c)| c.done).count();
        let total_count = cards.len();
        let submits: Vec<&StepCard> = cards
            .iter()
            .filter(|(kind, _)| *kind == StepKind::Submit)
            .map(|(_, c)| c)
            .collect();
        let has = |feature: Feature| submits.iter().any(|c| c.name == feature.name());
        let any = !submits.is_empty();
        let form_required = submits.iter().any(|c| c.required);
        let form_done = any && submits.iter().all(|c| c.done);
        let form = FormView {
            any,
            done: form_done,
            badge: badge(form_done, form_required),
            address: has(Feature::AddressSubmit),
            mobile: has(Feature::MobilePhoneSubmit),
            email: has(Feature::EmailAddressSubmit),
            date_of_birth: has(Feature::DateOfBirthSubmit),
            ssn: has(Feature::SsnSubmit),
        };
        let blocked: Vec<String> = quiz
            .needs_provider()
            .iter()
            .map(|f| format!("“{}”", t.text(&format!("step-{}", f.name()))))
            .collect();
        let blocked = (!blocked.is_empty()).then(|| {
            t.fill(
                "blocked-text",
                &[("steps", &blocked.join(", ")), ("merchant", &merchant)],
            )
        });
        let (errors, summary) = error
            .map(|e| FieldErrors::from_error(e, &t, &merchant))
            .unwrap_or_default();
        let mut take = |kind: StepKind| -> Vec<StepCard> {
            let (matching, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut cards)
                .into_iter()
                .partition(|(k, _)| *k == kind);
            cards = rest;
            matching.into_iter().map(|(_, card)| card).collect()
        };
        Self {
            title: t.fill("quiz-title", &[("merchant", &merchant)]),
            intro: t.fill(
                "quiz-intro",
                &[
                    ("client", &session.view.client.full_name()),
                    ("merchant", &merchant),
                    ("expires", &t.date_time(quiz.expires_at)),
                ],
            ),
            progress: t.fill(
                "quiz-progress",
                &[("done", &done_count), ("total", &total_count)],
            ),
            agreement_text: t.fill("agreement-text", &[("merchant", &merchant)]),
            token: quiz.token.as_str().to_owned(),
            done_count,
            total_count,
            uploads: take(StepKind::Upload),
            form,
            agreement: take(StepKind::Agreement).into_iter().next(),
            fingerprint: take(StepKind::Fingerprint).into_iter().next(),
            providers: take(StepKind::Provider),
            blocked,
            summary,
            errors,
            handoff: crate::qr::data_address(&session.links.long_url),
            languages: Language::ALL
                .iter()
                .map(|&l| LanguageLink {
                    code: l.as_str(),
                    name: language_name(l),
                    current: l == t.language,
                })
                .collect(),
            us_states: &regions::US,
            ca_regions: &regions::CA,
            countries: regions::countries(),
            camera: CameraLimits::OF_THE_SERVER,
            lang: t.language.as_str(),
            keep: t.query(),
            merchant,
            t,
        }
    }
}
#[derive(Template)]
#[template(path = "message.html")]
pub struct MessagePage {
    pub lang: &'static str,
    pub heading: String,
    pub text: String,
}

/// The forms of an upload step: a selfie (the front camera), each side of a card, one
/// passport page, or up to four files of anything else.
fn upload_forms(
    step: Feature,
    done: bool,
    t: &Locale,
    uploaded: Option<&Uploaded>,
) -> Vec<UploadForm> {
    if step.kind() != StepKind::Upload {
        return Vec::new();
    }
    let notice = |side: Option<Side>| {
        uploaded
            .filter(|u| u.step == step && u.side == side)
            .map(|u| QualityNotice::of(u, t))
    };
    let shape = match step {
        Feature::SelfieUpload => "face",
        Feature::PassportUpload => "page",
        _ if step.has_sides() => "card",
        _ => "sheet",
    };
    let form = |side: Option<Side>, label: &str, multiple: bool, capture| UploadForm {
        side: side.map(|s| s.as_str()),
        input: match side {
            Some(side) => format!("file-{}-{}", step.name(), side.as_str()),
            None => format!("file-{}", step.name()),
        },
        heading: side.map(|s| t.text(&format!("upload-side-{}", s.as_str()))),
        label: t.text(label),
        accept: if step == Feature::SelfieUpload {
            "image/jpeg,image/png"
        } else {
            "image/jpeg,image/png,application/pdf"
        },
        multiple,
        capture,
        shape,
        notice: notice(side),
    };
    match step {
        Feature::SelfieUpload => vec![form(None, "upload-selfie", false, "user")],
        _ if step.has_sides() => [Side::Front, Side::Back]
            .into_iter()
            .map(|side| form(Some(side), "upload-one", false, "environment"))
            .collect(),
        Feature::PassportUpload => vec![form(None, "upload-one", false, "environment")],
        _ if done => vec![form(None, "upload-more", true, "environment")],
        _ => vec![form(None, "upload-files", true, "environment")],
    }
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
