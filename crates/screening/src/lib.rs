//! Screening names against sanctions, PEP and internal lists (contract §19), pure.
//!
//! A list is a set of [`Entry`]s as the importers read them from OFAC's, the UN's, the
//! EU's or a merchant's file. An [`Index`] of one list finds the entries a person's name
//! may be ([`Subject`]), by blocking keys, never by a scan of every entry, and scores each
//! candidate 0-100 ([`Hit`]).

mod entry;
mod index;

pub use entry::{BirthDate, Entry};
pub use index::{Hit, Index, Subject};
