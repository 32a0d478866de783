//! Verification templates: which of the 22 steps a quiz asks for.

use strum::{EnumCount, EnumString, IntoStaticStr, VariantArray};
use time::OffsetDateTime;

use crate::ids::TemplateId;
use crate::merchant::MerchantId;
use crate::profile::LongText;
use crate::validation::Invalid;

/// One verification step a template can ask for, in the interface's order. Its name in
/// a template's `list` is the variant's, in snake case (`driver_licence_upload`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, VariantArray, EnumCount, IntoStaticStr, EnumString,
)]
#[strum(serialize_all = "snake_case")]
pub enum Feature {
    /// A driver's licence, front and back.
    DriverLicenceUpload,
    /// A passport's photo page.
    PassportUpload,
    /// Another government id.
    OtherIdUpload,
    /// A photo of the client's face, taken with the phone's camera.
    SelfieUpload,
    /// A bank statement.
    BankStatementUpload,
    /// A receipt.
    ReceiptUpload,
    /// A utility bill (proof of address).
    UtilityBillUpload,
    /// A void cheque.
    VoidCheckUpload,
    /// The client's postal address, typed.
    AddressSubmit,
    /// The client's mobile number, typed.
    MobilePhoneSubmit,
    /// The client's e-mail address, typed.
    EmailAddressSubmit,
    /// The client's date of birth, typed.
    DateOfBirthSubmit,
    /// The client's SSN / SIN, typed.
    SsnSubmit,
    /// A Canadian bank account check (outside provider).
    CanadianBankValidation,
    /// A US or Canadian bank account check (outside provider).
    UsaCanadianBankValidation,
    /// An agreement signed with the typed full name.
    AgreementSign,
    /// Sign in with Google (outside provider).
    GoogleLogin,
    /// Sign in with Facebook (outside provider).
    FacebookLogin,
    /// A fingerprint of the client's device, computed by the page.
    DeviceFingerPrint,
    /// A custom application form (outside provider).
    CustomApplication,
    /// A Canadian bank statement.
    CanadianBankStatement,
    /// A utility statement.
    UtilityStatement,
}

impl Feature {
    /// Every step, in the interface's order.
    pub const ALL: &'static [Feature] = <Self as VariantArray>::VARIANTS;

    /// The member name in a template's `list`.
    pub fn name(&self) -> &'static str {
        self.into()
    }

    /// The step with this list member name, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        name.parse().ok()
    }

    /// Its place in the interface's order.
    fn index(self) -> usize {
        self as usize
    }
}

/// How the client completes a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// One to four files (JPEG, PNG or PDF).
    Upload,
    /// Form fields, kept as the profile's `customer_submitted_form_fields`.
    Submit,
    /// A typed full name and consent.
    Agreement,
    /// A hash of browser attributes, computed by the page.
    Fingerprint,
    /// Needs an outside provider (bank, Google, Facebook...).
    Provider,
}

impl Feature {
    /// Whether the step asks for each side of the document as its own upload (contract
    /// §14): a licence and another ID have a front and a back; a passport page is one.
    pub fn has_sides(&self) -> bool {
        matches!(self, Self::DriverLicenceUpload | Self::OtherIdUpload)
    }

    /// How the client completes this step.
    pub fn kind(&self) -> StepKind {
        match self {
            Self::DriverLicenceUpload
            | Self::PassportUpload
            | Self::OtherIdUpload
            | Self::SelfieUpload
            | Self::BankStatementUpload
            | Self::ReceiptUpload
            | Self::UtilityBillUpload
            | Self::VoidCheckUpload
            | Self::CanadianBankStatement
            | Self::UtilityStatement => StepKind::Upload,
            Self::AddressSubmit
            | Self::MobilePhoneSubmit
            | Self::EmailAddressSubmit
            | Self::DateOfBirthSubmit
            | Self::SsnSubmit => StepKind::Submit,
            Self::AgreementSign => StepKind::Agreement,
            Self::DeviceFingerPrint => StepKind::Fingerprint,
            Self::GoogleLogin
            | Self::FacebookLogin
            | Self::CanadianBankValidation
            | Self::UsaCanadianBankValidation
            | Self::CustomApplication => StepKind::Provider,
        }
    }

    /// A short label for people.
    pub fn label(&self) -> &'static str {
        match self {
            Self::DriverLicenceUpload => "Driver's licence",
            Self::PassportUpload => "Passport",
            Self::OtherIdUpload => "Other ID document",
            Self::SelfieUpload => "Selfie",
            Self::BankStatementUpload => "Bank statement",
            Self::ReceiptUpload => "Receipt",
            Self::UtilityBillUpload => "Utility bill",
            Self::VoidCheckUpload => "Void cheque",
            Self::AddressSubmit => "Address",
            Self::MobilePhoneSubmit => "Mobile phone",
            Self::EmailAddressSubmit => "E-mail address",
            Self::DateOfBirthSubmit => "Date of birth",
            Self::SsnSubmit => "Social security / insurance number",
            Self::CanadianBankValidation => "Canadian bank account check",
            Self::UsaCanadianBankValidation => "US/Canadian bank account check",
            Self::AgreementSign => "Agreement",
            Self::GoogleLogin => "Sign in with Google",
            Self::FacebookLogin => "Sign in with Facebook",
            Self::DeviceFingerPrint => "Device check",
            Self::CustomApplication => "Application form",
            Self::CanadianBankStatement => "Canadian bank statement",
            Self::UtilityStatement => "Utility statement",
        }
    }
}

/// A set of features, e.g. the steps a client has completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FeatureSet([bool; Feature::COUNT]);

impl FeatureSet {
    /// Whether `feature` is in the set.
    pub fn contains(&self, feature: Feature) -> bool {
        self.0[feature.index()]
    }

