//! Merchants, their API credentials and their settings.

use std::net::IpAddr;
use strum::{EnumString, IntoStaticStr, VariantArray};

pub use ipnet::IpNet;
pub use secrecy::{ExposeSecret, SecretString};
use time::OffsetDateTime;

use crate::ids::UserId;
pub use crate::ids::{ApiKeyId, MerchantId};
use crate::profile::{LongText, Patch};
use crate::validation::Invalid;
use crate::verification::proof_of_address::MaxAge;
use crate::verification::{MinimumAge, Policy};
use crate::watchlist::{ListName, ScreeningSettings, Threshold};

/// A business that verifies its clients through this service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merchant {
    /// Its id.
    pub id: MerchantId,
    /// Its name, 1 to 100 characters.
    pub name: String,
    /// What it has tuned.
    pub settings: MerchantSettings,
    /// When it was created.
    pub created_at: OffsetDateTime,
}

impl Merchant {
    /// A merchant's name, as a template's: 1 to 100 characters typed by a person,
    /// trimmed and normalised, without control or invisible characters (an escape
    /// sequence would play in the terminal `idv merchant list` prints it to, a NUL cannot
    /// be stored by PostgreSQL).
    pub fn parse_name(raw: &str) -> Result<String, Invalid> {
        LongText::parse_typed(raw).map(|name| name.as_str().to_owned())
    }
}

/// Enabled keys one merchant may hold at once (contract §16): a leaked session or a
/// careless script cannot mint keys without end.
pub const MAX_ENABLED_KEYS: usize = 20;

/// Length of the random part of a key or a secret, in base62 characters.
pub const CREDENTIAL_RANDOM_LEN: usize = 32;
/// What every API key starts with.
pub const API_KEY_PREFIX: &str = "key-";
/// What every API secret starts with.
pub const API_SECRET_PREFIX: &str = "sec-";

/// What an API key may do (contract §15).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeyAccess {
    /// Every operation.
    #[default]
    Full,
    /// Only the operations that read (`get`, `read`, `download`): for reporting, exports,
    /// a support desk; nothing signed with it changes anything.
    ReadOnly,
}

/// Whether an API operation only reads the merchant's data or may change it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OperationKind {
    /// Answers what is stored, changing nothing.
    Read,
    /// Creates, changes, deletes or sends something.
    Write,
}

impl KeyAccess {
    /// Whether a key with this access may call an operation of `kind`.
    ///
    /// ```
    /// use domain::merchant::{KeyAccess, OperationKind};
    /// assert!(KeyAccess::Full.permits(OperationKind::Write));
    /// assert!(KeyAccess::ReadOnly.permits(OperationKind::Read));
    /// assert!(!KeyAccess::ReadOnly.permits(OperationKind::Write));
    /// ```
    pub fn permits(self, kind: OperationKind) -> bool {
        match self {
            KeyAccess::Full => true,
            KeyAccess::ReadOnly => kind == OperationKind::Read,
        }
    }

    /// `full` or `read_only`, as the CLI's JSON output names it.
    pub fn as_str(self) -> &'static str {
        match self {
            KeyAccess::Full => "full",
            KeyAccess::ReadOnly => "read_only",
        }
    }
}

/// What a new key may do and from where; the default: everything, from anywhere, `v1`
/// signatures only.
#[derive(Debug, Clone, Default)]
pub struct KeyOptions {
    /// Every operation, or only those that read.
    pub access: KeyAccess,
    /// Whether the replayable compatibility signature scheme is accepted for it.
    pub compat_signature: bool,
    /// The client addresses it may be used from; empty: any.
    pub allowed_networks: Vec<IpNet>,
}

