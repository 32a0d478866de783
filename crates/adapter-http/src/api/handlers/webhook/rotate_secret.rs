use domain::ids::WebhookId;

use crate::api::dto::requests::WebhookIdRequest;
use crate::api::dto::webhook::SecretRotated;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// A new secret for an endpoint; deliveries carry both signatures for the next 24 h.
#[utoipa::path(post, path = "/api/v1/webhook/rotate-secret", tag = "webhooks",
    request_body = WebhookIdRequest,
    responses((status = 200, description = "The new secret", body = Envelope<SecretRotated>)))]
pub async fn handle(state: State, req: Signed) -> Answer<SecretRotated> {
    let id: WebhookId = req.parse::<WebhookIdRequest, _>()?;
    let webhook = state.webhooks.rotate_secret(&req.merchant, &id).await?;
    Ok(Reply::ok(SecretRotated {
        webhook_id: webhook.id.to_string(),
        secret: webhook.secret.expose().to_owned(),
    }))
}
