//! How a template's list and a quiz's completed steps are stored: one character per step,
//! at a fixed position. The positions are this module's, written out per step: a stored
//! string is read back by them whatever order `Feature` declares its variants in, and a new
//! step cannot compile until it is given a position of its own (the next free one).

use domain::template::{Feature, FeatureList, FeatureSet, Requirement};

/// Characters in a stored string: one per step.
const SLOTS: usize = 22;

/// The stored position of each step. Never change one: stored data depends on it.
fn slot(feature: Feature) -> usize {
    match feature {
        Feature::DriverLicenceUpload => 0,
        Feature::PassportUpload => 1,
        Feature::OtherIdUpload => 2,
        Feature::SelfieUpload => 3,
        Feature::BankStatementUpload => 4,
        Feature::ReceiptUpload => 5,
        Feature::UtilityBillUpload => 6,
        Feature::VoidCheckUpload => 7,
        Feature::AddressSubmit => 8,
        Feature::MobilePhoneSubmit => 9,
        Feature::EmailAddressSubmit => 10,
        Feature::DateOfBirthSubmit => 11,
        Feature::SsnSubmit => 12,
        Feature::CanadianBankValidation => 13,
        Feature::UsaCanadianBankValidation => 14,
        Feature::AgreementSign => 15,
        Feature::GoogleLogin => 16,
        Feature::FacebookLogin => 17,
        Feature::DeviceFingerPrint => 18,
        Feature::CustomApplication => 19,
        Feature::CanadianBankStatement => 20,
        Feature::UtilityStatement => 21,
    }
}

/// Each step with the character stored for it.
fn chars_of(text: &str) -> Result<Vec<(Feature, u8)>, String> {
    let bytes = text.as_bytes();
    if bytes.len() != SLOTS {
        return Err(format!(
            "expected {SLOTS} characters, found {}",
            bytes.len()
        ));
    }
    Ok(Feature::ALL
        .iter()
        .copied()
        .map(|f| (f, bytes[slot(f)]))
        .collect())
}

fn encode(mut char_of: impl FnMut(Feature) -> u8) -> String {
    let mut out = [b'0'; SLOTS];
    for &feature in Feature::ALL {
        out[slot(feature)] = char_of(feature);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A list as stored: the requirement of each step, `0`, `1` or `2`.
pub fn list_to_text(list: &FeatureList) -> String {
    encode(|f| b'0' + list.get(f).value())
}

pub fn list_from_text(text: &str) -> Result<FeatureList, String> {
    let mut list = FeatureList::default();
    for (feature, c) in chars_of(text)? {
        let requirement = Requirement::parse(i64::from(c) - i64::from(b'0'))
            .map_err(|e| format!("{}: {e}", feature.name()))?;
        list.set(feature, requirement);
    }
    Ok(list)
}

/// A set of steps as stored: `1` for each step in it, `0` for the others.
pub fn set_to_text(set: &FeatureSet) -> String {
    encode(|f| if set.contains(f) { b'1' } else { b'0' })
}

pub fn set_from_text(text: &str) -> Result<FeatureSet, String> {
    let mut set = FeatureSet::default();
    for (feature, c) in chars_of(text)? {
        match c {
            b'1' => set.insert(feature),
            b'0' => {}
            _ => return Err(format!("{}: not 0 or 1", feature.name())),
        }
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_has_its_own_position() {
        let mut seen = [false; SLOTS];
        for &feature in Feature::ALL {
            assert!(!seen[slot(feature)], "{} shares a position", feature.name());
            seen[slot(feature)] = true;
        }
    }

    #[test]
    fn stored_lists_keep_their_meaning() {
        let mut list = FeatureList::default();
        list.set(Feature::DriverLicenceUpload, Requirement::Required);
        list.set(Feature::UtilityStatement, Requirement::Optional);
        list.set(Feature::SsnSubmit, Requirement::Required);
        // The string earlier versions stored for this list: it must read the same forever.
        let stored = "1000000000001000000002";
        assert_eq!(list_to_text(&list), stored);
        assert_eq!(list_from_text(stored), Ok(list));
        assert!(list_from_text("123").is_err());
        assert!(list_from_text("3000000000000000000000").is_err());
    }

    #[test]
    fn stored_sets_keep_their_meaning() {
        let mut set = FeatureSet::default();
        set.insert(Feature::PassportUpload);
        set.insert(Feature::DeviceFingerPrint);
        let stored = "0100000000000000001000";
        assert_eq!(set_to_text(&set), stored);
        assert_eq!(set_from_text(stored), Ok(set));
        assert!(set_from_text("2000000000000000000000").is_err());
    }
}
