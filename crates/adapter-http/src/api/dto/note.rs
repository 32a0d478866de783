use domain::note::Note;
use serde::Serialize;
use utoipa::ToSchema;

use super::paging::Paging;
use crate::timefmt::rfc3339;

#[derive(Debug, Serialize, ToSchema)]
pub struct NoteView {
    /// Kept exactly as written.
    pub note: String,
    pub created_at: String,
}

impl NoteView {
    pub fn of(n: &Note) -> Self {
        Self {
            note: n.text.as_str().to_owned(),
            created_at: rfc3339(n.created_at),
        }
    }
}

/// note/create.
#[derive(Debug, Serialize, ToSchema)]
pub struct NoteCreated {
    pub email_address: String,
    pub mobile_number: String,
    #[serde(flatten)]
    pub note: NoteView,
}

/// note/read: the profile's notes, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct NoteList {
    #[serde(flatten)]
    pub paging: Paging,
    pub email_address: String,
    pub mobile_number: String,
    pub notes: Vec<NoteView>,
}
