use domain::template::parse_template_name;

use crate::dto::template::{read_list, read_template_id, template_json};
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::signed::Signed;

/// `POST /api/v1/template/update`: members left out of `list` keep their value; quizzes
/// already sent keep the list they were sent with.
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let id = read_template_id(&mut f);
    let name = f.optional("template_name", parse_template_name);
    let list = read_list(&mut f, true);
    let (id, list) = f.finish(|| Some((id?, list?)))?;
    let template = state
        .templates
        .update(&req.merchant, &id, name, &list)
        .await?;
    Ok(Reply::ok(template_json(&template)))
}
