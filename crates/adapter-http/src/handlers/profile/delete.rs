use crate::dto::profile::read_key;
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;
use crate::timefmt::rfc3339;

/// `POST /api/v1/profile/delete`: erases the profile and everything under it.
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    let key = f.finish(|| key)?;
    let deleted_at = state.profiles.delete(&req.merchant, &key).await?;
    Ok(Reply::ok(object! {
        "email_address": key.email.as_str(),
        "mobile_number": key.mobile.as_str(),
        "deleted": 1,
        "deleted_at": rfc3339(deleted_at),
    }))
}
