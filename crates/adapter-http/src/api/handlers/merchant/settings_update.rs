use domain::merchant::SettingsChanges;

use crate::api::dto::merchant::SettingsView;
use crate::api::dto::requests::SettingsRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// Change any of the merchant's settings: the default quiz expiry, the minimum age, the
/// verification policy, automatic decisions, the client's pages' default language,
/// retention (`retention_days`: `null` keeps personal data). Those not sent are kept.
#[utoipa::path(post, path = "/api/v1/merchant/settings/update", tag = "merchant",
    request_body = SettingsRequest,
    responses((status = 200, description = "The settings, all of them", body = Envelope<SettingsView>)))]
pub async fn handle(state: State, req: Signed) -> Answer<SettingsView> {
    let changes: SettingsChanges = req.parse::<SettingsRequest, _>()?;
    let saved = state
        .merchants
        .change_settings(&req.merchant, changes, &req.initiator())
        .await?;
    Ok(Reply::ok(SettingsView::of(&saved)))
}
