//! One route, two audiences: JSON for scripts (`Accept: application/json`), HTML for
//! people, with a redirect back to the page after a successful form post.

use actix_web::http::StatusCode;
use actix_web::http::header::{
    ACCEPT, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HeaderValue, LOCATION,
};
use actix_web::{HttpRequest, HttpResponse, Responder};
use askama::Template;
use domain::DomainError;
use domain::document::Document;
use domain::error::Resource;
use domain::merchant::Language;
use domain::quiz::{Quiz, QuizLink};
use domain::services::QuizSession;
use domain::template::Feature;
use domain::verification::{CheckStatus, QualityIssue};
use serde::Serialize;

use super::locale::Locale;
use super::view::{MessagePage, QuizPage, Uploaded};
use crate::envelope::Reply;
use crate::error::ApiError;
use crate::state::State;

pub fn wants_json(req: &HttpRequest) -> bool {
    req.headers()
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("application/json"))
}

pub fn html(status: StatusCode, page: &impl Template) -> HttpResponse {
    match page.render() {
        Ok(body) => HttpResponse::build(status)
            .insert_header((CONTENT_TYPE, "text/html; charset=utf-8"))
            .body(body),
        // Logged here, inside the request's span; the page says nothing of the cause.
        Err(e) => {
            tracing::error!(error = %domain::error::Report(&e), "a page could not be rendered");
            HttpResponse::InternalServerError()
                .insert_header((CONTENT_TYPE, "text/plain; charset=utf-8"))
                .body("This page could not be made. Try again in a moment.")
        }
    }
}

pub fn redirect_to(path: String) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((LOCATION, path))
        .finish()
}

fn message_page(status: StatusCode, t: &Locale, heading: &str, text: String) -> HttpResponse {
    let page = MessagePage {
        lang: t.language.as_str(),
        heading: t.text(heading),
        text,
    };
    html(status, &page)
}

/// A link that names no quiz: the merchant is unknown, so the request alone chooses
/// the language (English if it names none the pages speak).
pub fn not_found_page(req: &HttpRequest) -> HttpResponse {
    let t = Locale::of(req, Language::En);
    message_page(
        StatusCode::NOT_FOUND,
        &t,
        "not-found-heading",
        t.text("not-found-text"),
    )
}

pub fn expired_page(req: &HttpRequest, merchant_language: Language) -> HttpResponse {
    let t = Locale::of(req, merchant_language);
    message_page(
        StatusCode::GONE,
        &t,
        "expired-heading",
        t.text("expired-text"),
    )
}

pub fn thanks_page(req: &HttpRequest, session: &QuizSession) -> HttpResponse {
    let t = Locale::of(req, session.merchant_language);
    let text = t.fill("thanks-text", &[("merchant", &session.merchant_name)]);
    message_page(StatusCode::OK, &t, "thanks-heading", text)
}

/// The quiz page, in the client's language, with any errors of the post it answers or
/// what became of the upload that sent the client back to it. When the quiz sends the
/// client on after submitting, its policy lets the submit form go there. (A checked
/// `RedirectUrl`'s origin always makes a valid header; were it not, the default policy,
/// forms to this service only, would stand.)
pub fn quiz_page(
    status: StatusCode,
    req: &HttpRequest,
    session: &QuizSession,
    error: Option<&ApiError>,
    uploaded: Option<&Uploaded>,
) -> HttpResponse {
    let t = Locale::of(req, session.merchant_language);
    let mut response = html(status, &QuizPage::new(session, t, error, uploaded));
    if let Some(url) = &session.view.quiz.redirect_url {
        let policy = super::content_security_policy(Some(&url.origin()));
        if let Ok(value) = HeaderValue::try_from(policy) {
            response
                .headers_mut()
                .insert(CONTENT_SECURITY_POLICY, value);
        }
    }
    response
}

