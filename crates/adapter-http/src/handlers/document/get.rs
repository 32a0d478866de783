use crate::dto::document::{document_json, document_profile_json, read_document_id};
use crate::dto::profile::read_key;
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;

/// `POST /api/v1/document/get`
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    let id = read_document_id(&mut f);
    let (key, id) = f.finish(|| Some((key?, id?)))?;
    let (profile, document) = state.documents.get(&req.merchant, &key, &id).await?;
    Ok(Reply::ok(object! {
        "email_address": profile.key.email.as_str(),
        "mobile_number": profile.key.mobile.as_str(),
        "profile": document_profile_json(&profile),
        "document": document_json(&document),
    }))
}
