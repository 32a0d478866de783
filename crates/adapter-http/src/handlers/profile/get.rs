use crate::dto::profile::{read_key, reviewed_profile_json};
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;

/// `POST /api/v1/profile/get`
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    let key = f.finish(|| key)?;
    let profile = state.profiles.get(&req.merchant, &key).await?;
    Ok(Reply::ok(
        object! { "profile": reviewed_profile_json(&profile) },
    ))
}
