//! A merchant's screening settings.

use super::lists::ListName;

/// The lowest score a name must reach to be a match (`screening_threshold`, 80-100).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Threshold(u8);

impl Threshold {
    /// The default: a near-identical name (contract §19).
    pub const DEFAULT: Self = Self(90);
    /// Lowest allowed: below it, common names match strangers too often to review.
    pub const MIN: u8 = 80;
    /// Highest: only the same name once normalised.
    pub const MAX: u8 = 100;

    /// The threshold, if within bounds.
    pub fn new(score: i64) -> Option<Self> {
        let score = u8::try_from(score).ok()?;
        (Self::MIN..=Self::MAX)
            .contains(&score)
            .then_some(Self(score))
    }

    /// The score.
    pub fn score(&self) -> u8 {
        self.0
    }
}

impl Default for Threshold {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Whether and how a merchant's clients are screened.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScreeningSettings {
    /// `screening`: off by default.
    pub on: bool,
    /// `screening_lists`: the lists screened against; empty: every list the merchant may
    /// use.
    pub lists: Vec<ListName>,
    /// `screening_threshold`.
    pub threshold: Threshold,
}

impl ScreeningSettings {
    /// Whether the merchant chose `list` (choosing none is choosing all).
    pub fn chooses(&self, list: &ListName) -> bool {
        self.lists.is_empty() || self.lists.contains(list)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_threshold_is_80_to_100() {
        assert_eq!(Threshold::new(79), None);
        assert_eq!(Threshold::new(101), None);
        assert_eq!(Threshold::new(80).map(|t| t.score()), Some(80));
        assert_eq!(Threshold::new(100).map(|t| t.score()), Some(100));
        assert_eq!(Threshold::default().score(), 90);
    }

    #[test]
    fn no_list_chosen_is_every_list() {
        let ofac = ListName::parse("ofac").expect("name");
        let un = ListName::parse("un").expect("name");
        let all = ScreeningSettings::default();
        assert!(all.chooses(&ofac) && all.chooses(&un));
        let some = ScreeningSettings {
            lists: vec![ofac.clone()],
            ..all
        };
        assert!(some.chooses(&ofac) && !some.chooses(&un));
    }
}
