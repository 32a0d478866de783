//! Lists as imported: their names, kinds and versions.

use std::fmt;

use serde::{Deserialize, Serialize};
use strum::{EnumString, IntoStaticStr, VariantArray};
use time::OffsetDateTime;

use crate::merchant::MerchantId;

/// What a list holds: it decides the reason a match gives.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    VariantArray,
    IntoStaticStr,
    EnumString,
    Serialize,
    Deserialize,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum ListKind {
    /// Sanctioned people and organisations (OFAC, UN, EU).
    Sanctions,
    /// Politically exposed persons.
    Pep,
    /// A merchant's or the operator's own list.
    Internal,
}

impl ListKind {
    /// Its name in the API and on the command line.
    pub fn as_str(&self) -> &'static str {
        self.into()
    }

    /// The kind of this name.
    pub fn parse(name: &str) -> Option<Self> {
        name.parse().ok()
    }
}

/// A list's name, as the operator gave it at import and merchants choose it in
/// `screening_lists`: 1 to 64 ASCII letters, digits, `.`, `_` or `-`, so that it reads
/// the same on a command line, in a setting and in a report.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ListName(String);

impl TryFrom<String> for ListName {
    type Error = &'static str;

    fn try_from(name: String) -> Result<Self, Self::Error> {
        Self::parse(&name).ok_or("not a list name")
    }
}

impl From<ListName> for String {
    fn from(name: ListName) -> Self {
        name.0
    }
}

impl ListName {
    /// Longest name.
    pub const MAX_LEN: usize = 64;

    /// The name, if it is one.
    pub fn parse(name: &str) -> Option<Self> {
        let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
        (!name.is_empty() && name.len() <= Self::MAX_LEN && name.chars().all(allowed))
            .then(|| Self(name.to_owned()))
    }

    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ListName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The version of a list in force: what `idv screening lists` prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListVersion {
    /// The list.
    pub name: ListName,
    /// What it holds.
    pub kind: ListKind,
    /// The merchant an internal list belongs to; `None`: every merchant's.
    pub merchant_id: Option<MerchantId>,
    /// The SHA-256 of the imported files (hex), in the order given.
    pub version: String,
    /// When it was imported.
    pub imported_at: OffsetDateTime,
    /// How many entries it holds.
    pub entries: u64,
}

impl ListVersion {
    /// Whether `merchant` screens against it when it chooses it (or chooses every list).
    pub fn serves(&self, merchant: &MerchantId) -> bool {
        self.merchant_id.as_ref().is_none_or(|m| m == merchant)
    }
}

/// A list read whole from its files, to replace the version in force.
#[derive(Debug, Clone)]
pub struct ListImport {
    /// Its version, as it will be in force.
    pub version: ListVersion,
    /// Every entry.
    pub entries: Vec<screening::Entry>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_short_and_plain() {
        for good in ["ofac-sdn", "un_consolidated", "eu.fsf", "a"] {
            assert!(ListName::parse(good).is_some(), "{good}");
        }
        let long = "x".repeat(ListName::MAX_LEN + 1);
        for bad in ["", "two words", "ofac/sdn", "é", long.as_str()] {
            assert!(ListName::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn kinds_read_back_by_name() {
        for kind in ListKind::VARIANTS {
            assert_eq!(ListKind::parse(kind.as_str()), Some(*kind));
        }
        assert_eq!(ListKind::parse("other"), None);
    }
}
