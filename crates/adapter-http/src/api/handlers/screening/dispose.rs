use domain::profile::ProfileKey;
use domain::services::DispositionInput;

use crate::api::dto::requests::DisposeRequest;
use crate::api::dto::screening::{ScreeningAnswer, ScreeningView};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// Records a reviewer's decision on a match of the profile's latest screening: a
/// `false_positive` is not raised again for the profile until the entry changes.
#[utoipa::path(post, path = "/api/v1/screening/dispose", tag = "screening",
    request_body = DisposeRequest,
    responses((status = 200, description = "The screening, decided", body = Envelope<ScreeningAnswer>)))]
pub async fn handle(state: State, req: Signed) -> Answer<ScreeningAnswer> {
    let (key, input): (ProfileKey, DispositionInput) = req.parse::<DisposeRequest, _>()?;
    let screening = state.screening.dispose(&req.merchant, &key, input).await?;
    Ok(Reply::ok(ScreeningAnswer {
        screening: ScreeningView::of(&screening),
    }))
}
