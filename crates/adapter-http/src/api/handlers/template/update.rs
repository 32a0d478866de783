use domain::ids::TemplateId;
use domain::services::ListChanges;

use crate::api::dto::requests::TemplateUpdateRequest;
use crate::api::dto::template::TemplateView;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// Change a template: members left out of `list` keep their value. Quizzes already
/// sent keep the list they were sent with.
#[utoipa::path(post, path = "/api/v1/template/update", tag = "templates",
    request_body = TemplateUpdateRequest,
    responses((status = 200, description = "Updated", body = Envelope<TemplateView>)))]
pub async fn handle(state: State, req: Signed) -> Answer<TemplateView> {
    let (id, name, list): (TemplateId, Option<String>, ListChanges) =
        req.parse::<TemplateUpdateRequest, _>()?;
    let template = state
        .templates
        .update(&req.merchant, &id, name, &list)
        .await?;
    Ok(Reply::ok(TemplateView::of(&template)))
}
