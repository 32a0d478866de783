//! note/create (note/read takes a profile's page: `ProfilePageRequest`).

use domain::note::NoteText;
use domain::profile::ProfileKey;
use serde::Deserialize;
use utoipa::ToSchema;

use super::{ProfileKeyRequest, rules};
use crate::error::ApiError;
use crate::fields::{Check, Sent};

/// note/create.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct NoteRequest {
    #[serde(flatten)]
    pub key: ProfileKeyRequest,
    /// 1 to 255 characters, plain text: no markup (`<b`, `&amp;`) and no control
    /// characters but line breaks and tabs.
    #[serde(default)]
    #[schema(schema_with = rules::note, required)]
    pub note: Sent,
}

impl TryFrom<NoteRequest> for (ProfileKey, NoteText) {
    type Error = ApiError;

    fn try_from(r: NoteRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let key = r.key.read(&mut c);
        // The check hands the string over untrimmed: a note is kept exactly as sent.
        let text = c.required("note", &r.note, NoteText::parse);
        c.finish(|| Some((key?, text?)))
    }
}