/// One API credential of a merchant. A merchant may hold several, so a key can be rotated
/// without downtime, and each can be disabled on its own. Its `Debug` never shows the
/// secret.
#[derive(Debug, Clone)]
pub struct ApiKey {
    /// Public: sent in the `Api-Key` header.
    pub key: ApiKeyId,
    /// The merchant it belongs to.
    pub merchant_id: MerchantId,
    /// Shared secret for the request signature. Shown once at creation.
    pub secret: SecretString,
    /// Whether requests signed with it are accepted.
    pub enabled: bool,
    /// Whether the replayable compatibility signature scheme is accepted for this key.
    pub compat_signature: bool,
    /// The client addresses this key may be used from; empty: any.
    pub allowed_networks: Vec<IpNet>,
    /// Every operation, or only those that read.
    pub access: KeyAccess,
    /// When it was issued.
    pub created_at: OffsetDateTime,
    /// Who made it: `None` for the operator's CLI, else the dashboard user, whose keys
    /// are disabled with them.
    pub created_by: Option<UserId>,
}

impl ApiKey {
    /// Whether a request from `ip` may use this key.
    pub fn admits(&self, ip: IpAddr) -> bool {
        self.allowed_networks.is_empty() || self.allowed_networks.iter().any(|n| n.contains(&ip))
    }
}

/// Days a quiz link stays valid: 1 to 30.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuizExpiryDays(u8);

impl QuizExpiryDays {
    /// 5 days.
    pub const DEFAULT: QuizExpiryDays = QuizExpiryDays(5);

    /// `days` if it is a whole number from 1 to 30.
    pub fn new(days: i64) -> Result<Self, Invalid> {
        match u8::try_from(days) {
            Ok(d @ 1..=30) => Ok(Self(d)),
            _ => Err(Invalid::new("must be a whole number of days from 1 to 30")),
        }
    }

    /// The number of days.
    pub fn days(&self) -> u8 {
        self.0
    }
}

impl Default for QuizExpiryDays {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// A language the client's pages speak (contract §14).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Hash, VariantArray, IntoStaticStr, EnumString,
)]
#[strum(serialize_all = "snake_case", ascii_case_insensitive)]
pub enum Language {
    /// English, the default.
    #[default]
    En,
    /// French.
    Fr,
    /// Spanish.
    Es,
}

impl Language {
    /// Every language, English first.
    pub const ALL: &'static [Language] = <Self as VariantArray>::VARIANTS;

    /// The ISO 639-1 code, as the API, `?lang` and `<html lang>` spell it.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The language of an ISO 639-1 code, in any case.
    pub fn parse(code: &str) -> Result<Self, Invalid> {
        code.parse()
            .map_err(|_| Invalid::new("must be en, fr or es"))
    }
}

/// How long a decided profile keeps its personal data (contract §15): days from 1 to
/// 3650 (ten years, longer than any KYC record-keeping duty we know of asks; a merchant
/// who must keep data longer keeps it, with no setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetentionDays(u16);

impl RetentionDays {
    /// The longest retention a merchant may set: ten years.
    pub const MAX: u16 = 3650;

    /// `days` if it is a whole number from 1 to [`RetentionDays::MAX`].
    pub fn new(days: i64) -> Result<Self, Invalid> {
        match u16::try_from(days) {
            Ok(d @ 1..=Self::MAX) => Ok(Self(d)),
            _ => Err(Invalid::new(
                "must be a whole number of days from 1 to 3650",
            )),
        }
    }

    /// The number of days.
    pub fn days(&self) -> u16 {
        self.0
    }

    /// The same span as a duration.
    pub fn duration(&self) -> time::Duration {
        time::Duration::days(i64::from(self.0))
    }
}

