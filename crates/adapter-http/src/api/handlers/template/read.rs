use domain::paging::Page;

use crate::api::dto::paging::Paging;
use crate::api::dto::requests::PageRequest;
use crate::api::dto::template::{TemplateList, TemplateView};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// The merchant's templates, newest first.
#[utoipa::path(post, path = "/api/v1/template/read", tag = "templates",
    request_body = PageRequest,
    responses((status = 200, description = "A page of templates", body = Envelope<TemplateList>)))]
pub async fn handle(state: State, req: Signed) -> Answer<TemplateList> {
    let page: Page = req.parse::<PageRequest, _>()?;
    let paged = state.templates.list(&req.merchant, page).await?;
    Ok(Reply::ok(TemplateList {
        paging: Paging::of(page, &paged),
        templates: paged.items.iter().map(TemplateView::of).collect(),
    }))
}
