use domain::template::parse_template_name;

use crate::api::dto::requests::TemplateCreateRequest;
use crate::api::dto::template::{TemplateView, read_list};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::fields::Fields;

/// Store a template: members left out of `list` are 0; at least one must be 1 or 2.
#[utoipa::path(post, path = "/api/v1/template/create", tag = "templates",
    request_body = TemplateCreateRequest,
    responses((status = 201, description = "Created", body = Envelope<TemplateView>)))]
pub async fn handle(state: State, req: Signed) -> Answer<TemplateView> {
    let mut f = Fields::new(&req.body);
    let name = f.required("template_name", parse_template_name);
    let list = read_list(&mut f, true);
    let (name, list) = f.finish(|| Some((name?, list?)))?;
    let template = state.templates.create(&req.merchant, name, &list).await?;
    Ok(Reply::created(TemplateView::of(&template)))
}
