//! The error side of the envelope: `errors: [{code, description}]` with the HTTP status
//! of contract §2. Causes of 5xx answers are logged, never sent.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use domain::DomainError;
use domain::error::{Report, Resource};
use domain::validation::{Problem, Violations};
use serde::Serialize;

/// One problem of a request.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct ErrorItem {
    /// `EMAIL_ADDRESS_REQUIRED`, `PROFILE_NOT_FOUND`, `SIGNATURE_INVALID`...
    pub code: String,
    pub description: String,
}

/// An answer other than success. Rendered inside the envelope by the envelope middleware,
/// which knows the request's reference id.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub errors: Vec<ErrorItem>,
    /// What really went wrong, every cause written out ([`Report`]), for the log only (5xx).
    pub cause: Option<String>,
    /// Seconds the caller should wait before retrying (429).
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &str, description: impl Into<String>) -> Self {
        Self {
            status,
            errors: vec![ErrorItem {
                code: code.to_owned(),
                description: description.into(),
            }],
            cause: None,
            retry_after: None,
        }
    }

    pub fn bad_request(code: &str, description: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, description)
    }

    pub fn unauthorized(code: &str, description: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, code, description)
    }

    pub fn internal(cause: impl Into<String>) -> Self {
        let mut e = Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL_ERROR",
            "The request could not be completed. Quote the query_reference_id to support.",
        );
        e.cause = Some(cause.into());
        e
    }

    pub fn unavailable(cause: impl Into<String>) -> Self {
        let mut e = Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "SERVICE_UNAVAILABLE",
            "The service is temporarily unavailable. Retry shortly.",
        );
        e.cause = Some(cause.into());
        e
    }

    /// 429 `RATE_LIMITED`, to retry after `wait`.
    pub fn rate_limited(wait: std::time::Duration) -> Self {
        let mut e = Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "RATE_LIMITED",
            "Too many requests; retry after the number of seconds in Retry-After.",
        );
        e.retry_after = Some(wait.as_secs_f64().ceil().max(1.0) as u64);
        e
    }

    pub fn not_found(resource: Resource) -> Self {
        let (code, what) = match resource {
            Resource::Profile => (
                "PROFILE_NOT_FOUND",
                "No profile matches this email_address and mobile_number.",
            ),
            Resource::Merchant => ("MERCHANT_NOT_FOUND", "No such merchant."),
            Resource::ApiKey => ("API_KEY_INVALID", "No such API key."),
            Resource::Template => (
                "TEMPLATE_NOT_FOUND",
                "No template of yours has this template_id.",
            ),
            Resource::Quiz => ("QUIZ_NOT_FOUND", "No quiz of yours has this address."),
            Resource::Document => (
                "DOCUMENT_NOT_FOUND",
                "No document of this profile has this document_id.",
            ),
            Resource::File => (
                "FILE_NOT_FOUND",
                "No file of this document has this file_id.",
            ),
            Resource::Webhook => (
                "WEBHOOK_NOT_FOUND",
                "No webhook of yours has this webhook_id.",
            ),
            Resource::Delivery => (
                "DELIVERY_NOT_FOUND",
                "No delivery of yours has this delivery_id.",
            ),
            Resource::Verification => (
                "VERIFICATION_NOT_FOUND",
                "This quiz or profile has no verification: none was submitted yet.",
            ),
            Resource::User => ("USER_NOT_FOUND", "No such dashboard user."),
            Resource::Screening => (
                "SCREENING_NOT_FOUND",
                "This profile was never screened: screening is off, or none of your lists is in force.",
            ),
            Resource::ScreeningMatch => (
                "MATCH_NOT_FOUND",
                "The profile's latest screening has no match of this list and entry_id.",
            ),
        };
        Self::bad_request(code, what)
    }

    /// One `<FIELD>_REQUIRED` / `<FIELD>_INVALID` item per violation.
    pub fn fields(violations: &Violations) -> Self {
        let errors = violations
            .iter()
            .map(|v| {
                let field = v.field.to_ascii_uppercase();
                let suffix = match v.problem {
                    Problem::Required => "REQUIRED",
                    Problem::Invalid => "INVALID",
                };
                let description = format!("{} {}.", v.field, v.reason);
                ErrorItem {
                    code: format!("{field}_{suffix}"),
                    description,
                }
            })
            .collect();
        Self {
            status: StatusCode::BAD_REQUEST,
            errors,
            cause: None,
            retry_after: None,
        }
    }

    /// An error raised outside our handlers (by actix), by its status.
    pub fn from_status(status: StatusCode, cause: String) -> Self {
        let (code, description) = match status {
            StatusCode::PAYLOAD_TOO_LARGE => {
                ("REQUEST_TOO_LARGE", "The request body is too large.")
            }
            StatusCode::NOT_FOUND => ("NOT_FOUND", "No operation at this path."),
            StatusCode::METHOD_NOT_ALLOWED => {
                ("HTTP_METHOD_INVALID", "This method is not allowed here.")
            }
            StatusCode::UNSUPPORTED_MEDIA_TYPE => (
                "CONTENT_TYPE_INVALID",
                "This content type is not accepted here.",
            ),
            s if s.is_client_error() => ("REQUEST_BODY_INVALID", "The request could not be read."),
            _ => return Self::internal(cause),
        };
        let mut error = Self::new(status, code, description);
        error.cause = Some(cause);
        error
    }

    pub fn codes(&self) -> Vec<&str> {
        self.errors.iter().map(|e| e.code.as_str()).collect()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status.as_u16(), self.codes().join(","))
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    /// A bare rendering; the envelope middleware replaces it with the full envelope.
    fn error_response(&self) -> HttpResponse {
        HttpResponse::build(self.status).json(crate::envelope::ErrorBody {
            errors: self.errors.clone(),
        })
    }
}

