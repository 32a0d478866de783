//! Verification (contract §13): every submitted quiz is checked on the merchant's own
//! machine, and the outcome decided by the merchant's policy. A verification lists every
//! check, each `passed`, `failed` or `not_applicable` with its reasons, so nothing is ever
//! silently left out; what a check compared is reported without any personal value.
//!
//! This module is the rules alone: which checks there are ([`CheckName`]), what each
//! found ([`Check`]), the checks that need no image ([`identity`]), and what the outcome
//! is ([`Policy`]). Reading the documents' images comes through a port.

mod check;
pub mod documents;
pub mod face_match;
pub mod identity;
pub mod matching;
mod policy;
pub mod proof_of_address;
mod reading;

pub use check::{Check, CheckName, CheckStatus, Detail, Reason};
pub use documents::{Claimed, Examined};
pub use identity::MinimumAge;
pub use policy::{Decision, Policy, VerificationStatus};
pub use reading::{
    BarcodeReading, DocumentRead, DocumentText, FaceDescriptor, ImageReport, MARKED_AGES,
    MrzReading, PdfEdit, PhotoHashes, QualityIssue, QualityMeasures, ReadSource, TextReading,
    Wanted, quality_limits,
};

use strum::IntoStaticStr;
use time::{Date, OffsetDateTime};

use crate::ids::{QuizId, VerificationId};
use crate::merchant::MerchantId;
use crate::profile::{DateOfBirth, ProfileId, Ssn};

/// A kind of identifying value the blind index keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum IdentityKind {
    /// An SSN.
    Ssn,
    /// A device fingerprint.
    Device,
    /// An identity document: its issuer and number ([`document_key`]).
    Document,
}

