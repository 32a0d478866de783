use domain::ids::WebhookId;

use crate::api::dto::requests::WebhookUpdateRequest;
use crate::api::dto::webhook::WebhookView;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::fields::Fields;

/// Change an endpoint's address, activities, description, or turn it on or off.
#[utoipa::path(post, path = "/api/v1/webhook/update", tag = "webhooks",
    request_body = WebhookUpdateRequest,
    responses((status = 200, description = "The endpoint as changed", body = Envelope<WebhookView>)))]
pub async fn handle(state: State, req: Signed) -> Answer<WebhookView> {
    let mut f = Fields::new(&req.body);
    let id = f.required_id("webhook_id", WebhookId::parse);
    let input = super::read_input(&mut f, true);
    let id = f.finish(|| id)?;
    let webhook = state.webhooks.update(&req.merchant, &id, input).await?;
    Ok(Reply::ok(WebhookView::of(&webhook)))
}
