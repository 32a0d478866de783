use crate::api::dto::requests::WebhookCreateRequest;
use crate::api::dto::webhook::{WebhookCreated, WebhookView};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::fields::Fields;

/// Register an endpoint. Its secret is shown here only.
#[utoipa::path(post, path = "/api/v1/webhook/create", tag = "webhooks",
    request_body = WebhookCreateRequest,
    responses((status = 201, description = "Registered, enabled", body = Envelope<WebhookCreated>)))]
pub async fn handle(state: State, req: Signed) -> Answer<WebhookCreated> {
    let mut f = Fields::new(&req.body);
    let input = super::read_input(&mut f, false);
    f.finish(|| Some(()))?;
    let webhook = state.webhooks.create(&req.merchant, input).await?;
    Ok(Reply::created(WebhookCreated {
        webhook: WebhookView::of(&webhook),
        secret: webhook.secret.expose().to_owned(),
    }))
}
