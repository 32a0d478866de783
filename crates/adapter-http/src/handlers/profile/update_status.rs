use domain::profile::ProfileStatus;

use crate::dto::profile::read_key;
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;
use crate::timefmt::rfc3339;

/// `POST /api/v1/profile/update-status`
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    let status = f.required("status", str::parse::<ProfileStatus>);
    let (key, status) = f.finish(|| Some((key?, status?)))?;
    let profile = state
        .profiles
        .set_status(&req.merchant, &key, status)
        .await?;
    Ok(Reply::ok(object! {
        "email_address": profile.key.email.as_str(),
        "mobile_number": profile.key.mobile.as_str(),
        "status": profile.status.as_str(),
        "updated_at": rfc3339(profile.updated_at),
    }))
}
