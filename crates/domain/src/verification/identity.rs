//! The checks that need no image (contract §13): what was typed, against the rules and
//! against the merchant's other profiles.

use time::Date;

use super::check::{Check, CheckName, Detail, Reason};
use crate::profile::Ssn;
use crate::validation::Invalid;

/// Numbers printed in advertising and on sample cards: never a person's.
const ADVERTISED: [&str; 4] = ["078051120", "219099999", "457555462", "123456789"];

/// Other profiles on one device from which sharing it is suspicious.
pub const SHARED_DEVICE_PROFILES: u64 = 3;

/// The youngest a merchant may let clients be, in years.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MinimumAge(u8);

impl MinimumAge {
    /// The contract's default.
    pub const DEFAULT: MinimumAge = MinimumAge(18);

    /// 1 to 120 years.
    pub fn new(years: i64) -> Result<Self, Invalid> {
        u8::try_from(years)
            .ok()
            .filter(|y| (1..=120).contains(y))
            .map(Self)
            .ok_or_else(|| Invalid::new("must be a whole number of years from 1 to 120"))
    }

    /// In years.
    pub fn years(&self) -> u8 {
        self.0
    }
}

impl Default for MinimumAge {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// `ssn_format`: whether the SSN is one that could have been issued.
pub fn ssn_format(ssn: Option<&Ssn>) -> Check {
    let Some(ssn) = ssn else {
        return Check::not_applicable(CheckName::SsnFormat, Reason::NoSsn);
    };
    let digits = ssn.as_str();
    let (area, group, serial) = (&digits[..3], &digits[3..5], &digits[5..]);
    let impossible = area == "000"
        || area == "666"
        || area.starts_with('9')
        || group == "00"
        || serial == "0000"
        || ADVERTISED.contains(&digits);
    if impossible {
        Check::failed(CheckName::SsnFormat, vec![Reason::SsnInvalid], Vec::new())
    } else {
        Check::passed(CheckName::SsnFormat, Vec::new())
    }
}

/// Whole years from `born` to `today`.
fn age_on(born: Date, today: Date) -> i64 {
    let years = i64::from(today.year()) - i64::from(born.year());
    let birthday_to_come = (today.month() as u8, today.day()) < (born.month() as u8, born.day());
    years - i64::from(birthday_to_come)
}

/// `minimum_age`: whether the client is at least `minimum` years old `today`. The age
/// itself is not reported: it would tell the date of birth nearly.
pub fn minimum_age(born: Option<Date>, today: Date, minimum: MinimumAge) -> Check {
    let Some(born) = born else {
        return Check::not_applicable(CheckName::MinimumAge, Reason::NoDateOfBirth);
    };
    let details = vec![(
        "minimum_age".to_owned(),
        Detail::Number(i64::from(minimum.years())),
    )];
    if age_on(born, today) >= i64::from(minimum.years()) {
        Check::passed(CheckName::MinimumAge, details)
    } else {
        Check::failed(
            CheckName::MinimumAge,
            vec![Reason::MinimumAgeNotMet],
            details,
        )
    }
}

/// `duplicate_identity`: how many other profiles of the merchant hold the same SSN
/// (`None`: no SSN was given) and the same document (`None`: no document number read).
pub fn duplicate_identity(ssn_elsewhere: Option<u64>, document_elsewhere: Option<u64>) -> Check {
    if ssn_elsewhere.is_none() && document_elsewhere.is_none() {
        return Check::not_applicable(CheckName::DuplicateIdentity, Reason::NoSsn);
    }
    let mut reasons = Vec::new();
    let mut details = Vec::new();
    if let Some(others) = ssn_elsewhere {
        details.push((
            "ssn_other_profiles".to_owned(),
            Detail::Number(count(others)),
        ));
        if others > 0 {
            reasons.push(Reason::SsnUsedByAnotherProfile);
        }
    }
    if let Some(others) = document_elsewhere {
        details.push((
            "document_other_profiles".to_owned(),
            Detail::Number(count(others)),
        ));
        if others > 0 {
            reasons.push(Reason::DocumentUsedByAnotherProfile);
        }
    }
    if reasons.is_empty() {
        Check::passed(CheckName::DuplicateIdentity, details)
    } else {
        Check::failed(CheckName::DuplicateIdentity, reasons, details)
    }
}

/// `duplicate_device`: how many other profiles of the merchant came from this device
/// (`None`: no fingerprint was taken).
pub fn duplicate_device(others: Option<u64>) -> Check {
    let Some(others) = others else {
        return Check::not_applicable(CheckName::DuplicateDevice, Reason::NoFingerprint);
    };
    let details = vec![("other_profiles".to_owned(), Detail::Number(count(others)))];
    if others >= SHARED_DEVICE_PROFILES {
        Check::failed(
            CheckName::DuplicateDevice,
            vec![Reason::DeviceUsedByOtherProfiles],
            details,
        )
    } else {
        Check::passed(CheckName::DuplicateDevice, details)
    }
}

fn count(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::DateOfBirth;
    use crate::verification::check::CheckStatus;
    use time::macros::date;

    fn ssn(digits: &str) -> Ssn {
        Ssn::parse(digits).expect("nine digits")
    }

    #[test]
    fn ssns_that_cannot_have_been_issued_fail_and_others_pass() {
        for bad in [
            "000123456",
            "666123456",
            "900123456",
            "999123456",
            "123001234",
            "123450000",
            "078051120",
            "219099999",
            "457555462",
            "123456789",
        ] {
            let check = ssn_format(Some(&ssn(bad)));
            assert_eq!(check.status, CheckStatus::Failed, "{bad}");
            assert_eq!(check.reasons, [Reason::SsnInvalid]);
        }
        for good in [
            "123456788",
            "001010001",
            "899999999",
            "665123456",
            "667123456",
        ] {
            assert_eq!(
                ssn_format(Some(&ssn(good))).status,
                CheckStatus::Passed,
                "{good}"
            );
        }
        let none = ssn_format(None);
        assert_eq!(
            (none.status, none.reasons),
            (CheckStatus::NotApplicable, vec![Reason::NoSsn])
        );
    }

    #[test]
    fn the_minimum_age_counts_whole_years_to_the_birthday() {
        let born = DateOfBirth::parse("2008-06-15").expect("valid");
        let check = |today| minimum_age(Some(born.date()), today, MinimumAge::DEFAULT).status;
        assert_eq!(
            check(date!(2026 - 06 - 14)),
            CheckStatus::Failed,
            "a day short"
        );
        assert_eq!(
            check(date!(2026 - 06 - 15)),
            CheckStatus::Passed,
            "the birthday"
        );
        let fifteen = DateOfBirth::parse("2011-01-01").expect("valid");
        let c = minimum_age(
            Some(fifteen.date()),
            date!(2026 - 11 - 24),
            MinimumAge::DEFAULT,
        );
        assert_eq!(c.reasons, [Reason::MinimumAgeNotMet]);
        assert_eq!(c.details, [("minimum_age".to_owned(), Detail::Number(18))]);
        let strict = MinimumAge::new(21).expect("valid");
        let adult = DateOfBirth::parse("2006-01-01").expect("valid");
        assert_eq!(
            minimum_age(Some(adult.date()), date!(2026 - 11 - 24), strict).status,
            CheckStatus::Failed
        );
        assert_eq!(
            minimum_age(None, date!(2026 - 11 - 24), strict).reasons,
            [Reason::NoDateOfBirth]
        );
        assert!(MinimumAge::new(0).is_err() && MinimumAge::new(121).is_err());
    }

    #[test]
    fn duplicates_count_other_profiles() {
        assert_eq!(
            duplicate_identity(Some(0), None).status,
            CheckStatus::Passed
        );
        let taken = duplicate_identity(Some(1), Some(2));
        assert_eq!(
            taken.reasons,
            [
                Reason::SsnUsedByAnotherProfile,
                Reason::DocumentUsedByAnotherProfile
            ]
        );
        assert_eq!(
            duplicate_identity(None, None).status,
            CheckStatus::NotApplicable
        );
        assert_eq!(duplicate_device(Some(2)).status, CheckStatus::Passed);
        assert_eq!(
            duplicate_device(Some(3)).reasons,
            [Reason::DeviceUsedByOtherProfiles]
        );
        assert_eq!(duplicate_device(None).reasons, [Reason::NoFingerprint]);
    }
}
