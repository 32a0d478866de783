use domain::note::NoteText;

use crate::dto::profile::read_key;
use crate::envelope::Reply;
use crate::fields::Fields;
use crate::handlers::{Answer, State};
use crate::object;
use crate::signed::Signed;
use crate::timefmt::rfc3339;

/// `POST /api/v1/note/create`
pub async fn handle(state: State, req: Signed) -> Answer {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    // The reader hands the string over untrimmed: a note is kept exactly as sent.
    let text = f.required("note", NoteText::parse);
    let (key, text) = f.finish(|| Some((key?, text?)))?;
    let note = state.notes.create(&req.merchant, &key, text).await?;
    Ok(Reply::created(object! {
        "email_address": key.email.as_str(),
        "mobile_number": key.mobile.as_str(),
        "note": note.text.as_str(),
        "created_at": rfc3339(note.created_at),
    }))
}
