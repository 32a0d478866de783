use serde_json::Value;

use crate::dto::merged;
use crate::dto::paging::{paging_fields, read_page};
use crate::dto::template::template_json;
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;

/// `POST /api/v1/template/read`: the merchant's templates, newest first.
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let page = read_page(&mut f, true);
    let page = f.finish(|| page)?;
    let paged = state.templates.list(&req.merchant, page).await?;
    let templates: Vec<Value> = paged
        .items
        .iter()
        .map(|t| Value::Object(template_json(t)))
        .collect();
    Ok(Reply::ok(merged(
        paging_fields(page, &paged),
        object! { "templates": templates },
    )))
}
