//! screening/dispose (screening/get takes a profile's key: `ProfileKeyRequest`).

use domain::note::NoteText;
use domain::profile::ProfileKey;
use domain::services::DispositionInput;
use domain::validation::Invalid;
use domain::watchlist::{Disposition, ListName};
use serde::Deserialize;
use utoipa::ToSchema;

use super::{ProfileKeyRequest, rules};
use crate::error::ApiError;
use crate::fields::{Check, Sent};

/// screening/dispose.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct DisposeRequest {
    #[serde(flatten)]
    pub key: ProfileKeyRequest,
    /// The list of the match, by name.
    #[serde(default)]
    #[schema(value_type = String, pattern = "^[A-Za-z0-9._-]{1,64}$", required)]
    pub list: Sent,
    /// The entry's id in the list: not blank.
    #[serde(default)]
    #[schema(value_type = String, pattern = "\\S", required)]
    pub entry_id: Sent,
    /// `open`, `false_positive` or `confirmed`.
    #[serde(default)]
    #[schema(value_type = String, pattern = "^(open|false_positive|confirmed)$", required)]
    pub disposition: Sent,
    /// Why, as a note is written: 1 to 255 characters of plain text.
    #[serde(default)]
    #[schema(schema_with = rules::note)]
    pub note: Sent,
}

impl TryFrom<DisposeRequest> for (ProfileKey, DispositionInput) {
    type Error = ApiError;

    fn try_from(r: DisposeRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let key = r.key.read(&mut c);
        let list = c.required("list", &r.list, |name| {
            ListName::parse(name).ok_or_else(|| Invalid("no list has this name".into()))
        });
        let entry_id = c.required("entry_id", &r.entry_id, |id| Ok(id.to_owned()));
        let disposition = c.required("disposition", &r.disposition, |name| {
            Disposition::parse(name)
                .ok_or_else(|| Invalid("must be open, false_positive or confirmed".into()))
        });
        let note = match r.note.is_sent() {
            true => c.required("note", &r.note, NoteText::parse),
            false => None,
        };
        c.finish(|| {
            Some((
                key?,
                DispositionInput {
                    list: list?,
                    entry_id: entry_id?,
                    disposition: disposition?,
                    note: note.map(|n| n.as_str().to_owned()),
                },
            ))
        })
    }
}
