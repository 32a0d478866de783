use domain::template::parse_template_name;

use crate::api::dto::requests::TemplateUpdateRequest;
use crate::api::dto::template::{TemplateView, read_list, read_template_id};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::fields::Fields;

/// Change a template: members left out of `list` keep their value. Quizzes already
/// sent keep the list they were sent with.
#[utoipa::path(post, path = "/api/v1/template/update", tag = "templates",
    request_body = TemplateUpdateRequest,
    responses((status = 200, description = "Updated", body = Envelope<TemplateView>)))]
pub async fn handle(state: State, req: Signed) -> Answer<TemplateView> {
    let mut f = Fields::new(&req.body);
    let id = read_template_id(&mut f);
    let name = f.optional("template_name", parse_template_name);
    let list = read_list(&mut f, true);
    let (id, list) = f.finish(|| Some((id?, list?)))?;
    let template = state
        .templates
        .update(&req.merchant, &id, name, &list)
        .await?;
    Ok(Reply::ok(TemplateView::of(&template)))
}
