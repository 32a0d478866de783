use domain::ids::TemplateId;

use crate::api::dto::requests::TemplateIdRequest;
use crate::api::dto::template::TemplateView;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// One stored template.
#[utoipa::path(post, path = "/api/v1/template/get", tag = "templates",
    request_body = TemplateIdRequest,
    responses((status = 200, description = "The template", body = Envelope<TemplateView>)))]
pub async fn handle(state: State, req: Signed) -> Answer<TemplateView> {
    let id: TemplateId = req.parse::<TemplateIdRequest, _>()?;
    let template = state.templates.get(&req.merchant, &id).await?;
    Ok(Reply::ok(TemplateView::of(&template)))
}
