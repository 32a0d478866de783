//! What one check found: its name, its status, the reasons when it failed or could not
//! run, the document it is about, and what it compared (never a personal value in clear).

use crate::ids::DocumentId;
use strum::{EnumString, IntoStaticStr, VariantArray};

/// Every check a verification runs, in the order a report lists them (contract §13).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    VariantArray,
    IntoStaticStr,
    EnumString,
)]
#[strum(serialize_all = "snake_case")]
pub enum CheckName {
    /// The SSN is one the Social Security Administration could have issued.
    SsnFormat,
    /// The client is old enough for the merchant.
    MinimumAge,
    /// The SSN or the document is not another profile's of the merchant.
    DuplicateIdentity,
    /// The device is not shared with many other profiles of the merchant.
    DuplicateDevice,
    /// The ID images and the selfie are usable.
    DocumentQuality,
    /// The licence's PDF417 barcode reads.
    Barcode,
    /// The passport's machine-readable zone reads and its check digits hold.
    Mrz,
    /// The document has not expired.
    DocumentExpiry,
    /// Issue, expiry and birth dates on the document agree.
    DocumentDates,
    /// The name read from the document is the profile's.
    NameMatch,
    /// The date of birth read from the document is the client's.
    DateOfBirthMatch,
    /// The licence number read is the profile's.
    DocumentNumberMatch,
    /// The address read is the one typed.
    AddressMatch,
    /// The selfie shows one face.
    SelfieFace,
    /// The ID's front shows a portrait.
    DocumentPortrait,
    /// The selfie's face is the portrait's.
    FaceMatch,
    /// A utility bill or bank statement names the client at their address, recently
    /// (contract §18).
    ProofOfAddress,
    /// The client's name is on none of the merchant's sanctions, PEP or internal lists
    /// (contract §19).
    Watchlist,
    /// The selfie's face is not another profile's of the merchant, nor a blocked one
    /// (contract §20).
    DuplicateFace,
    /// No image is a picture another profile of the merchant sent, and the selfie is not
    /// a photo of the ID's portrait (contract §20).
    PhotoReuse,
}

impl CheckName {
    /// Every check, in report order.
    pub const ALL: &'static [CheckName] = <Self as VariantArray>::VARIANTS;

    /// Its name in the API.
    pub fn as_str(&self) -> &'static str {
        self.into()
    }

    /// The check of this name.
    pub fn parse(name: &str) -> Option<Self> {
        name.parse().ok()
    }
}

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, VariantArray, IntoStaticStr, EnumString)]
#[strum(serialize_all = "snake_case")]
pub enum CheckStatus {
    /// Nothing wrong was found.
    Passed,
    /// Something was wrong: its reasons say what.
    Failed,
    /// It could not run (its input is missing, or this build cannot read it): its reasons
    /// say why.
    NotApplicable,
}

impl CheckStatus {
    /// Its name in the API.
    pub fn as_str(&self) -> &'static str {
        self.into()
    }

    /// The status of this name.
    pub fn parse(name: &str) -> Option<Self> {
        name.parse().ok()
    }
}

