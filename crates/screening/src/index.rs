//! An index of one list's entries by blocking keys, and the score of a name against them.

use crate::entry::Entry;
use time::Date;

/// The person screened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject<'a> {
    /// First (and middle) names, as typed or read.
    pub first_name: &'a str,
    /// Last name.
    pub last_name: &'a str,
    /// Date of birth, when known.
    pub date_of_birth: Option<Date>,
    /// Country (ISO 3166-1 alpha-2), when known.
    pub country: Option<&'a str>,
}

/// An entry a subject may be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit<'a> {
    /// The entry.
    pub entry: &'a Entry,
    /// Which of its names matched best, as the list writes it.
    pub matched_name: &'a str,
    /// 0-100: 100 is the same name once normalised.
    pub score: u8,
}

/// One list's entries, indexed.
#[derive(Debug, Default)]
pub struct Index {
    entries: Vec<Entry>,
}

impl Index {
    /// The index of `entries`.
    pub fn new(entries: Vec<Entry>) -> Self {
        Self { entries }
    }

    /// The entries indexed.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Every entry whose score against `subject` is at least `threshold`, best first.
    pub fn screen(&self, subject: &Subject<'_>, threshold: u8) -> Vec<Hit<'_>> {
        let _ = (subject, threshold);
        Vec::new()
    }
}
