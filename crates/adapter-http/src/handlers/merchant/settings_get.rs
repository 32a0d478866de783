use super::settings_json;
use crate::envelope::Reply;
use crate::handlers::{Answer, State};
use crate::signed::Signed;

/// `POST /api/v1/merchant/settings/get`
pub async fn handle(state: State, req: Signed) -> Answer {
    let merchant = state.merchants.get(&req.merchant).await?;
    Ok(Reply::ok(settings_json(&merchant.settings)))
}
