use domain::paging::Page;
use domain::profile::ProfileKey;

use crate::api::dto::event::{EventList, EventView};
use crate::api::dto::paging::Paging;
use crate::api::dto::requests::ProfilePageRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// A profile's activity log, newest first.
#[utoipa::path(post, path = "/api/v1/event/read", tag = "events",
    request_body = ProfilePageRequest,
    responses((status = 200, description = "A page of events", body = Envelope<EventList>)))]
pub async fn handle(state: State, req: Signed) -> Answer<EventList> {
    let (key, page): (ProfileKey, Page) = req.parse::<ProfilePageRequest, _>()?;
    let paged = state.profiles.events(&req.merchant, &key, page).await?;
    Ok(Reply::ok(EventList {
        paging: Paging::of(page, &paged),
        email_address: key.email.as_str().to_owned(),
        mobile_number: key.mobile.as_str().to_owned(),
        events: paged
            .items
            .iter()
            .map(|e| EventView {
                url: req.shown_address(&e.url),
                ..EventView::of(e)
            })
            .collect(),
    }))
}
