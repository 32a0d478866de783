use domain::event::Actor;
use domain::note::NoteText;
use domain::profile::ProfileKey;

use crate::api::dto::note::{NoteCreated, NoteView};
use crate::api::dto::requests::NoteRequest;
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};

/// Write a note on a profile: plain text, kept exactly as sent.
#[utoipa::path(post, path = "/api/v1/note/create", tag = "notes",
    request_body = NoteRequest,
    responses((status = 201, description = "Created", body = Envelope<NoteCreated>)))]
pub async fn handle(state: State, req: Signed) -> Answer<NoteCreated> {
    let (key, text): (ProfileKey, NoteText) = req.parse::<NoteRequest, _>()?;
    let note = state
        .notes
        .create(&req.merchant, &key, text, Actor::Api)
        .await?;
    Ok(Reply::created(NoteCreated {
        email_address: key.email.as_str().to_owned(),
        mobile_number: key.mobile.as_str().to_owned(),
        note: NoteView::of(&note),
    }))
}
