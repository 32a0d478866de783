use domain::services::WebhookInput;

use crate::api::dto::requests::WebhookCreateRequest;
use crate::api::dto::webhook::{WebhookCreated, WebhookView};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// Register an endpoint. Its secret is shown here only.
#[utoipa::path(post, path = "/api/v1/webhook/create", tag = "webhooks",
    request_body = WebhookCreateRequest,
    responses((status = 201, description = "Registered, enabled", body = Envelope<WebhookCreated>)))]
pub async fn handle(state: State, req: Signed) -> Answer<WebhookCreated> {
    let input: WebhookInput = req.parse::<WebhookCreateRequest, _>()?;
    let webhook = state.webhooks.create(&req.merchant, input).await?;
    Ok(Reply::created(WebhookCreated {
        webhook: WebhookView::of(&webhook),
        secret: webhook.secret.expose().to_owned(),
    }))
}
