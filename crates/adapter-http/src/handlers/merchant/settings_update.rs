use domain::merchant::{MerchantSettings, QuizExpiryDays};

use super::settings_json;
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::signed::Signed;

/// `POST /api/v1/merchant/settings/update`
pub async fn handle(state: State, req: Signed) -> Answer {
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
    Ok(Reply::ok(settings_json(&saved)))
}
