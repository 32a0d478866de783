use domain::document::DocumentStatus;

use crate::dto::document::read_document_id;
use crate::dto::profile::read_key;
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;
use crate::timefmt::rfc3339;

/// `POST /api/v1/document/update-status`
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    let id = read_document_id(&mut f);
    let status = f.required("status", str::parse::<DocumentStatus>);
    let (key, id, status) = f.finish(|| Some((key?, id?, status?)))?;
    let document = state
        .documents
        .set_status(&req.merchant, &key, &id, status)
        .await?;
    Ok(Reply::ok(object! {
        "email_address": key.email.as_str(),
        "mobile_number": key.mobile.as_str(),
        "document_id": document.id,
        "status": document.status.as_str(),
        "updated_at": rfc3339(document.updated_at),
    }))
}