/// What a merchant may tune for their own account.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MerchantSettings {
    /// Used for a quiz whose request gives no valid `quiz_expiry_days`.
    pub quiz_expiry_days: QuizExpiryDays,
    /// The youngest a client may be (the `minimum_age` check).
    pub minimum_age: MinimumAge,
    /// What each failed check's reason leads to.
    pub policy: Policy,
    /// Whether a verification's outcome sets the profile's status (`passed`: Approved,
    /// `declined`: Declined; `review` leaves it to a person).
    pub auto_decision: bool,
    /// What the client's pages speak when neither the link (`?lang`) nor the browser
    /// (`Accept-Language`) names a language they speak.
    pub default_language: Language,
    /// How long a profile decided `Approved` or `Declined` keeps its personal data;
    /// `None`: kept until the profile is deleted.
    pub retention_days: Option<RetentionDays>,
    /// How old a proof of address may be (`proof_of_address_max_age_days`).
    pub proof_of_address_max_age: MaxAge,
    /// Whether and how clients are screened against lists (contract §19).
    pub screening: ScreeningSettings,
    /// Whether the selfie's face is kept (sealed) and searched among the merchant's
    /// other clients' (`face_search`, contract §20): biometric data, off by default,
    /// kept only where the merchant has its clients' consent.
    pub face_search: bool,
}

/// A change of settings: what is `Some` is set, the rest kept.
#[derive(Debug, Clone, Default)]
pub struct SettingsChanges {
    /// A new default expiry.
    pub quiz_expiry_days: Option<QuizExpiryDays>,
    /// A new minimum age.
    pub minimum_age: Option<MinimumAge>,
    /// A new policy (replacing the merchant's earlier choices).
    pub policy: Option<Policy>,
    /// Turns automatic decisions on or off.
    pub auto_decision: Option<bool>,
    /// A new default language.
    pub default_language: Option<Language>,
    /// A new retention, or none (keep personal data).
    pub retention_days: Patch<RetentionDays>,
    /// A new oldest proof of address.
    pub proof_of_address_max_age: Option<MaxAge>,
    /// Turns screening on or off.
    pub screening: Option<bool>,
    /// The lists screened against (empty: every list).
    pub screening_lists: Option<Vec<ListName>>,
    /// A new lowest score of a match.
    pub screening_threshold: Option<Threshold>,
    /// Turns face search on or off.
    pub face_search: Option<bool>,
}

impl SettingsChanges {
    /// The names (as the API calls them) of the settings these change, in a fixed order.
    pub fn names(&self) -> Vec<&'static str> {
        [
            ("quiz_expiry_days", self.quiz_expiry_days.is_some()),
            ("minimum_age", self.minimum_age.is_some()),
            ("policy", self.policy.is_some()),
            ("auto_decision", self.auto_decision.is_some()),
            ("default_language", self.default_language.is_some()),
            (
                "retention_days",
                !matches!(self.retention_days, Patch::Keep),
            ),
            (
                "proof_of_address_max_age_days",
                self.proof_of_address_max_age.is_some(),
            ),
            ("screening", self.screening.is_some()),
            ("screening_lists", self.screening_lists.is_some()),
            ("screening_threshold", self.screening_threshold.is_some()),
            ("face_search", self.face_search.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, sent)| sent.then_some(name))
        .collect()
    }
}

