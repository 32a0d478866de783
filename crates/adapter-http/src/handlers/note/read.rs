use serde_json::Value;

use crate::dto::merged;
use crate::dto::paging::{paging_fields, read_page};
use crate::dto::profile::read_key;
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;
use crate::timefmt::rfc3339;

/// `POST /api/v1/note/read`: a profile's notes, newest first.
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    let page = read_page(&mut f, false);
    let (key, page) = f.finish(|| Some((key?, page?)))?;
    let paged = state.notes.list(&req.merchant, &key, page).await?;
    let notes: Vec<Value> = paged
        .items
        .iter()
        .map(|n| {
            Value::Object(object! { "note": n.text.as_str(), "created_at": rfc3339(n.created_at) })
        })
        .collect();
    let rest = object! {
        "email_address": key.email.as_str(),
        "mobile_number": key.mobile.as_str(),
        "notes": notes,
    };
    Ok(Reply::ok(merged(paging_fields(page, &paged), rest)))
}