/// Why a check failed, or why it could not run. A merchant's policy maps each failure
/// reason to a decision.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    VariantArray,
    IntoStaticStr,
    EnumString,
)]
#[strum(serialize_all = "snake_case")]
pub enum Reason {
    /// The SSN cannot have been issued (area 000, 666 or 900-999, group 00, serial 0000,
    /// or a number known from advertising).
    SsnInvalid,
    /// The client is younger than the merchant's minimum age.
    MinimumAgeNotMet,
    /// Another profile of the merchant has this SSN.
    SsnUsedByAnotherProfile,
    /// Another profile of the merchant has this document.
    DocumentUsedByAnotherProfile,
    /// Three or more other profiles of the merchant came from this device.
    DeviceUsedByOtherProfiles,
    /// An image's short side is under 600 pixels.
    ImageTooSmall,
    /// An image is blurred.
    ImageBlurry,
    /// An image is too dark.
    ImageTooDark,
    /// An image has glare.
    ImageTooBright,
    /// An image cannot be decoded, or is too large to.
    ImageUnreadable,
    /// No PDF417 barcode was found on the licence.
    BarcodeNotFound,
    /// The barcode does not hold an AAMVA record.
    BarcodeInvalid,
    /// No machine-readable zone was found.
    MrzNotFound,
    /// A check digit of the machine-readable zone does not hold.
    MrzCheckDigitInvalid,
    /// The document has expired.
    DocumentExpired,
    /// The document's dates contradict each other.
    DocumentDatesInconsistent,
    /// The name read is not the profile's.
    NameMismatch,
    /// The date of birth read is not the client's.
    DateOfBirthMismatch,
    /// The licence number read is not the profile's.
    DocumentNumberMismatch,
    /// The address read is not the one typed.
    AddressMismatch,
    /// The selfie shows no face.
    NoFace,
    /// The selfie shows several faces.
    MultipleFaces,
    /// No portrait was found on the ID's front.
    PortraitNotFound,
    /// The selfie's face is not the portrait's.
    FaceMismatch,
    /// A proof of address does not name the client.
    PoaNameMismatch,
    /// A proof of address does not carry the client's address.
    PoaAddressMismatch,
    /// A proof of address is older than the merchant allows.
    PoaTooOld,
    /// No issue or statement date was found on a proof of address.
    PoaDateNotFound,
    /// Nothing could be read from a proof of address.
    PoaUnreadable,
    /// A proof of address PDF shows signs of editing.
    PoaPdfModified,
    /// The name matches an entry of a sanctions list.
    SanctionsPotentialMatch,
    /// The name matches an entry of a list of politically exposed persons.
    PepPotentialMatch,
    /// The name matches an entry of an internal list.
    InternalListMatch,
    /// The selfie's face is the face of another profile of the merchant.
    FaceUsedByAnotherProfile,
    /// The selfie's face is one a reviewer blocked.
    FaceOnBlocklist,
    /// An image is a picture another profile of the merchant sent.
    PhotoUsedByAnotherProfile,
    /// The selfie is a photo of the ID's portrait rather than of a person.
    SelfieIsDocumentPhoto,
    /// Not applicable: no SSN was given.
    NoSsn,
    /// Not applicable: no date of birth is known.
    NoDateOfBirth,
    /// Not applicable: no device fingerprint was taken.
    NoFingerprint,
    /// Not applicable: the profile has no licence number to compare.
    NoDocumentNumber,
    /// Not applicable: the quiz holds no document this check reads.
    NoDocument,
    /// Not applicable: nothing was read from the documents to compare.
    NothingRead,
    /// Not applicable: no address was typed or kept to compare.
    NoAddress,
    /// Not applicable: this build has no OCR (`tesseract`) to read an MRZ, or a proof
    /// of address's image, with.
    OcrUnavailable,
    /// Not applicable: the build that ran this verification read no images (kept so
    /// that verifications stored then still read back).
    ImageAnalysisUnavailable,
    /// Not applicable: this build has no face matcher.
    FaceMatcherUnavailable,
    /// Not applicable: the merchant does not screen its clients.
    ScreeningOff,
    /// Not applicable: no list the merchant screens against is imported.
    NoLists,
    /// Not applicable: the merchant keeps no faces to search (`face_search` off).
    FaceSearchOff,
}

impl Reason {
    /// Every reason.
    pub const ALL: &'static [Reason] = <Self as VariantArray>::VARIANTS;

    /// Its code in the API.
    pub fn as_str(&self) -> &'static str {
        self.into()
    }

    /// The reason of this code.
    pub fn parse(code: &str) -> Option<Self> {
        code.parse().ok()
    }

    /// Whether a failed check can give this reason (the others only say why a check did
    /// not run): only these can be decided by a policy.
    pub fn is_failure(&self) -> bool {
        !matches!(
            self,
            Self::NoSsn
                | Self::NoDateOfBirth
                | Self::NoFingerprint
                | Self::NoDocumentNumber
                | Self::NoDocument
                | Self::NothingRead
                | Self::NoAddress
                | Self::OcrUnavailable
                | Self::ImageAnalysisUnavailable
                | Self::FaceMatcherUnavailable
                | Self::ScreeningOff
                | Self::NoLists
                | Self::FaceSearchOff
        )
    }
}

