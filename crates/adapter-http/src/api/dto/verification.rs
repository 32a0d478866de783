//! What the verification operations answer (contract §13).

use std::collections::BTreeMap;

use domain::quiz::QuizLinks;
use domain::services::VerificationView as Found;
use domain::verification::{Check, Reason};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::api::dto::paging::Paging;
use crate::timefmt::rfc3339;

/// One check of a verification.
#[derive(Debug, Serialize, ToSchema)]
pub struct CheckView {
    /// `ssn_format`, `minimum_age`, ... (every check of `docs/verification.md`).
    pub name: &'static str,
    /// `passed`, `failed` or `not_applicable`.
    pub status: &'static str,
    /// Reason codes: empty when passed.
    pub reasons: Vec<&'static str>,
    /// The document the check is about, or null.
    pub document_id: Option<String>,
    /// What was compared (counts, yes or no; never a personal value).
    #[schema(value_type = Object)]
    pub details: BTreeMap<String, Value>,
}

impl CheckView {
    fn of(c: &Check) -> Self {
        Self {
            name: c.name.as_str(),
            status: c.status.as_str(),
            reasons: c.reasons.iter().map(Reason::as_str).collect(),
            document_id: c.document_id.as_ref().map(ToString::to_string),
            details: c
                .details
                .iter()
                .map(|(name, detail)| (name.clone(), serde_json::json!(detail)))
                .collect(),
        }
    }
}

/// A verification of a submitted quiz.
#[derive(Debug, Serialize, ToSchema)]
pub struct VerificationView {
    pub verification_id: String,
    /// `pending` (queued or running), `passed`, `review` or `declined`.
    pub status: &'static str,
    /// Every check, in a fixed order (empty while pending).
    pub checks: Vec<CheckView>,
    /// The quiz's long address (null once the quiz was deleted).
    pub quiz_url: Option<String>,
    pub created_at: String,
    /// Null while pending.
    pub completed_at: Option<String>,
}

impl VerificationView {
    /// `found`, its quiz's address as `shown` shows it.
    pub fn of(found: &Found, shown: impl Fn(QuizLinks) -> QuizLinks) -> Self {
        let v = &found.verification;
        Self {
            verification_id: v.id.to_string(),
            status: v.status.as_str(),
            checks: v.checks.iter().map(CheckView::of).collect(),
            quiz_url: found.links.clone().map(|l| shown(l).long_url),
            created_at: rfc3339(v.created_at),
            completed_at: v.completed_at.map(rfc3339),
        }
    }
}

/// verification/get and verification/rerun.
#[derive(Debug, Serialize, ToSchema)]
pub struct VerificationAnswer {
    pub verification: VerificationView,
}

/// verification/read: the profile's verifications, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct VerificationList {
    #[serde(flatten)]
    pub paging: Paging,
    pub email_address: String,
    pub mobile_number: String,
    pub verifications: Vec<VerificationView>,
}
