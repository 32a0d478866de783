use domain::services::ListChanges;

use crate::api::dto::requests::TemplateCreateRequest;
use crate::api::dto::template::TemplateView;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// Store a template: members left out of `list` are 0; at least one must be 1 or 2.
#[utoipa::path(post, path = "/api/v1/template/create", tag = "templates",
    request_body = TemplateCreateRequest,
    responses((status = 201, description = "Created", body = Envelope<TemplateView>)))]
pub async fn handle(state: State, req: Signed) -> Answer<TemplateView> {
    let (name, list): (String, ListChanges) = req.parse::<TemplateCreateRequest, _>()?;
    let template = state.templates.create(&req.merchant, name, &list).await?;
    Ok(Reply::created(TemplateView::of(&template)))
}
