//! Verification (contract §13): every submitted quiz is checked on the merchant's own
//! machine, and the outcome decided by the merchant's policy. A verification lists every
//! check, each `passed`, `failed` or `not_applicable` with its reasons, so nothing is ever
//! silently left out; what a check compared is reported without any personal value.
//!
//! This module is the rules alone: which checks there are ([`CheckName`]), what each
//! found ([`Check`]), the checks that need no image ([`identity`]), and what the outcome
//! is ([`Policy`]). Reading the documents' images comes through a port.

mod check;
pub mod identity;
mod policy;
mod reading;

pub use check::{Check, CheckName, CheckStatus, Detail, Reason};
pub use identity::MinimumAge;
pub use policy::{Decision, Policy, VerificationStatus};
pub use reading::{
    BarcodeReading, DocumentRead, ImageReport, MARKED_AGES, MrzReading, QualityIssue, ReadSource,
    Wanted,
};

use time::{Date, OffsetDateTime};

use crate::ids::{QuizId, VerificationId};
use crate::merchant::MerchantId;
use crate::profile::{DateOfBirth, ProfileId, Ssn};

/// A kind of identifying value the blind index keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IdentityKind {
    /// An SSN.
    Ssn,
    /// A device fingerprint.
    Device,
}

impl IdentityKind {
    /// Its name as stored.
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Ssn => "ssn",
            Self::Device => "device",
        }
    }
}

/// One verification of a submitted quiz (and one more for each rerun).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verification {
    /// Its id (a ULID: ids sort by time).
    pub id: VerificationId,
    /// The merchant whose client it checks.
    pub merchant_id: MerchantId,
    /// The client.
    pub profile_id: ProfileId,
    /// The quiz whose submission it checks.
    pub quiz_id: QuizId,
    /// Pending until it completes, then its outcome.
    pub status: VerificationStatus,
    /// Every check, in report order; empty while pending.
    pub checks: Vec<Check>,
    /// When it was queued.
    pub created_at: OffsetDateTime,
    /// When it completed.
    pub completed_at: Option<OffsetDateTime>,
}

impl Verification {
    /// A verification of the quiz, queued at `now`.
    pub fn queued(
        id: VerificationId,
        merchant: &MerchantId,
        profile: &ProfileId,
        quiz: &QuizId,
        now: OffsetDateTime,
    ) -> Self {
        Self {
            id,
            merchant_id: merchant.clone(),
            profile_id: profile.clone(),
            quiz_id: quiz.clone(),
            status: VerificationStatus::Pending,
            checks: Vec::new(),
            created_at: now,
            completed_at: None,
        }
    }

    /// Completes it with `checks`, its outcome decided by `policy`.
    pub fn complete(&mut self, checks: Vec<Check>, policy: &Policy, now: OffsetDateTime) {
        self.status = policy.outcome(&checks);
        self.checks = checks;
        self.completed_at = Some(now);
    }
}

/// The kinds of evidence a quiz holds, as far as the checks are concerned.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Submitted {
    /// A driver's licence upload (its barcode is read).
    pub licence: bool,
    /// A passport or another ID upload (its MRZ is read).
    pub passport: bool,
    /// A selfie.
    pub selfie: bool,
    /// The profile holds a licence number to compare with what is read.
    pub licence_number: bool,
}

/// What the checks look at: what the client typed or the profile holds, and what storage
/// counted among the merchant's other profiles. Personal values live here only while the
/// checks run; none is reported.
#[derive(Debug, Clone)]
pub struct Facts {
    /// The day it is, where the merchant is judged (UTC).
    pub today: Date,
    /// The merchant's minimum age.
    pub minimum_age: MinimumAge,
    /// The SSN typed in the quiz, else the profile's.
    pub ssn: Option<Ssn>,
    /// The date of birth typed in the quiz, else the profile's.
    pub date_of_birth: Option<DateOfBirth>,
    /// Other profiles of the merchant with this SSN (`None`: no SSN).
    pub ssn_elsewhere: Option<u64>,
    /// Other profiles of the merchant seen on this device (`None`: no fingerprint).
    pub device_elsewhere: Option<u64>,
    /// What the quiz holds.
    pub submitted: Submitted,
}

