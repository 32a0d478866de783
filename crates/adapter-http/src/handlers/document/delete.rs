use crate::dto::document::read_document_id;
use crate::dto::profile::read_key;
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;
use crate::timefmt::rfc3339;

/// `POST /api/v1/document/delete`: the document and its files' bytes, at once.
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    let id = read_document_id(&mut f);
    let (key, id) = f.finish(|| Some((key?, id?)))?;
    let deleted_at = state.documents.delete(&req.merchant, &key, &id).await?;
    Ok(Reply::ok(object! {
        "email_address": key.email.as_str(),
        "mobile_number": key.mobile.as_str(),
        "document_id": id,
        "deleted": 1,
        "deleted_at": rfc3339(deleted_at),
    }))
}
