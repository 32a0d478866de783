use domain::template::parse_template_name;

use crate::dto::template::{read_list, template_json};
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::signed::Signed;

/// `POST /api/v1/template/create`: members left out of `list` are 0.
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let name = f.required("template_name", parse_template_name);
    let list = read_list(&mut f, true);
    let (name, list) = f.finish(|| Some((name?, list?)))?;
    let template = state.templates.create(&req.merchant, name, &list).await?;
    Ok(Reply::created(template_json(&template)))
}
