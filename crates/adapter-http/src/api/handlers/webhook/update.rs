use domain::ids::WebhookId;
use domain::services::WebhookInput;

use crate::api::dto::requests::WebhookUpdateRequest;
use crate::api::dto::webhook::WebhookView;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// Change an endpoint's address, activities, description, or turn it on or off.
#[utoipa::path(post, path = "/api/v1/webhook/update", tag = "webhooks",
    request_body = WebhookUpdateRequest,
    responses((status = 200, description = "The endpoint as changed", body = Envelope<WebhookView>)))]
pub async fn handle(state: State, req: Signed) -> Answer<WebhookView> {
    let (id, input): (WebhookId, WebhookInput) = req.parse::<WebhookUpdateRequest, _>()?;
    let webhook = state.webhooks.update(&req.merchant, &id, input).await?;
    Ok(Reply::ok(WebhookView::of(&webhook)))
}
