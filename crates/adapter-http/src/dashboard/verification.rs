//! Verification in the dashboard (contract §13): a profile's latest verification as its
//! page shows it (the outcome, then each check with its outcome in words, the failed ones
//! first), the reviewer's "verify again", and the admin's policy form in the settings.

use std::collections::BTreeMap;

use actix_web::{HttpResponse, web};
use domain::ids::QuizId;
use domain::merchant::MerchantSettings;
use domain::services::VerificationView;
use domain::verification::{CheckName, CheckStatus, Decision, Reason};
use domain::watchlist::ListName;

use super::settings_forms::VerificationForm;
use super::{AdminPosted, Button, DashboardError, Posted};
use crate::pages::redirect_to;
use crate::state::State;
use crate::timefmt::rfc3339;
use domain::audit::AuditAction;

/// One check, as a reviewer reads it.
pub(super) struct CheckRow {
    pub label: &'static str,
    pub outcome: &'static str,
    pub failed: bool,
    /// Each reason in words, with its code (the API's, and the policy's).
    pub reasons: Vec<(&'static str, &'static str)>,
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
        CheckName::ProofOfAddress => "Recent bill or statement at the client's address",
        CheckName::Watchlist => "Name on no sanctions, PEP or internal list",
        CheckName::DuplicateFace => "Face not another client's, nor blocked",
        CheckName::PhotoReuse => "Photos not another client's, selfie not a photo of the ID",
    }
}

/// A reason as a reviewer reads it.
fn words(reason: Reason) -> &'static str {
    match reason {
        Reason::SsnInvalid => "The SSN cannot have been issued",
        Reason::MinimumAgeNotMet => "Younger than the minimum age",
        Reason::SsnUsedByAnotherProfile => "The SSN is another client's too",
        Reason::DocumentUsedByAnotherProfile => "The document is another client's too",
        Reason::DeviceUsedByOtherProfiles => "The device is shared by several clients",
        Reason::ImageTooSmall => "A photo is too small",
        Reason::ImageBlurry => "A photo is blurry",
        Reason::ImageTooDark => "A photo is too dark",
        Reason::ImageTooBright => "A photo has glare or is too bright",
        Reason::ImageUnreadable => "A file could not be read as an image",
        Reason::BarcodeNotFound => "No barcode found on the licence",
        Reason::BarcodeInvalid => "The barcode holds no licence record",
        Reason::MrzNotFound => "No machine-readable zone found",
        Reason::MrzCheckDigitInvalid => "A check digit of the machine-readable zone is wrong",
        Reason::DocumentExpired => "The document has expired",
        Reason::DocumentDatesInconsistent => "The document's dates disagree",
        Reason::NameMismatch => "The name read differs from the client's",
        Reason::DateOfBirthMismatch => "The date of birth read differs from the client's",
        Reason::DocumentNumberMismatch => "The licence number read differs from the client's",
        Reason::AddressMismatch => "The address read differs from the client's",
        Reason::NoFace => "No face in the selfie",
        Reason::MultipleFaces => "Several faces in the selfie",
        Reason::PortraitNotFound => "No portrait found on the ID",
        Reason::FaceMismatch => "The selfie is not the ID's portrait",
        Reason::PoaNameMismatch => "The bill or statement names someone else",
        Reason::PoaAddressMismatch => "The bill or statement is for another address",
        Reason::PoaTooOld => "The bill or statement is too old",
        Reason::PoaDateNotFound => "No issue date found on the bill or statement",
        Reason::PoaUnreadable => "The bill or statement could not be read",
        Reason::PoaPdfModified => "The PDF was edited after it was made",
        Reason::SanctionsPotentialMatch => "The name matches a sanctions list",
        Reason::PepPotentialMatch => "The name matches a list of politically exposed persons",
        Reason::InternalListMatch => "The name matches one of your lists",
        Reason::FaceUsedByAnotherProfile => "The face is another client's",
        Reason::FaceOnBlocklist => "The face was blocked by a reviewer",
        Reason::PhotoUsedByAnotherProfile => "A photo is another client's",
        Reason::SelfieIsDocumentPhoto => "The selfie is a photo of the ID's portrait",
        Reason::NoSsn => "No SSN given",
        Reason::NoDateOfBirth => "No date of birth known",
        Reason::NoFingerprint => "No device fingerprint taken",
        Reason::NoDocumentNumber => "No licence number kept to compare",
        Reason::NoDocument => "No document for this check",
        Reason::NothingRead => "Nothing read from the documents",
        Reason::NoAddress => "No address to compare",
        Reason::OcrUnavailable => "No text reader on this server",
        Reason::ImageAnalysisUnavailable => "Images were not read by this version",
        Reason::FaceMatcherUnavailable => "No face matcher on this server",
        Reason::ScreeningOff => "Screening is off",
        Reason::NoLists => "No list imported to screen against",
        Reason::FaceSearchOff => "Face search is off",
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
                reasons: c.reasons.iter().map(|r| (words(*r), r.as_str())).collect(),
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
    let profile = &queued.verification.profile_id.as_str();
    Ok(redirect_to(format!(
        "{}/profiles/{profile}#verification",
        super::BASE
    )))
}