/// One thing a check compared, for the report: a count, a yes or no, a number. Never a
/// stored personal value: an SSN, a date of birth or a document number appears only as
/// whether it matched. Serialised as the API shows it (and as it is stored): a boolean,
/// a whole number, a decimal, an array of list entries.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum Detail {
    /// A yes or no (`"matches": true`).
    Flag(bool),
    /// A whole number (`"minimum_age": 18`, `"other_profiles": 2`).
    Number(i64),
    /// A number in hundredths (`Decimal(42)` is `"distance": 0.42`): kept whole so that
    /// a check stays comparable and stored exactly.
    #[serde(serialize_with = "in_units")]
    Decimal(i64),
    /// The list entries a name matched (`"matches": [{"list": .., "score": 93}]`):
    /// public list data, never the client's.
    Matches(Vec<crate::watchlist::ListHit>),
}

impl Detail {
    /// The value of a [`Detail::Decimal`] as a number (0.42 for 42 hundredths).
    pub fn decimal_value(hundredths: i64) -> f64 {
        // Hundredths of a distance or a score: far inside f64's exact integers.
        hundredths as f64 / 100.0
    }
}

fn in_units<S: serde::Serializer>(hundredths: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(Detail::decimal_value(*hundredths))
}

/// What one check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// Which check.
    pub name: CheckName,
    /// How it came out.
    pub status: CheckStatus,
    /// Empty when passed.
    pub reasons: Vec<Reason>,
    /// The document it is about, if one.
    pub document_id: Option<DocumentId>,
    /// What it compared, by name, in a stable order.
    pub details: Vec<(String, Detail)>,
}

impl Check {
    /// Passed, with what was compared.
    pub fn passed(name: CheckName, details: Vec<(String, Detail)>) -> Self {
        Self {
            name,
            status: CheckStatus::Passed,
            reasons: Vec::new(),
            document_id: None,
            details,
        }
    }

    /// Failed for `reasons`, with what was compared.
    pub fn failed(name: CheckName, reasons: Vec<Reason>, details: Vec<(String, Detail)>) -> Self {
        Self {
            name,
            status: CheckStatus::Failed,
            reasons,
            document_id: None,
            details,
        }
    }

    /// Could not run, for `reason`.
    pub fn not_applicable(name: CheckName, reason: Reason) -> Self {
        Self {
            name,
            status: CheckStatus::NotApplicable,
            reasons: vec![reason],
            document_id: None,
            details: Vec::new(),
        }
    }

    /// About this document.
    pub fn on(mut self, document: DocumentId) -> Self {
        self.document_id = Some(document);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_status_and_reason_parses_back_and_is_distinct() {
        for &name in CheckName::ALL {
            assert_eq!(CheckName::parse(name.as_str()), Some(name));
        }
        for &reason in Reason::ALL {
            assert_eq!(Reason::parse(reason.as_str()), Some(reason));
        }
        for status in [
            CheckStatus::Passed,
            CheckStatus::Failed,
            CheckStatus::NotApplicable,
        ] {
            assert_eq!(CheckStatus::parse(status.as_str()), Some(status));
        }
        let mut codes: Vec<&str> = Reason::ALL.iter().map(Reason::as_str).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), Reason::ALL.len());
        assert!(
            CheckName::ALL.windows(2).all(|w| w[0] < w[1]),
            "report order"
        );
        assert_eq!(CheckName::parse("nothing"), None);
    }

    #[test]
    fn only_failure_reasons_are_failures() {
        assert!(Reason::SsnInvalid.is_failure());
        assert!(Reason::FaceMismatch.is_failure());
        assert!(!Reason::NoSsn.is_failure());
        assert!(!Reason::FaceMatcherUnavailable.is_failure());
        assert_eq!(Reason::ALL.iter().filter(|r| r.is_failure()).count(), 37);
    }
}
