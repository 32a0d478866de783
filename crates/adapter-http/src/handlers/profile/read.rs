use serde_json::Value;

use crate::dto::merged;
use crate::dto::paging::{paging_fields, read_page};
use crate::dto::profile::reviewed_profile_json;
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;

/// `POST /api/v1/profile/read`: the merchant's profiles, newest first.
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let page = read_page(&mut f, true);
    let page = f.finish(|| page)?;
    let paged = state.profiles.list(&req.merchant, page).await?;
    let profiles: Vec<Value> = paged.items.iter().map(reviewed_profile_json).collect();
    Ok(Reply::ok(merged(
        paging_fields(page, &paged),
        object! { "profiles": profiles },
    )))
}
