//! What a dashboard handler answers instead of its page: each kind is one of the
//! dashboard's own pages (a redirect to sign in, or a message page), never the API's JSON
//! envelope, which leaves these errors as they are.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use askama::Template;
use domain::DomainError;
use domain::error::{Cause, Report};

use super::BASE;
use crate::pages::{html, redirect_to};

/// Why a dashboard handler did not give its page.
#[derive(Debug)]
pub(crate) enum DashboardError {
    /// No live session: on to sign in (303).
    SignIn,
    /// A post without the session's CSRF token: refused (403), nothing changed.
    TokenRefused,
    /// An admin's page or post, asked for by a reviewer (403).
    AdminOnly,
    /// Nothing of the reviewer's merchant has this address (404): another merchant's
    /// object looks exactly the same.
    NotFound,
    /// A form's values are refused: nothing was changed (400), and `text` says what to fix.
    Refused { heading: &'static str, text: String },
    /// Storage cannot be reached, or the work is at capacity: try again (503).
    Unavailable(Cause),
    /// A fault on our side (500): the cause is logged, never shown.
    Internal(Cause),
}

impl DashboardError {
    /// A form's values refused: nothing was saved.
    pub fn not_saved(text: impl Into<String>) -> Self {
        Self::Refused {
            heading: "Not saved",
            text: text.into(),
        }
    }
}

impl From<DomainError> for DashboardError {
    fn from(e: DomainError) -> Self {
        match e {
            DomainError::NotFound(_) => Self::NotFound,
            DomainError::Invalid(violations) => Self::not_saved(violations.to_string()),
            DomainError::KeyLimitReached => Self::not_saved(
                "This merchant already holds 20 enabled API keys. Disable one before making another.",
            ),
            e @ DomainError::Unavailable(_) => Self::Unavailable(Box::new(e)),
            DomainError::Busy => Self::Unavailable("at capacity".into()),
            e @ DomainError::Internal(_) => Self::Internal(Box::new(e)),
            // The dashboard makes no request the domain refuses so (its forms offer only
            // what exists): met here, these are faults. Listed, so that a new refusal of
            // the domain is answered here before it compiles.
            e @ (DomainError::ProfileExists
            | DomainError::FeatureRequired
            | DomainError::TemplateRequired
            | DomainError::QuizSubmitted
            | DomainError::UploadLimitReached
            | DomainError::UserExists
            | DomainError::WebhookLimitReached
            | DomainError::QuizExpired) => Self::Internal(Box::new(e)),
        }
    }
}

impl std::fmt::Display for DashboardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Unavailable(cause) => write!(f, "dashboard unavailable: {}", Report(&**cause)),
            Self::Internal(cause) => write!(f, "dashboard failure: {}", Report(&**cause)),
            other => write!(f, "{}", other.status_code()),
        }
    }
}

impl ResponseError for DashboardError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::SignIn => StatusCode::SEE_OTHER,
            Self::TokenRefused | Self::AdminOnly => StatusCode::FORBIDDEN,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::Refused { .. } => StatusCode::BAD_REQUEST,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        if status.is_server_error() {
            // Logged here, inside the request's span, once: the page says nothing of it.
            tracing::error!(error = %self, "a dashboard page failed");
        }
        let (heading, text) = match self {
            Self::SignIn => return redirect_to(format!("{BASE}/login")),
            Self::TokenRefused => (
                "Refused",
                "This form has expired or did not come from this dashboard. Go back, reload the page and try again.",
            ),
            Self::AdminOnly => (
                "Refused",
                "Only an admin of this merchant may read the audit trail or change API keys and settings.",
            ),
            Self::NotFound => ("Not found", "Nothing of yours has this address."),
            Self::Refused { heading, text } => (*heading, text.as_str()),
            Self::Unavailable(_) => (
                "Unavailable",
                "The service cannot be reached right now. Try again in a moment.",
            ),
            Self::Internal(_) => (
                "Failed",
                "This page could not be made. Try again in a moment.",
            ),
        };
        message(status, heading, text)
    }
}

#[derive(Template)]
#[template(path = "dashboard/message.html")]
struct MessagePage<'a> {
    heading: &'a str,
    text: &'a str,
}

/// One of the dashboard's message pages.
pub(crate) fn message(status: StatusCode, heading: &str, text: &str) -> HttpResponse {
    html(status, &MessagePage { heading, text })
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::to_bytes;
    use domain::error::Resource;

    async fn page_of(e: DashboardError) -> (StatusCode, String) {
        let answer = e.error_response();
        let status = answer.status();
        let body = to_bytes(answer.into_body()).await.expect("a body");
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    #[actix_web::test]
    async fn domain_errors_become_the_dashboards_pages() {
        let cases = [
            (
                DomainError::NotFound(Resource::Profile),
                StatusCode::NOT_FOUND,
            ),
            (DomainError::KeyLimitReached, StatusCode::BAD_REQUEST),
            (DomainError::Busy, StatusCode::SERVICE_UNAVAILABLE),
            (
                DomainError::Unavailable("db down".into()),
                StatusCode::SERVICE_UNAVAILABLE,
            ),
            (
                DomainError::Internal("disk on fire at /var/lib/x".into()),
                StatusCode::INTERNAL_SERVER_ERROR,
            ),
            (
                DomainError::ProfileExists,
                StatusCode::INTERNAL_SERVER_ERROR,
            ),
        ];
        for (domain, expected) in cases {
            let (status, page) = page_of(domain.into()).await;
            assert_eq!(status, expected);
            assert!(
                page.contains("<html") || page.contains("<!DOCTYPE"),
                "{page}"
            );
            assert!(
                !page.contains("disk") && !page.contains("db down"),
                "{page}"
            );
        }
    }

    #[actix_web::test]
    async fn strangers_are_sent_to_sign_in() {
        let answer = DashboardError::SignIn.error_response();
        assert_eq!(answer.status(), StatusCode::SEE_OTHER);
        assert_eq!(
            answer
                .headers()
                .get("Location")
                .and_then(|v| v.to_str().ok()),
            Some("/dashboard/login")
        );
    }
}
