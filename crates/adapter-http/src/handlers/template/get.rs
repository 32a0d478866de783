use crate::dto::template::{read_template_id, template_json};
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::signed::Signed;

/// `POST /api/v1/template/get`
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let id = read_template_id(&mut f);
    let id = f.finish(|| id)?;
    let template = state.templates.get(&req.merchant, &id).await?;
    Ok(Reply::ok(template_json(&template)))
}
