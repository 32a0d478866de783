//! A profile's screening on its page (contract §19): the lists it was screened against,
//! each match with the reviewer's decision, and the form that records one.

use actix_web::{HttpResponse, web};
use domain::note::NoteText;
use domain::services::DispositionInput;
use domain::watchlist::{Disposition, ListName, Screening};
use serde::Deserialize;

use super::profile::find;
use super::{DashboardError, Posted};
use crate::pages::redirect_to;
use crate::state::State;
use crate::timefmt::rfc3339;

/// One match, as the page lists it.
pub(super) struct MatchRow {
    pub list: String,
    pub entry_id: String,
    pub matched_name: String,
    pub score: u8,
    pub kind: &'static str,
    pub disposition: &'static str,
    pub note: String,
    pub open: bool,
}

/// The screening part of a profile's page.
pub(super) struct ScreeningSection {
    pub screened_at: String,
    pub lists: String,
    pub matches: Vec<MatchRow>,
}

impl ScreeningSection {
    pub(super) fn of(s: &Screening) -> Self {
        Self {
            screened_at: rfc3339(s.screened_at),
            lists: s
                .lists
                .iter()
                .map(|(name, _)| name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            matches: s
                .matches
                .iter()
                .map(|m| MatchRow {
                    list: m.hit.list.as_str().to_owned(),
                    entry_id: m.hit.entry_id.clone(),
                    matched_name: m.hit.matched_name.clone(),
                    score: m.hit.score,
                    kind: m.hit.kind.as_str(),
                    disposition: m.disposition.as_str(),
                    note: m.note.clone().unwrap_or_default(),
                    open: m.disposition == Disposition::Open,
                })
                .collect(),
        }
    }
}

#[derive(Deserialize)]
pub(super) struct DispositionForm {
    #[serde(default)]
    list: String,
    #[serde(default)]
    entry_id: String,
    #[serde(default)]
    disposition: String,
    #[serde(default)]
    note: String,
}

/// `POST /dashboard/profiles/{id}/screening`: a reviewer's decision on a match.
pub(super) async fn dispose(
    state: State,
    Posted { reviewer, form }: Posted<DispositionForm>,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    let merchant = &reviewer.session.merchant_id;
    let profile = find(&state, merchant, &id).await?;
    let refused = || {
        DashboardError::not_saved(
            "Choose a match and a decision (open, false positive or confirmed); a note is at most 255 characters of plain text.",
        )
    };
    let note = match form.note.trim() {
        "" => None,
        text => Some(
            NoteText::parse(text)
                .map_err(|_| refused())?
                .as_str()
                .to_owned(),
        ),
    };
    let input = DispositionInput {
        list: ListName::parse(&form.list).ok_or_else(refused)?,
        entry_id: form.entry_id,
        disposition: Disposition::parse(&form.disposition).ok_or_else(refused)?,
        note,
    };
    state
        .screening
        .dispose(merchant, &profile.key, input)
        .await?;
    Ok(redirect_to(format!(
        "{}/profiles/{}#screening",
        super::BASE,
        profile.id.as_str()
    )))
}
