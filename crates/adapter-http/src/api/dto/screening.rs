//! A profile's screening as `screening/get` and `screening/dispose` answer it.

use domain::watchlist::{Match, Screening};
use serde::Serialize;
use utoipa::ToSchema;

use crate::timefmt::rfc3339;

/// A list screened against, at the version used.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScreenedList {
    pub name: String,
    /// The SHA-256 of the list's imported files (hex).
    pub version: String,
}

/// An entry of a list the profile's name matched (public list data, as `details.matches`
/// of the `watchlist` check lists it), with the reviewer's decision.
#[derive(Debug, Serialize, ToSchema)]
pub struct MatchView {
    pub list: String,
    /// The list's version matched against.
    pub list_version: String,
    pub entry_id: String,
    /// The entry's name that matched, as the list writes it.
    pub matched_name: String,
    /// 0 to 100.
    pub score: u8,
    /// `sanctions`, `pep` or `internal`.
    pub kind: &'static str,
    /// `open`, `false_positive` or `confirmed`.
    pub disposition: &'static str,
}

impl MatchView {
    fn of(m: &Match) -> Self {
        let hit = &m.hit;
        Self {
            list: hit.list.as_str().to_owned(),
            list_version: hit.list_version.clone(),
            entry_id: hit.entry_id.clone(),
            matched_name: hit.matched_name.clone(),
            score: hit.score,
            kind: hit.kind.as_str(),
            disposition: m.disposition.as_str(),
        }
    }
}

/// A profile's latest screening.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScreeningView {
    pub screened_at: String,
    pub lists: Vec<ScreenedList>,
    /// Best first; dismissed ones (`false_positive`) included.
    pub matches: Vec<MatchView>,
}

impl ScreeningView {
    pub fn of(s: &Screening) -> Self {
        Self {
            screened_at: rfc3339(s.screened_at),
            lists: s
                .lists
                .iter()
                .map(|(name, version)| ScreenedList {
                    name: name.as_str().to_owned(),
                    version: version.clone(),
                })
                .collect(),
            matches: s.matches.iter().map(MatchView::of).collect(),
        }
    }
}

/// screening/get and screening/dispose.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScreeningAnswer {
    pub screening: ScreeningView,
}
