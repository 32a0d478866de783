//! Screening names against sanctions, PEP and internal lists (contract §19), pure.
//!
//! A list is a set of [`Entry`]s as the importers read them from OFAC's, the UN's, the
//! EU's or a merchant's file. An [`Index`] of one list finds the entries a person's name
//! may be ([`Subject`]), by blocking keys, never by a scan of every entry, and scores each
//! candidate 0-100 ([`Hit`]).
//!
//! Names are normalised first (ASCII, lowercase, honorifics, generations and legal
//! forms dropped, particles set aside), then scored by pairing their words in any order
//! (Jaro-Winkler, helped by Double Metaphone), an initial matching a word it starts, a
//! middle name on one side only costing little, two different words that are both names
//! of the list never taken for one misspelt. A date of birth that none of the entry's
//! agrees with takes 15 points off, a country none of the entry's is, 3.

mod entry;
mod index;
mod names;
mod score;

pub use entry::{BirthDate, Entry};
pub use index::{Hit, Index, Subject};
