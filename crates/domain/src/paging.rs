//! Offset pagination as the interface defines it.

use crate::validation::Invalid;

/// The largest page a caller may ask for.
pub const MAX_LIMIT: i64 = 50;
/// The page size used where the caller may omit `limit`.
pub const DEFAULT_LIMIT: i64 = 10;

/// A valid page request: `offset >= 0`, `1 <= limit <= 50`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    offset: i64,
    limit: i64,
}

impl Page {
    /// An `offset`: 0 or more.
    pub fn parse_offset(offset: i64) -> Result<i64, Invalid> {
        if offset < 0 {
            return Err(Invalid::new("must be 0 or more"));
        }
        Ok(offset)
    }

    /// A `limit`: 1 to 50.
    pub fn parse_limit(limit: i64) -> Result<i64, Invalid> {
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(Invalid::new(format!("must be from 1 to {MAX_LIMIT}")));
        }
        Ok(limit)
    }

    /// A page of `limit` records starting at `offset`.
    pub fn new(offset: i64, limit: i64) -> Result<Self, Invalid> {
        Ok(Self {
            offset: Self::parse_offset(offset)?,
            limit: Self::parse_limit(limit)?,
        })
    }

    /// Records skipped.
    pub fn offset(&self) -> i64 {
        self.offset
    }

    /// Records taken at most.
    pub fn limit(&self) -> i64 {
        self.limit
    }
}

impl Default for Page {
    fn default() -> Self {
        Self {
            offset: 0,
            limit: DEFAULT_LIMIT,
        }
    }
}

/// One page of results and the counts the interface reports with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Paged<T> {
    /// This page's records, newest first.
    pub items: Vec<T>,
    /// All records of the kind in scope (the merchant's, or the profile's).
    pub total_count: i64,
    /// Records matching the request's filters; equal to `total_count` without filters.
    pub filtered: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_accepts_limits_from_one_to_fifty() {
        assert!(Page::new(0, 1).is_ok());
        assert!(Page::new(0, 50).is_ok());
        assert!(Page::new(0, 0).is_err());
        assert!(Page::new(0, 51).is_err());
    }

    #[test]
    fn a_negative_offset_is_refused() {
        assert!(Page::new(-1, 10).is_err());
        assert_eq!(Page::new(7, 10).map(|p| p.offset()), Ok(7));
    }

    #[test]
    fn the_default_page_is_the_first_ten() {
        assert_eq!(Page::default(), Page::new(0, 10).expect("valid"));
    }
}
