use domain::ids::WebhookId;

use crate::api::dto::paging::{Paging, read_page};
use crate::api::dto::requests::DeliveryPageRequest;
use crate::api::dto::webhook::{DeliveryList, DeliveryView};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::fields::Fields;

/// An endpoint's deliveries, newest first: what was sent, how often, and how it went.
#[utoipa::path(post, path = "/api/v1/webhook/delivery/read", tag = "webhooks",
    request_body = DeliveryPageRequest,
    responses((status = 200, description = "A page of deliveries", body = Envelope<DeliveryList>)))]
pub async fn handle(state: State, req: Signed) -> Answer<DeliveryList> {
    let mut f = Fields::new(&req.body);
    let id = f.required_id("webhook_id", WebhookId::parse);
    let page = read_page(&mut f, false);
    let (id, page) = f.finish(|| Some((id?, page?)))?;
    let paged = state.webhooks.deliveries(&req.merchant, &id, page).await?;
    Ok(Reply::ok(DeliveryList {
        paging: Paging::of(page, &paged),
        webhook_id: id.to_string(),
        deliveries: paged.items.iter().map(DeliveryView::of).collect(),
    }))
}