/// Every check of `facts`, in report order. Those that read images say why they did not
/// run: the quiz holds no such document, or this build reads no images yet.
pub fn checks(facts: &Facts) -> Vec<Check> {
    use CheckName as C;
    let s = facts.submitted;
    let id_images = s.licence || s.passport;
    let image_check = |name, present: bool| {
        let reason = match present {
            true => Reason::ImageAnalysisUnavailable,
            false => Reason::NoDocument,
        };
        Check::not_applicable(name, reason)
    };
    let read_check = |name| {
        let reason = match id_images {
            true => Reason::NothingRead,
            false => Reason::NoDocument,
        };
        Check::not_applicable(name, reason)
    };
    vec![
        identity::ssn_format(facts.ssn.as_ref()),
        identity::minimum_age(facts.date_of_birth.as_ref(), facts.today, facts.minimum_age),
        identity::duplicate_identity(facts.ssn_elsewhere, None),
        identity::duplicate_device(facts.device_elsewhere),
        image_check(C::DocumentQuality, id_images || s.selfie),
        image_check(C::Barcode, s.licence),
        image_check(C::Mrz, s.passport),
        read_check(C::DocumentExpiry),
        read_check(C::DocumentDates),
        read_check(C::NameMatch),
        read_check(C::DateOfBirthMatch),
        match s.licence_number {
            true => read_check(C::DocumentNumberMatch),
            false => Check::not_applicable(C::DocumentNumberMatch, Reason::NoDocumentNumber),
        },
        read_check(C::AddressMatch),
        image_check(C::SelfieFace, s.selfie),
        image_check(C::DocumentPortrait, id_images),
        Check::not_applicable(C::FaceMatch, Reason::FaceMatcherUnavailable),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::{date, datetime};

    fn facts() -> Facts {
        Facts {
            today: date!(2026 - 11 - 24),
            minimum_age: MinimumAge::DEFAULT,
            ssn: Some(Ssn::parse("123456788").expect("valid")),
            date_of_birth: Some(DateOfBirth::parse("1990-04-01").expect("valid")),
            ssn_elsewhere: Some(0),
            device_elsewhere: Some(0),
            submitted: Submitted {
                licence: true,
                ..Submitted::default()
            },
        }
    }

    #[test]
    fn every_check_is_listed_once_in_report_order_whatever_was_submitted() {
        for submitted in [Submitted::default(), facts().submitted] {
            let listed: Vec<CheckName> = checks(&Facts {
                submitted,
                ..facts()
            })
            .iter()
            .map(|c| c.name)
            .collect();
            assert_eq!(listed, CheckName::ALL);
        }
    }

    #[test]
    fn image_checks_say_whether_the_document_is_missing_or_unread() {
        let report = checks(&facts());
        let reasons = |name: CheckName| {
            let check = report.iter().find(|c| c.name == name).expect("listed");
            assert_eq!(check.status, CheckStatus::NotApplicable, "{name:?}");
            check.reasons.clone()
        };
        assert_eq!(
            reasons(CheckName::Barcode),
            [Reason::ImageAnalysisUnavailable]
        );
        assert_eq!(reasons(CheckName::Mrz), [Reason::NoDocument]);
        assert_eq!(reasons(CheckName::SelfieFace), [Reason::NoDocument]);
        assert_eq!(reasons(CheckName::NameMatch), [Reason::NothingRead]);
        assert_eq!(
            reasons(CheckName::DocumentNumberMatch),
            [Reason::NoDocumentNumber]
        );
        assert_eq!(
            reasons(CheckName::FaceMatch),
            [Reason::FaceMatcherUnavailable]
        );
    }

    #[test]
    fn a_completed_verification_takes_the_policys_outcome() {
        let now = datetime!(2026-11-24 10:00 UTC);
        let mut v = Verification::queued(
            "v1".into(),
            &MerchantId("m1".into()),
            &ProfileId("p1".into()),
            &"q1".into(),
            now,
        );
        assert_eq!(
            (v.status, v.completed_at),
            (VerificationStatus::Pending, None)
        );
        let young = Facts {
            date_of_birth: Some(DateOfBirth::parse("2011-01-01").expect("valid")),
            ..facts()
        };
        v.complete(checks(&young), &Policy::default(), now);
        assert_eq!(v.status, VerificationStatus::Declined);
        assert_eq!(v.completed_at, Some(now));
        let twice = Facts {
            ssn_elsewhere: Some(1),
            ..facts()
        };
        v.complete(checks(&twice), &Policy::default(), now);
        assert_eq!(v.status, VerificationStatus::Review);
        v.complete(checks(&facts()), &Policy::default(), now);
        assert_eq!(v.status, VerificationStatus::Passed);
    }
}