    /// Adds `feature` to the set.
    pub fn insert(&mut self, feature: Feature) {
        self.0[feature.index()] = true;
    }
}

/// How a template asks for a step: the interface's 0, 1 and 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Requirement {
    /// `0`: the template does not ask for the step.
    #[default]
    NotRequired = 0,
    /// `1`: the quiz cannot be submitted without it.
    Required = 1,
    /// `2`: offered, not needed.
    Optional = 2,
}

impl Requirement {
    /// The interface's number (0, 1 or 2).
    pub fn parse(value: i64) -> Result<Self, Invalid> {
        match value {
            0 => Ok(Self::NotRequired),
            1 => Ok(Self::Required),
            2 => Ok(Self::Optional),
            _ => Err(Invalid::new(
                "must be 0 (not required), 1 (required) or 2 (optional)",
            )),
        }
    }

    /// The interface's number (0, 1 or 2).
    pub fn value(&self) -> u8 {
        *self as u8
    }
}

/// The requirement of every feature. Kept whole in a quiz as a snapshot, so a later
/// template change never alters a link already sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FeatureList([Requirement; 22]);

impl FeatureList {
    /// How the list asks for `feature`.
    pub fn get(&self, feature: Feature) -> Requirement {
        self.0[feature.index()]
    }

    /// Sets how the list asks for `feature`.
    pub fn set(&mut self, feature: Feature, requirement: Requirement) {
        self.0[feature.index()] = requirement;
    }

    /// Every feature with its requirement, in the interface's order.
    pub fn iter(&self) -> impl Iterator<Item = (Feature, Requirement)> + '_ {
        Feature::ALL.iter().copied().map(|f| (f, self.get(f)))
    }

    /// A template must ask for something: at least one step required or optional.
    pub fn asks_for_anything(&self) -> bool {
        self.0.iter().any(|r| *r != Requirement::NotRequired)
    }
}

/// A template's name: 1 to 100 characters typed by a person, trimmed and normalised,
/// without control or invisible characters (a NUL, which PostgreSQL cannot store, or a
/// bidirectional control that shows the name in a reviewer's list as another).
pub fn parse_template_name(raw: &str) -> Result<String, Invalid> {
    LongText::parse_typed(raw).map(|name| name.as_str().to_owned())
}

/// A merchant's stored template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// Its id (a ULID).
    pub id: TemplateId,
    /// The merchant that owns it.
    pub merchant_id: MerchantId,
    /// Its name, 1 to 100 characters.
    pub name: String,
    /// How it asks for each of the 22 steps.
    pub list: FeatureList,
    /// When it was created.
    pub created_at: OffsetDateTime,
    /// When it was last changed.
    pub updated_at: OffsetDateTime,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_22_features_with_unique_names() {
        let mut names: Vec<_> = Feature::ALL.iter().map(Feature::name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 22);
        assert_eq!(Feature::from_name("ssn_submit"), Some(Feature::SsnSubmit));
        assert_eq!(Feature::from_name("ssn"), None);
        assert_eq!(Feature::from_name("SSN_SUBMIT"), None, "names are exact");
    }

    #[test]
    fn the_names_are_the_interfaces_in_its_order() {
        // The whole list is pinned over HTTP (e2e `templates`); here, its ends and the
        // names snake case could get wrong.
        let names: Vec<_> = Feature::ALL.iter().map(Feature::name).collect();
        assert_eq!(names.first(), Some(&"driver_licence_upload"));
        assert_eq!(names.last(), Some(&"utility_statement"));
        for (feature, name) in [
            (Feature::VoidCheckUpload, "void_check_upload"),
            (
                Feature::UsaCanadianBankValidation,
                "usa_canadian_bank_validation",
            ),
            (Feature::DeviceFingerPrint, "device_finger_print"),
            (Feature::DateOfBirthSubmit, "date_of_birth_submit"),
        ] {
            assert_eq!(feature.name(), name);
            assert_eq!(Feature::from_name(name), Some(feature));
        }
    }

    #[test]
    fn every_feature_has_a_kind_and_uploads_are_the_documented_ones() {
        let uploads: Vec<_> = Feature::ALL
            .iter()
            .filter(|f| f.kind() == StepKind::Upload)
            .map(Feature::name)
            .collect();
        assert_eq!(uploads.len(), 10);
        assert!(
            uploads
                .iter()
                .all(|n| n.ends_with("_upload") || n.ends_with("_statement"))
        );
        assert_eq!(Feature::GoogleLogin.kind(), StepKind::Provider);
        assert_eq!(Feature::SsnSubmit.kind(), StepKind::Submit);
    }

    #[test]
    fn requirements_are_zero_one_or_two() {
        assert_eq!(Requirement::parse(1), Ok(Requirement::Required));
        assert_eq!(Requirement::parse(2).map(|r| r.value()), Ok(2));
        assert!(Requirement::parse(3).is_err());
        assert!(Requirement::parse(-1).is_err());
    }

    #[test]
    fn a_list_of_zeros_asks_for_nothing() {
        let mut list = FeatureList::default();
        assert!(!list.asks_for_anything());
        list.set(Feature::SelfieUpload, Requirement::Optional);
        assert!(list.asks_for_anything());
    }

    #[test]
    fn template_names_have_limits() {
        assert!(parse_template_name(&"n".repeat(100)).is_ok());
        assert!(parse_template_name(&"n".repeat(101)).is_err());
        assert!(parse_template_name(" ").is_err());
        assert!(parse_template_name("a\u{0}b").is_err());
        assert!(parse_template_name("a\u{202e}b").is_err());
        assert_eq!(
            parse_template_name(" Cafe\u{301} ").as_deref(),
            Ok("Caf\u{e9}")
        );
    }
}
