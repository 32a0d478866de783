use crate::dto::requests::WebhookCreateRequest;
use crate::dto::webhook::{WebhookCreated, WebhookView};
use crate::envelope::{Envelope, Reply};
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::signed::Signed;

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
