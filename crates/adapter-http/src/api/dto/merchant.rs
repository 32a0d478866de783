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
        }
    }
}
