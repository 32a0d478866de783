//! `merchant/settings/*`: what a merchant may tune on their own account.

pub mod settings_get;
pub mod settings_update;

use domain::merchant::MerchantSettings;
use serde_json::{Map, Value};

use crate::object;

fn settings_json(settings: &MerchantSettings) -> Map<String, Value> {
    object! { "quiz_expiry_days": settings.quiz_expiry_days.days() }
}
