use std::collections::BTreeMap;

use domain::merchant::MerchantSettings;
use serde::Serialize;
use utoipa::ToSchema;

/// merchant/settings/get and update.
#[derive(Debug, Serialize, ToSchema)]
pub struct SettingsView {
    /// Days a quiz stays valid when its request gives no valid `quiz_expiry_days`.
    pub quiz_expiry_days: u8,
    /// The youngest a client may be, in years (the `minimum_age` check).
    pub minimum_age: u8,
    /// What every failure reason leads to: `decline` or `review` (the merchant's choices
    /// over the default, which declines `document_expired`, `minimum_age_not_met` and
    /// `ssn_invalid` and sends every other failure to review).
    #[schema(value_type = BTreeMap<String, String>)]
    pub policy: BTreeMap<&'static str, &'static str>,
    /// 1: a verification's outcome sets the profile's status (`passed`: Approved,
    /// `declined`: Declined); 0: a person decides.
    pub auto_decision: u8,
    /// What the client's pages speak when neither the link (`?lang`) nor the browser
    /// names one of theirs: `en`, `fr` or `es`.
    #[schema(example = "en")]
    pub default_language: &'static str,
    /// Days a profile keeps its personal data once its status has been `Approved` or
    /// `Declined` (then its documents' files, sealed values and what was read are erased,
    /// with the event `personal_data_erased`); null: kept until the profile is deleted.
    #[schema(minimum = 1, maximum = 3650)]
    pub retention_days: Option<u16>,
    /// How old a utility bill or bank statement may be, in days before the quiz's
    /// submission (the `proof_of_address` check): 1 to 365, 90 by default.
    #[schema(minimum = 1, maximum = 365)]
    pub proof_of_address_max_age_days: u16,
    /// 1 when clients are screened against sanctions, PEP and internal lists (the
    /// `watchlist` check, `screening/get`); 0 by default.
    #[schema(minimum = 0, maximum = 1)]
    pub screening: u8,
    /// The lists screened against, by name; empty: every list.
    pub screening_lists: Vec<String>,
    /// The lowest score (0-100) of a match: 80 to 100, 90 by default.
    #[schema(minimum = 80, maximum = 100)]
    pub screening_threshold: u8,
    /// 1 when the selfie's face is kept (sealed) and searched among the merchant's other
    /// clients' (the `duplicate_face` check): biometric data, only with the clients'
    /// consent; 0 by default.
    #[schema(minimum = 0, maximum = 1)]
    pub face_search: u8,
}

impl SettingsView {
    pub fn of(settings: &MerchantSettings) -> Self {
        Self {
            quiz_expiry_days: settings.quiz_expiry_days.days(),
            minimum_age: settings.minimum_age.years(),
            policy: settings
                .policy
                .effective()
                .into_iter()
                .map(|(reason, decision)| (reason.as_str(), decision.as_str()))
                .collect(),
            auto_decision: u8::from(settings.auto_decision),
            default_language: settings.default_language.as_str(),
            retention_days: settings.retention_days.map(|d| d.days()),
            proof_of_address_max_age_days: settings.proof_of_address_max_age.days(),
            screening: u8::from(settings.screening.on),
            screening_lists: settings
                .screening
                .lists
                .iter()
                .map(|n| n.as_str().to_owned())
                .collect(),
            screening_threshold: settings.screening.threshold.score(),
            face_search: u8::from(settings.face_search),
        }
    }
}