impl MerchantSettings {
    /// These settings with `changes` applied.
    pub fn changed(self, changes: SettingsChanges) -> Self {
        Self {
            quiz_expiry_days: changes.quiz_expiry_days.unwrap_or(self.quiz_expiry_days),
            minimum_age: changes.minimum_age.unwrap_or(self.minimum_age),
            policy: changes.policy.unwrap_or(self.policy),
            auto_decision: changes.auto_decision.unwrap_or(self.auto_decision),
            default_language: changes.default_language.unwrap_or(self.default_language),
            retention_days: changes.retention_days.applied_to(self.retention_days),
            proof_of_address_max_age: changes
                .proof_of_address_max_age
                .unwrap_or(self.proof_of_address_max_age),
            screening: ScreeningSettings {
                on: changes.screening.unwrap_or(self.screening.on),
                lists: changes.screening_lists.unwrap_or(self.screening.lists),
                threshold: changes
                    .screening_threshold
                    .unwrap_or(self.screening.threshold),
            },
            face_search: changes.face_search.unwrap_or(self.face_search),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiz_expiry_days_run_from_one_to_thirty() {
        assert_eq!(QuizExpiryDays::new(1).map(|d| d.days()), Ok(1));
        assert_eq!(QuizExpiryDays::new(30).map(|d| d.days()), Ok(30));
        assert!(QuizExpiryDays::new(0).is_err());
        assert!(QuizExpiryDays::new(31).is_err());
        assert!(QuizExpiryDays::new(-5).is_err());
        assert_eq!(MerchantSettings::default().quiz_expiry_days.days(), 5);
    }

    #[test]
    fn languages_are_their_iso_codes_in_any_case() {
        for &language in Language::ALL {
            assert_eq!(Language::parse(language.as_str()), Ok(language));
        }
        assert_eq!(Language::parse("FR"), Ok(Language::Fr));
        assert!(Language::parse("de").is_err());
        assert!(Language::parse("").is_err());
        assert!(Language::parse("fr-CA").is_err());
        assert_eq!(MerchantSettings::default().default_language, Language::En);
    }

    #[test]
    fn retention_runs_from_one_day_to_ten_years() {
        assert_eq!(RetentionDays::new(1).map(|d| d.days()), Ok(1));
        assert_eq!(RetentionDays::new(3650).map(|d| d.days()), Ok(3650));
        assert!(RetentionDays::new(0).is_err());
        assert!(RetentionDays::new(3651).is_err());
        assert!(RetentionDays::new(-1).is_err());
        assert_eq!(
            MerchantSettings::default().retention_days,
            None,
            "kept by default"
        );
    }

    #[test]
    fn a_retention_change_keeps_clears_or_sets() {
        let thirty = RetentionDays::new(30).expect("valid");
        let set = |retention_days| SettingsChanges {
            retention_days,
            ..SettingsChanges::default()
        };
        let settings = MerchantSettings::default().changed(set(Patch::Set(thirty)));
        assert_eq!(settings.retention_days, Some(thirty));
        let settings = settings.changed(set(Patch::Keep));
        assert_eq!(settings.retention_days, Some(thirty));
        assert_eq!(settings.changed(set(Patch::Clear)).retention_days, None);
    }

    #[test]
    fn a_key_with_networks_admits_only_their_addresses() {
        let mut key = ApiKey {
            key: "key-1".into(),
            merchant_id: MerchantId::new("m"),
            secret: SecretString::from("sec-1"),
            enabled: true,
            compat_signature: false,
            allowed_networks: Vec::new(),
            access: KeyAccess::Full,
            created_at: OffsetDateTime::UNIX_EPOCH,
            created_by: None,
        };
        let ip = |s: &str| s.parse::<IpAddr>().expect("ip");
        assert!(key.admits(ip("203.0.113.9")), "no list: any address");
        key.allowed_networks = vec![
            "203.0.113.0/24".parse().expect("cidr"),
            "2001:db8::/32".parse().expect("cidr"),
        ];
        assert!(key.admits(ip("203.0.113.9")));
        assert!(key.admits(ip("2001:db8::1")));
        assert!(!key.admits(ip("198.51.100.1")));
    }

    #[test]
    fn a_key_never_shows_its_secret_in_debug_output() {
        let key = ApiKey {
            key: "key-1".into(),
            merchant_id: MerchantId::new("m"),
            secret: SecretString::from("sec-very-secret"),
            enabled: true,
            compat_signature: false,
            allowed_networks: Vec::new(),
            access: KeyAccess::Full,
            created_at: OffsetDateTime::UNIX_EPOCH,
            created_by: None,
        };
        let shown = format!("{key:?}");
        assert!(
            shown.contains("key-1") && !shown.contains("sec-very-secret"),
            "{shown}"
        );
    }

    #[test]
    fn merchant_names_are_one_to_a_hundred_characters() {
        assert_eq!(Merchant::parse_name("  Acme "), Ok("Acme".into()));
        assert!(Merchant::parse_name(" ").is_err());
        assert!(Merchant::parse_name(&"x".repeat(101)).is_err());
    }
}
