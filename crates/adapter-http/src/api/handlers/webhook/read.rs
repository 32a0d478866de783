use domain::paging::Page;

use crate::api::dto::paging::Paging;
use crate::api::dto::requests::OptionalPageRequest;
use crate::api::dto::webhook::{WebhookList, WebhookView};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// The merchant's endpoints, newest first, without their secrets.
#[utoipa::path(post, path = "/api/v1/webhook/read", tag = "webhooks",
    request_body = OptionalPageRequest,
    responses((status = 200, description = "A page of endpoints", body = Envelope<WebhookList>)))]
pub async fn handle(state: State, req: Signed) -> Answer<WebhookList> {
    let page: Page = req.parse::<OptionalPageRequest, _>()?;
    let paged = state.webhooks.list(&req.merchant, page).await?;
    Ok(Reply::ok(WebhookList {
        paging: Paging::of(page, &paged),
        webhooks: paged.items.iter().map(WebhookView::of).collect(),
    }))
}
