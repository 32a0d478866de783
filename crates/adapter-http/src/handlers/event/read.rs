use serde_json::Value;

use crate::dto::event::event_json;
use crate::dto::merged;
use crate::dto::paging::{paging_fields, read_page};
use crate::dto::profile::read_key;
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;

/// `POST /api/v1/event/read`: a profile's activity log, newest first.
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    let page = read_page(&mut f, false);
    let (key, page) = f.finish(|| Some((key?, page?)))?;
    let paged = state.profiles.events(&req.merchant, &key, page).await?;
    let events: Vec<Value> = paged.items.iter().map(event_json).collect();
    let head = object! {
        "email_address": key.email.as_str(),
        "mobile_number": key.mobile.as_str(),
    };
    Ok(Reply::ok(merged(
        merged(paging_fields(page, &paged), head),
        object! { "events": events },
    )))
}
