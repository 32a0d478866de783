use domain::profile::ProfileKey;

use crate::api::dto::requests::ProfileKeyRequest;
use crate::api::dto::screening::{ScreeningAnswer, ScreeningView};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// A profile's latest screening against the merchant's lists, made again first when a
/// list changed since (`SCREENING_NOT_FOUND` when the merchant does not screen and it
/// never was screened).
#[utoipa::path(post, path = "/api/v1/screening/get", tag = "screening",
    request_body = ProfileKeyRequest,
    responses((status = 200, description = "The screening", body = Envelope<ScreeningAnswer>)))]
pub async fn handle(state: State, req: Signed) -> Answer<ScreeningAnswer> {
    let key: ProfileKey = req.parse::<ProfileKeyRequest, _>()?;
    let screening = state.screening.get(&req.merchant, &key).await?;
    Ok(Reply::ok(ScreeningAnswer {
        screening: ScreeningView::of(&screening),
    }))
}
