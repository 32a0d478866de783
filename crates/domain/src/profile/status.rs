use std::fmt;
use std::str::FromStr;

use crate::validation::Invalid;

/// Where the merchant's review of a client stands. Any status may follow any other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProfileStatus {
    Pending,
    Approved,
    Declined,
}

impl ProfileStatus {
    pub const ALL: [ProfileStatus; 3] = [Self::Pending, Self::Approved, Self::Declined];

    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Pending => "Pending",
            Self::Approved => "Approved",
            Self::Declined => "Declined",
        }
    }
}

impl FromStr for ProfileStatus {
    type Err = Invalid;

    /// Matches case-insensitively; the canonical spelling is what gets stored.
    fn from_str(raw: &str) -> Result<Self, Invalid> {
        let raw = raw.trim();
        Self::ALL
            .into_iter()
            .find(|s| s.as_str().eq_ignore_ascii_case(raw))
            .ok_or_else(|| Invalid::new("must be Pending, Approved or Declined"))
    }
}

impl fmt::Display for ProfileStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_parse_in_any_case_and_print_canonically() {
        assert_eq!("approved".parse(), Ok(ProfileStatus::Approved));
        assert_eq!(
            " DECLINED ".parse::<ProfileStatus>().map(|s| s.to_string()),
            Ok("Declined".into())
        );
        assert!(
            "Reviewed".parse::<ProfileStatus>().is_err(),
            "a document status only"
        );
    }
}
