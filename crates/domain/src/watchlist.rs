//! Screening against sanctions, PEP and internal lists (contract §19): the lists as the
//! operator imports them, a profile's screening and its matches with the reviewer's
//! disposition, the merchant's settings, and the `watchlist` check. Matching names is
//! the `screening` crate's (pure); which matches are new, kept or dismissed is decided
//! here.

mod lists;
mod outcome;
mod settings;

pub use lists::{ListImport, ListKind, ListName, ListVersion};
pub use outcome::{Disposition, ListHit, Match, Screened, Screening, merge, watchlist};
pub use settings::{ScreeningSettings, Threshold};