impl From<DomainError> for ApiError {
    fn from(e: DomainError) -> Self {
        match &e {
            DomainError::Invalid(v) => Self::fields(v),
            DomainError::NotFound(resource) => Self::not_found(*resource),
            DomainError::ProfileExists => Self::bad_request(
                "PROFILE_EXIST",
                "A profile with this email_address or mobile_number already exists.",
            ),
            DomainError::FeatureRequired => Self::bad_request(
                "FEATURE_REQUIRED",
                "The template list must set at least one member to 1 (required) or 2 (optional).",
            ),
            DomainError::TemplateRequired => Self::bad_request(
                "TEMPLATE_REQUIRED",
                "Give template.template_id of a stored template, or template.list.",
            ),
            DomainError::WebhookLimitReached => Self::bad_request(
                "WEBHOOK_LIMIT_REACHED",
                "You hold 16 webhooks already; delete one first.",
            ),
            DomainError::QuizExpired => {
                Self::bad_request("QUIZ_EXPIRED", "This quiz has already expired.")
            }
            DomainError::QuizSubmitted => Self::new(
                StatusCode::CONFLICT,
                "QUIZ_SUBMITTED",
                "This quiz was already completed; it takes no more submissions.",
            ),
            DomainError::UploadLimitReached => Self::bad_request(
                "UPLOAD_LIMIT_REACHED",
                "This link already holds as many documents or bytes as one link may add.",
            ),
            DomainError::Unavailable(_) => Self::unavailable(Report(&e).to_string()),
            DomainError::Busy => Self::unavailable("at capacity"),
            DomainError::Internal(_) => Self::internal(Report(&e).to_string()),
            // No API operation makes users or keys (the CLI and the dashboard do): met
            // here, these are faults.
            DomainError::UserExists | DomainError::KeyLimitReached => Self::internal(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn violations_become_field_codes_in_order() {
        let mut v = Violations::new();
        v.push("email_address", Problem::Required, "");
        v.push("mobile_number", Problem::Invalid, "must be 10 digits");
        let e = ApiError::fields(&v);
        assert_eq!(
            e.codes(),
            ["EMAIL_ADDRESS_REQUIRED", "MOBILE_NUMBER_INVALID"]
        );
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
    }

    #[test]
    fn errors_raised_by_actix_get_codes_by_status() {
        let e = ApiError::from_status(StatusCode::PAYLOAD_TOO_LARGE, "overflow".into());
        assert_eq!(e.codes(), ["REQUEST_TOO_LARGE"]);
        let e = ApiError::from_status(StatusCode::BAD_REQUEST, "bad".into());
        assert_eq!(e.codes(), ["REQUEST_BODY_INVALID"]);
        let e = ApiError::from_status(StatusCode::BAD_GATEWAY, "upstream".into());
        assert_eq!(
            (e.status, e.codes()),
            (StatusCode::INTERNAL_SERVER_ERROR, vec!["INTERNAL_ERROR"])
        );
    }

    #[test]
    fn internal_failures_hide_their_cause() {
        let e = ApiError::internal("disk on fire at /var/lib/x");
        assert!(!e.errors[0].description.contains("disk"));
        assert_eq!(e.codes(), ["INTERNAL_ERROR"]);
    }
}
