use domain::merchant::{MerchantSettings, QuizExpiryDays};

use crate::dto::merchant::SettingsView;
use crate::dto::requests::SettingsRequest;
use crate::envelope::{Envelope, Reply};
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::signed::Signed;

/// Change the merchant's default quiz expiry.
#[utoipa::path(post, path = "/api/v1/merchant/settings/update", tag = "merchant",
    request_body = SettingsRequest,
    responses((status = 200, description = "The settings", body = Envelope<SettingsView>)))]
pub async fn handle(state: State, req: Signed) -> Answer<SettingsView> {
    let mut f = Fields::new(&req.body);
    let days = f.integer("quiz_expiry_days", true);
    let days = f.check("quiz_expiry_days", days, QuizExpiryDays::new);
    let days = f.finish(|| days)?;
    let settings = MerchantSettings {
        quiz_expiry_days: days,
    };
    let saved = state
        .merchants
        .update_settings(&req.merchant, settings)
        .await?;
    Ok(Reply::ok(SettingsView::of(&saved)))
}
