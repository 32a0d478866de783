use domain::paging::Page;
use domain::profile::ProfileKey;

use crate::api::dto::note::{NoteList, NoteView};
use crate::api::dto::paging::Paging;
use crate::api::dto::requests::ProfilePageRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// A profile's notes, newest first.
#[utoipa::path(post, path = "/api/v1/note/read", tag = "notes",
    request_body = ProfilePageRequest,
    responses((status = 200, description = "A page of notes", body = Envelope<NoteList>)))]
pub async fn handle(state: State, req: Signed) -> Answer<NoteList> {
    let (key, page): (ProfileKey, Page) = req.parse::<ProfilePageRequest, _>()?;
    let paged = state.notes.list(&req.merchant, &key, page).await?;
    Ok(Reply::ok(NoteList {
        paging: Paging::of(page, &paged),
        email_address: key.email.as_str().to_owned(),
        mobile_number: key.mobile.as_str().to_owned(),
        notes: paged.items.iter().map(NoteView::of).collect(),
    }))
}