impl IdentityKind {
    /// Its name as stored.
    pub fn as_str(&self) -> &'static str {
        self.into()
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

/// What the checks look at: what the client typed or the profile holds, what storage
/// counted among the merchant's other profiles, and what the image analysis found in the
/// quiz's documents. Personal values live here only while the checks run; none is
/// reported.
#[derive(Debug, Clone)]
pub struct Facts {
    /// The day it is, where the merchant is judged (UTC).
    pub today: Date,
    /// The day the quiz was submitted (UTC): a proof of address's age is counted to it.
    pub submitted_on: Date,
    /// The merchant's minimum age.
    pub minimum_age: MinimumAge,
    /// How old the merchant lets a proof of address be.
    pub proof_of_address_max_age: proof_of_address::MaxAge,
    /// The SSN typed in the quiz, else the profile's.
    pub ssn: Option<Ssn>,
    /// The date of birth typed in the quiz, else the profile's.
    pub date_of_birth: Option<DateOfBirth>,
    /// Other profiles of the merchant with this SSN (`None`: no SSN).
    pub ssn_elsewhere: Option<u64>,
    /// Other profiles of the merchant seen on this device (`None`: no fingerprint).
    pub device_elsewhere: Option<u64>,
    /// Other profiles of the merchant whose document (issuer and number) was read on this
    /// one's (`None`: no document number read).
    pub document_elsewhere: Option<u64>,
    /// Names, licence number and address to compare with the documents.
    pub claimed: Claimed,
    /// Every image of the quiz's ID and selfie documents, examined.
    pub images: Vec<Examined>,
    /// The profile screened against the merchant's lists.
    pub screened: crate::watchlist::Screened,
    /// The profile verified.
    pub profile_id: crate::profile::ProfileId,
    /// Whether the merchant keeps and searches its clients' faces (`face_search`).
    pub face_search: bool,
    /// What the merchant keeps of its other profiles' images, and its blocked faces.
    pub kept: Vec<crate::signals::Kept>,
}

/// Every check of `facts`, in report order.
pub fn checks(facts: &Facts) -> Vec<Check> {
    let reads = documents::reads(&facts.images);
    let typed_birth = facts.date_of_birth.map(|d| d.date());
    // The age can be judged on the document's birth date when the client typed none.
    let born = typed_birth.or_else(|| reads.iter().find_map(|(_, r)| r.date_of_birth));
    vec![
        identity::ssn_format(facts.ssn.as_ref()),
        identity::minimum_age(born, facts.today, facts.minimum_age),
        identity::duplicate_identity(facts.ssn_elsewhere, facts.document_elsewhere),
        identity::duplicate_device(facts.device_elsewhere),
        documents::document_quality(&facts.images),
        documents::barcode(&facts.images),
        documents::mrz(&facts.images),
        documents::document_expiry(&reads, facts.today),
        documents::document_dates(&reads),
        documents::name_match(&reads, &facts.claimed),
        documents::date_of_birth_match(&reads, typed_birth),
        documents::document_number_match(&reads, &facts.claimed),
        documents::address_match(&reads, &facts.claimed),
        documents::selfie_face(&facts.images),
        documents::document_portrait(&facts.images),
        face_match::face_match(&facts.images),
        proof_of_address::proof_of_address(
            &facts.images,
            &facts.claimed,
            facts.submitted_on,
            facts.proof_of_address_max_age,
        ),
        crate::watchlist::watchlist(&facts.screened),
        crate::signals::duplicate_face(
            facts.face_search,
            &facts.profile_id,
            &facts.images,
            &facts.kept,
        ),
        crate::signals::photo_reuse(&facts.images, &facts.kept),
    ]
}

/// The key a document is known by in the blind index: who issued it and its number,
/// folded so that spacing and case do not make two documents of one.
pub fn document_key(read: &DocumentRead) -> Option<String> {
    let number: String = read
        .document_number
        .as_deref()?
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_uppercase();
    let issuer = read
        .issuer
        .as_deref()
        .unwrap_or_default()
        .to_ascii_uppercase();
    (!number.is_empty()).then(|| format!("{issuer}:{number}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Side;
    use crate::template::Feature;
    use time::macros::{date, datetime};

    fn licence_read() -> DocumentRead {
        DocumentRead {
            source: Some(ReadSource::Barcode),
            document_type: Some("licence".into()),
            issuer: Some("CA".into()),
            first_name: Some("JANE".into()),
            middle_name: Some("Q".into()),
            last_name: Some("DOE".into()),
            date_of_birth: Some(date!(1990 - 04 - 01)),
            document_number: Some("D1234567".into()),
            issued_on: Some(date!(2022 - 01 - 10)),
            expires_on: Some(date!(2030 - 04 - 01)),
            address_line_1: Some("1 MAIN ST".into()),
            state: Some("CA".into()),
            postal: Some("941050000".into()),
            marked_ages: vec![(21, date!(2011 - 04 - 01))],
            ..DocumentRead::default()
        }
    }

    fn image(document: &str, step: Feature, side: Option<Side>, report: ImageReport) -> Examined {
        Examined {
            document_id: document.into(),
            step,
            side,
            report,
        }
    }

    /// A licence (front with a portrait, back with its barcode) and a selfie, all clean.
    fn images(read: DocumentRead) -> Vec<Examined> {
        let front = ImageReport {
            faces: Some(1),
            ..ImageReport::default()
        };
        let back = ImageReport {
            barcode: Some(BarcodeReading::Read(read)),
            ..ImageReport::default()
        };
        vec![
            image(
                "d1",
                Feature::DriverLicenceUpload,
                Some(Side::Front),
                front.clone(),
            ),
            image("d1", Feature::DriverLicenceUpload, Some(Side::Back), back),
            image("d2", Feature::SelfieUpload, None, front),
        ]
    }

    fn facts() -> Facts {
        Facts {
            today: date!(2026 - 11 - 24),
            submitted_on: date!(2026 - 11 - 24),
            minimum_age: MinimumAge::DEFAULT,
            proof_of_address_max_age: proof_of_address::MaxAge::DEFAULT,
            ssn: Some(Ssn::parse("123456788").expect("valid")),
            date_of_birth: Some(DateOfBirth::parse("1990-04-01").expect("valid")),
            ssn_elsewhere: Some(0),
            device_elsewhere: Some(0),
            document_elsewhere: Some(0),
            claimed: Claimed {
                first_name: "Jane Quinn".into(),
                last_name: "Doe".into(),
                licence_number: Some("d123-4567".into()),
                address: matching::AddressParts::of_one_line(
                    "1 Main Street, San Francisco, CA 94105, US",
                ),
                country: Some("US".into()),
            },
            images: images(licence_read()),
            screened: crate::watchlist::Screened::Off,
            profile_id: "p1".into(),
            face_search: false,
            kept: Vec::new(),
        }
    }

    fn find(report: &[Check], name: CheckName) -> &Check {
        report.iter().find(|c| c.name == name).expect("listed")
    }

    #[test]
    fn every_check_is_listed_once_in_report_order_whatever_was_submitted() {
        for images in [Vec::new(), facts().images] {
            let listed: Vec<CheckName> = checks(&Facts { images, ..facts() })
                .iter()
                .map(|c| c.name)
                .collect();
            assert_eq!(listed, CheckName::ALL);
        }
    }

    #[test]
    fn a_clean_licence_and_selfie_pass_every_document_check() {
        let report = checks(&facts());
        for check in &report {
            let expected = match check.name {
                CheckName::Mrz => CheckStatus::NotApplicable,
                CheckName::FaceMatch => CheckStatus::NotApplicable,
                CheckName::ProofOfAddress => CheckStatus::NotApplicable,
                CheckName::Watchlist => CheckStatus::NotApplicable,
                // No face search; the test's images carry no hashes.
                CheckName::DuplicateFace | CheckName::PhotoReuse => CheckStatus::NotApplicable,
                _ => CheckStatus::Passed,
            };
            assert_eq!(check.status, expected, "{check:?}");
        }
        assert_eq!(
            find(&report, CheckName::Barcode).document_id,
            Some("d1".into())
        );
        assert_eq!(
            find(&report, CheckName::DateOfBirthMatch).details,
            [("matches".to_owned(), Detail::Flag(true))]
        );
    }

    /// A change to a clean reading, the check it must fail and the reason.
    type Mismatch = (fn(&mut DocumentRead), CheckName, Reason);

    #[test]
    fn each_mismatch_fails_its_own_check_with_its_reason() {
        let cases: [Mismatch; 7] = [
            (
                |r| r.expires_on = Some(date!(2025 - 01 - 01)),
                CheckName::DocumentExpiry,
                Reason::DocumentExpired,
            ),
            (
                |r| r.issued_on = Some(date!(2031 - 01 - 01)),
                CheckName::DocumentDates,
                Reason::DocumentDatesInconsistent,
            ),
            (
                |r| r.marked_ages = vec![(21, date!(2011 - 05 - 01))],
                CheckName::DocumentDates,
                Reason::DocumentDatesInconsistent,
            ),
            (
                |r| r.last_name = Some("ROE".into()),
                CheckName::NameMatch,
                Reason::NameMismatch,
            ),
            (
                |r| r.date_of_birth = Some(date!(1990 - 04 - 02)),
                CheckName::DateOfBirthMatch,
                Reason::DateOfBirthMismatch,
            ),
            (
                |r| r.document_number = Some("D7654321".into()),
                CheckName::DocumentNumberMatch,
                Reason::DocumentNumberMismatch,
            ),
            (
                |r| r.postal = Some("10001".into()),
                CheckName::AddressMatch,
                Reason::AddressMismatch,
            ),
        ];
        for (change, name, reason) in cases {
            let mut read = licence_read();
            change(&mut read);
            let report = checks(&Facts {
                images: images(read),
                ..facts()
            });
            let check = find(&report, name);
            assert_eq!(
                (check.status, check.reasons.as_slice()),
                (CheckStatus::Failed, [reason].as_slice()),
                "{name:?}"
            );
            assert_eq!(check.document_id, Some("d1".into()));
        }
    }

    #[test]
    fn image_findings_fail_quality_barcode_mrz_and_faces() {
        let unusable = ImageReport {
            quality: vec![QualityIssue::Blurry, QualityIssue::TooSmall],
            barcode: Some(BarcodeReading::NotFound),
            faces: Some(0),
            ..ImageReport::default()
        };
        let broken_mrz = ImageReport {
            mrz: Some(MrzReading::CheckDigitInvalid),
            faces: Some(1),
            ..ImageReport::default()
        };
        let two_faces = ImageReport {
            faces: Some(2),
            ..ImageReport::default()
        };
        let images = vec![
            image("d1", Feature::DriverLicenceUpload, None, unusable),
            image("d2", Feature::PassportUpload, None, broken_mrz),
            image("d3", Feature::SelfieUpload, None, two_faces),
        ];
        let report = checks(&Facts { images, ..facts() });
        let failed = |name| {
            let c = find(&report, name);
            assert_eq!(c.status, CheckStatus::Failed, "{name:?}");
            c.reasons.clone()
        };
        assert_eq!(
            failed(CheckName::DocumentQuality),
            [Reason::ImageTooSmall, Reason::ImageBlurry]
        );
        assert_eq!(failed(CheckName::Barcode), [Reason::BarcodeNotFound]);
        assert_eq!(failed(CheckName::Mrz), [Reason::MrzCheckDigitInvalid]);
        assert_eq!(failed(CheckName::SelfieFace), [Reason::MultipleFaces]);
        assert_eq!(
            failed(CheckName::DocumentPortrait),
            [Reason::PortraitNotFound]
        );
        let nothing = find(&report, CheckName::NameMatch);
        assert_eq!(
            (nothing.status, nothing.reasons.as_slice()),
            (CheckStatus::NotApplicable, [Reason::NothingRead].as_slice())
        );
    }

    #[test]
    fn an_id_card_is_judged_by_its_barcode_or_by_its_zone_whichever_it_carries() {
        let status = |images: Vec<Examined>, name| {
            let report = checks(&Facts { images, ..facts() });
            let check = find(&report, name);
            (check.status, check.reasons.clone())
        };
        // The card's back as the analysis found it; its front shows only a portrait.
        let card = |barcode: BarcodeReading, mrz: MrzReading| {
            let front = ImageReport {
                faces: Some(1),
                barcode: Some(BarcodeReading::NotFound),
                mrz: Some(MrzReading::NotFound),
                ..ImageReport::default()
            };
            let back = ImageReport {
                barcode: Some(barcode),
                mrz: Some(mrz),
                ..ImageReport::default()
            };
            vec![
                image("d1", Feature::OtherIdUpload, Some(Side::Front), front),
                image("d1", Feature::OtherIdUpload, Some(Side::Back), back),
            ]
        };
        let id_card = DocumentRead {
            document_type: Some("id_card".into()),
            ..licence_read()
        };
        let zone = DocumentRead {
            source: Some(ReadSource::Mrz),
            ..licence_read()
        };
        let passed = (CheckStatus::Passed, vec![]);
        let not_applicable = (CheckStatus::NotApplicable, vec![Reason::NoDocument]);
        let cases = [
            // A US ID card: its barcode read, no zone.
            (
                "barcode read",
                card(BarcodeReading::Read(id_card), MrzReading::NotFound),
                [
                    (CheckName::Barcode, passed.clone()),
                    (CheckName::Mrz, not_applicable.clone()),
                ]
                .to_vec(),
            ),
            // A card with a zone and no barcode.
            (
                "zone read",
                card(BarcodeReading::NotFound, MrzReading::Read(zone)),
                [
                    (CheckName::Mrz, passed.clone()),
                    (CheckName::Barcode, not_applicable.clone()),
                ]
                .to_vec(),
            ),
            // Neither read: the zone was not found, and no barcode is said missing.
            (
                "nothing read",
                card(BarcodeReading::NotFound, MrzReading::NotFound),
                [
                    (
                        CheckName::Mrz,
                        (CheckStatus::Failed, vec![Reason::MrzNotFound]),
                    ),
                    (CheckName::Barcode, not_applicable.clone()),
                ]
                .to_vec(),
            ),
            // A PDF417 that is not an AAMVA record is said so.
            (
                "foreign barcode",
                card(BarcodeReading::Invalid, MrzReading::NotFound),
                [(
                    CheckName::Barcode,
                    (CheckStatus::Failed, vec![Reason::BarcodeInvalid]),
                )]
                .to_vec(),
            ),
        ];
        for (case, images, expected) in cases {
            for (name, outcome) in expected {
                assert_eq!(status(images.clone(), name), outcome, "{case}: {name:?}");
            }
        }
    }

    #[test]
    fn without_documents_the_image_checks_say_why_they_did_not_run() {
        let report = checks(&Facts {
            images: Vec::new(),
            ..facts()
        });
        let reasons = |name: CheckName| {
            let check = find(&report, name);
            assert_eq!(check.status, CheckStatus::NotApplicable, "{name:?}");
            check.reasons.clone()
        };
        assert_eq!(reasons(CheckName::Barcode), [Reason::NoDocument]);
        assert_eq!(reasons(CheckName::Mrz), [Reason::NoDocument]);
        assert_eq!(reasons(CheckName::SelfieFace), [Reason::NoDocument]);
        assert_eq!(reasons(CheckName::NameMatch), [Reason::NothingRead]);
        assert_eq!(reasons(CheckName::FaceMatch), [Reason::NoDocument]);
        let no_ocr = vec![image(
            "d2",
            Feature::PassportUpload,
            None,
            ImageReport {
                mrz: Some(MrzReading::OcrUnavailable),
                ..ImageReport::default()
            },
        )];
        let report = checks(&Facts {
            images: no_ocr,
            ..facts()
        });
        assert_eq!(
            find(&report, CheckName::Mrz).reasons,
            [Reason::OcrUnavailable]
        );
    }

    #[test]
    fn the_age_is_judged_on_the_documents_birth_date_when_none_was_typed() {
        let mut young = licence_read();
        young.date_of_birth = Some(date!(2011 - 06 - 01));
        young.marked_ages.clear();
        let report = checks(&Facts {
            date_of_birth: None,
            images: images(young),
            ..facts()
        });
        assert_eq!(
            find(&report, CheckName::MinimumAge).reasons,
            [Reason::MinimumAgeNotMet]
        );
        assert_eq!(
            find(&report, CheckName::DateOfBirthMatch).reasons,
            [Reason::NoDateOfBirth]
        );
    }

    #[test]
    fn a_document_is_keyed_by_issuer_and_number_folded() {
        let mut read = licence_read();
        read.document_number = Some("d 123-4567".into());
        assert_eq!(document_key(&read).as_deref(), Some("CA:D1234567"));
        read.document_number = Some("--".into());
        assert_eq!(document_key(&read), None);
    }

    #[test]
    fn a_completed_verification_takes_the_policys_outcome() {
        let now = datetime!(2026-11-24 10:00 UTC);
        let mut v = Verification::queued(
            "v1".into(),
            &MerchantId::new("m1"),
            &ProfileId::new("p1"),
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
