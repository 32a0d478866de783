use crate::api::dto::merchant::SettingsView;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// The merchant's settings.
#[utoipa::path(post, path = "/api/v1/merchant/settings/get", tag = "merchant",
    request_body(content = Object, description = "An empty object"),
    responses((status = 200, description = "The settings", body = Envelope<SettingsView>)))]
pub async fn handle(state: State, req: Signed) -> Answer<SettingsView> {
    let merchant = state.merchants.get(&req.merchant).await?;
    Ok(Reply::ok(SettingsView::of(&merchant.settings)))
}
