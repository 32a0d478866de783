use domain::merchant::MerchantSettings;
use serde::Serialize;
use utoipa::ToSchema;

/// merchant/settings/get and update.
#[derive(Debug, Serialize, ToSchema)]
pub struct SettingsView {
    /// Days a quiz stays valid when its request gives no valid `quiz_expiry_days`.
    pub quiz_expiry_days: u8,
}

impl SettingsView {
    pub fn of(settings: &MerchantSettings) -> Self {
        Self {
            quiz_expiry_days: settings.quiz_expiry_days.days(),
        }
    }
}