/// The quiz page's address after a post, keeping a language the link chose, with
/// `extra` query pairs and a `#fragment` to land on.
pub fn back_to_page(req: &HttpRequest, link: &QuizLink, extra: &str, fragment: &str) -> String {
    let token = match link {
        QuizLink::Token(t) => t.as_str(),
        QuizLink::Code(c) => c.as_str(),
    };
    let kept = Locale::kept_by_link(req);
    let query = match (kept.is_empty(), extra.is_empty()) {
        (true, true) => String::new(),
        (true, false) => format!("?{extra}"),
        (false, true) => kept,
        (false, false) => format!("{kept}&{extra}"),
    };
    let fragment = if fragment.is_empty() {
        String::new()
    } else {
        format!("#{fragment}")
    };
    format!("/quiz/{token}{query}{fragment}")
}

/// The quiz's state errors, with the statuses the pages use.
pub fn api_error(error: DomainError) -> ApiError {
    match error {
        DomainError::NotFound(Resource::Quiz) => ApiError::new(
            StatusCode::NOT_FOUND,
            "QUIZ_NOT_FOUND",
            "This quiz does not exist.",
        ),
        DomainError::QuizExpired => {
            ApiError::new(StatusCode::GONE, "QUIZ_EXPIRED", "This quiz has expired.")
        }
        DomainError::QuizSubmitted => ApiError::new(
            StatusCode::CONFLICT,
            "QUIZ_SUBMITTED",
            "This quiz was already completed; it takes no more submissions.",
        ),
        other => other.into(),
    }
}

/// The answer to a form post: JSON either way, or for people a redirect back to the page
/// on success and the page again, with its errors next to the fields, on failure.
pub async fn after_post(
    state: &State,
    req: &HttpRequest,
    link: &QuizLink,
    result: Result<impl Serialize, ApiError>,
) -> Result<HttpResponse, ApiError> {
    match (result, wants_json(req)) {
        (Ok(body), true) => Ok(Reply::ok(body).respond_to(req)),
        (Ok(_), false) => Ok(redirect_to(back_to_page(req, link, "", ""))),
        (Err(error), true) => Err(error),
        (Err(error), false) => match error.status {
            StatusCode::NOT_FOUND => Ok(not_found_page(req)),
            StatusCode::CONFLICT => Ok(redirect_to(back_to_page(req, link, "", ""))),
            status if status.is_server_error() => Err(error),
            _ => {
                let session = state.client.open(link).await.map_err(api_error)?;
                if error.status == StatusCode::GONE {
                    return Ok(expired_page(req, session.merchant_language));
                }
                Ok(quiz_page(error.status, req, &session, Some(&error), None))
            }
        },
    }
}

/// What a form post answers a script: the steps done so far, never a stored value.
#[derive(Debug, Serialize)]
pub struct StepsDone {
    completed_steps: Vec<&'static str>,
    missing_steps: Vec<&'static str>,
}

impl StepsDone {
    pub fn of(quiz: &Quiz) -> Self {
        Self {
            completed_steps: Feature::ALL
                .iter()
                .filter(|f| quiz.completed.contains(**f))
                .map(Feature::name)
                .collect(),
            missing_steps: quiz.missing_steps().iter().map(Feature::name).collect(),
        }
    }
}

/// What a step that makes a document answers a script.
#[derive(Debug, Serialize)]
pub struct DocumentMade {
    document_id: String,
    name: &'static str,
    status: &'static str,
    /// An upload's images judged as they arrived (contract §14).
    #[serde(skip_serializing_if = "Option::is_none")]
    quality: Option<QualityAnswer>,
}

/// Whether an upload's images are usable, with the `document_quality` reasons.
#[derive(Debug, Serialize)]
pub struct QualityAnswer {
    status: &'static str,
    reasons: Vec<&'static str>,
}

impl DocumentMade {
    pub fn of(document: &Document) -> Self {
        Self {
            document_id: document.id.to_string(),
            name: document.step.name(),
            status: document.status.as_str(),
            quality: None,
        }
    }

    /// An upload's answer, with what is wrong with its images (nothing: passed).
    pub fn uploaded(document: &Document, issues: &[QualityIssue]) -> Self {
        let status = match issues.is_empty() {
            true => CheckStatus::Passed,
            false => CheckStatus::Failed,
        };
        Self {
            quality: Some(QualityAnswer {
                status: status.as_str(),
                reasons: issues.iter().map(|i| i.reason().as_str()).collect(),
            }),
            ..Self::of(document)
        }
    }
}
