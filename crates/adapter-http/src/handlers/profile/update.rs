use crate::dto::profile::{profile_json, read_changes, read_key};
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;

/// `POST /api/v1/profile/update`: the pair names the profile and cannot be changed.
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    let changes = read_changes(&mut f);
    let (key, changes) = f.finish(|| Some((key?, changes?)))?;
    let profile = state.profiles.update(&req.merchant, &key, changes).await?;
    Ok(Reply::ok(object! { "profile": profile_json(&profile) }).with_response_time_as_text())
}
