//! A profile's latest verification as its page shows it (contract §13): the outcome, then
//! each check with its outcome in words, the failed ones first; and the reviewer's
//! "verify again".

use actix_web::{HttpResponse, web};
use domain::ids::QuizId;
use domain::services::VerificationView;
use domain::verification::{CheckName, CheckStatus, Reason};

use super::{Button, DashboardError, Posted};
use crate::handlers::State;
use crate::pages::redirect_to;
use crate::timefmt::rfc3339;

/// One check, as a reviewer reads it.
pub(super) struct CheckRow {
    pub label: &'static str,
    pub outcome: &'static str,
    pub failed: bool,
    pub reasons: String,
}

/// The latest verification, as a reviewer reads it.
pub(super) struct VerificationSection {
    pub outcome: &'static str,
    pub completed_at: Option<String>,
    pub quiz_id: String,
    pub checks: Vec<CheckRow>,
}

fn label(name: CheckName) -> &'static str {
    match name {
        CheckName::SsnFormat => "SSN could have been issued",
        CheckName::MinimumAge => "Old enough",
        CheckName::DuplicateIdentity => "SSN or document not another client's",
        CheckName::DuplicateDevice => "Device not shared by many clients",
        CheckName::DocumentQuality => "Photos usable",
        CheckName::Barcode => "Licence barcode read",
        CheckName::Mrz => "Passport machine-readable zone read",
        CheckName::DocumentExpiry => "Document not expired",
        CheckName::DocumentDates => "Document dates agree",
        CheckName::NameMatch => "Name matches the document",
        CheckName::DateOfBirthMatch => "Date of birth matches the document",
        CheckName::DocumentNumberMatch => "Licence number matches the document",
        CheckName::AddressMatch => "Address matches the document",
        CheckName::SelfieFace => "One face in the selfie",
        CheckName::DocumentPortrait => "Portrait on the ID",
        CheckName::FaceMatch => "Selfie matches the ID's portrait",
    }
}

impl VerificationSection {
    pub(super) fn of(found: &VerificationView) -> Self {
        let v = &found.verification;
        let mut checks: Vec<CheckRow> = v
            .checks
            .iter()
            .map(|c| CheckRow {
                label: label(c.name),
                outcome: match c.status {
                    CheckStatus::Passed => "Passed",
                    CheckStatus::Failed => "Failed",
                    CheckStatus::NotApplicable => "Not checked",
                },
                failed: c.status == CheckStatus::Failed,
                reasons: c
                    .reasons
                    .iter()
                    .map(Reason::as_str)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
            .collect();
        // Failed first; otherwise the report's order (the sort is stable).
        checks.sort_by_key(|c| !c.failed);
        Self {
            outcome: match v.status.as_str() {
                "passed" => "Passed",
                "review" => "To review",
                "declined" => "Declined",
                _ => "Running",
            },
            completed_at: v.completed_at.map(rfc3339),
            quiz_id: v.quiz_id.to_string(),
            checks,
        }
    }
}

/// `POST /dashboard/quizzes/{id}/verify`: queues another verification of a submitted quiz
/// of the reviewer's merchant, then back to its profile.
pub(super) async fn rerun(
    state: State,
    Posted { reviewer, .. }: Posted<Button>,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    let id = QuizId::parse(&id).map_err(|_| DashboardError::NotFound)?;
    let queued = state
        .verifications
        .rerun_by_id(&reviewer.session.merchant_id, &id)
        .await?;
    let profile = &queued.verification.profile_id.0;
    Ok(redirect_to(format!(
        "{}/profiles/{profile}#verification",
        super::BASE
    )))
}
