use domain::ids::WebhookId;
use domain::paging::Page;

use crate::api::dto::paging::Paging;
use crate::api::dto::requests::DeliveryPageRequest;
use crate::api::dto::webhook::{DeliveryList, DeliveryView};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// An endpoint's deliveries, newest first: what was sent, how often, and how it went.
#[utoipa::path(post, path = "/api/v1/webhook/delivery/read", tag = "webhooks",
    request_body = DeliveryPageRequest,
    responses((status = 200, description = "A page of deliveries", body = Envelope<DeliveryList>)))]
pub async fn handle(state: State, req: Signed) -> Answer<DeliveryList> {
    let (id, page): (WebhookId, Page) = req.parse::<DeliveryPageRequest, _>()?;
    let paged = state.webhooks.deliveries(&req.merchant, &id, page).await?;
    Ok(Reply::ok(DeliveryList {
        paging: Paging::of(page, &paged),
        webhook_id: id.to_string(),
        deliveries: paged.items.iter().map(DeliveryView::of).collect(),
    }))
}
