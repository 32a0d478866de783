use domain::ids::DeliveryId;

use crate::api::dto::requests::DeliveryIdRequest;
use crate::api::dto::webhook::DeliveryView;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// Attempt a delivery again now, whatever it came to (a failed one gets one more try).
#[utoipa::path(post, path = "/api/v1/webhook/delivery/retry", tag = "webhooks",
    request_body = DeliveryIdRequest,
    responses((status = 200, description = "The delivery, pending", body = Envelope<DeliveryView>)))]
pub async fn handle(state: State, req: Signed) -> Answer<DeliveryView> {
    let id: DeliveryId = req.parse::<DeliveryIdRequest, _>()?;
    let delivery = state.webhooks.retry(&req.merchant, &id).await?;
    Ok(Reply::ok(DeliveryView::of(&delivery)))
}
