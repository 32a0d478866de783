use serde_json::Value;

use crate::dto::document::{document_json, document_profile_json};
use crate::dto::merged;
use crate::dto::paging::{paging_fields, read_page};
use crate::dto::profile::read_key;
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;

/// `POST /api/v1/document/read`: a profile's documents, newest first.
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    let page = read_page(&mut f, false);
    let (key, page) = f.finish(|| Some((key?, page?)))?;
    let (profile, paged) = state.documents.list(&req.merchant, &key, page).await?;
    let documents: Vec<Value> = paged.items.iter().map(document_json).collect();
    let rest = object! {
        "email_address": profile.key.email.as_str(),
        "mobile_number": profile.key.mobile.as_str(),
        "profile": document_profile_json(&profile),
        "documents": documents,
    };
    Ok(Reply::ok(merged(paging_fields(page, &paged), rest)))
}