/// One failure reason of the policy form, with what it leads to now.
pub(super) struct PolicyRow {
    pub code: &'static str,
    pub declines: bool,
}

/// The verification part of the settings page.
pub(super) struct PolicyForm {
    pub minimum_age: u8,
    pub proof_of_address_max_age_days: u16,
    pub auto_decision: bool,
    pub reasons: Vec<PolicyRow>,
    pub screening: bool,
    /// The lists chosen, comma-separated (empty: every list).
    pub screening_lists: String,
    pub screening_threshold: u8,
    pub face_search: bool,
}

impl PolicyForm {
    pub(super) fn of(settings: &MerchantSettings) -> Self {
        Self {
            minimum_age: settings.minimum_age.years(),
            proof_of_address_max_age_days: settings.proof_of_address_max_age.days(),
            auto_decision: settings.auto_decision,
            reasons: settings
                .policy
                .effective()
                .into_iter()
                .map(|(reason, decision)| PolicyRow {
                    code: reason.as_str(),
                    declines: decision == Decision::Decline,
                })
                .collect(),
            screening: settings.screening.on,
            screening_lists: settings
                .screening
                .lists
                .iter()
                .map(ListName::as_str)
                .collect::<Vec<_>>()
                .join(", "),
            screening_threshold: settings.screening.threshold.score(),
            face_search: settings.face_search,
        }
    }
}

/// `POST /dashboard/settings/verification` (admins): the minimum age, how old a proof of
/// address may be (kept when the form does not send it), automatic decisions and what
/// each failure reason leads to, as `merchant/settings/update` sets them.
pub(super) async fn save_policy(
    state: State,
    AdminPosted(Posted { reviewer, form }): AdminPosted<VerificationForm>,
) -> Result<HttpResponse, DashboardError> {
    super::settings::saved(&state, &reviewer, form.try_into()?, "#verification").await
}

/// `POST /dashboard/profiles/{id}/face/block`: a reviewer blocks the profile's face
/// (contract §20): a selfie of it fails `duplicate_face` with `face_on_blocklist` from
/// then on, under any identity. Refused, with the reason, when no face is kept of it.
pub(super) async fn block_face(
    state: State,
    Posted { reviewer, .. }: Posted<BTreeMap<String, String>>,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    let merchant = &reviewer.session.merchant_id;
    let profile = super::profile::find(&state, merchant, &id).await?;
    let blocked = state
        .verifications
        .block_face(merchant, &profile.id)
        .await?;
    if blocked == 0 {
        return Err(DashboardError::not_saved(
            "No face is kept of this profile: face search was off at its verification, or it has none. Turn face search on in the settings, then verify the quiz again.",
        ));
    }
    state
        .audit
        .record(
            merchant,
            &reviewer.initiator(),
            AuditAction::FaceBlocked,
            profile.id.as_str(),
        )
        .await?;
    Ok(redirect_to(format!(
        "{}/profiles/{}#verification",
        super::BASE,
        profile.id.as_str()
    )))
}
