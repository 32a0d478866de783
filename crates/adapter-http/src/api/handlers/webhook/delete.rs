use domain::ids::WebhookId;

use crate::api::dto::YES;
use crate::api::dto::requests::WebhookIdRequest;
use crate::api::dto::webhook::WebhookDeleted;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::timefmt::rfc3339;

/// Remove an endpoint and its deliveries: nothing more is sent to it.
#[utoipa::path(post, path = "/api/v1/webhook/delete", tag = "webhooks",
    request_body = WebhookIdRequest,
    responses((status = 200, description = "Removed", body = Envelope<WebhookDeleted>)))]
pub async fn handle(state: State, req: Signed) -> Answer<WebhookDeleted> {
    let id: WebhookId = req.parse::<WebhookIdRequest, _>()?;
    let deleted_at = state.webhooks.delete(&req.merchant, &id).await?;
    Ok(Reply::ok(WebhookDeleted {
        webhook_id: id.to_string(),
        deleted: YES,
        deleted_at: rfc3339(deleted_at),
    }))
}
