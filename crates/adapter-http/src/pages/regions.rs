//! What the address form offers to choose from (contract §14): US states (with the
//! District of Columbia and the territories a US licence may come from) and Canadian
//! provinces and territories, by their postal codes; ISO 3166-1 countries.

use std::sync::LazyLock;

/// A state or province: its two-letter postal code and its name.
pub struct Region {
    pub code: &'static str,
    pub name: &'static str,
}

const fn region(code: &'static str, name: &'static str) -> Region {
    Region { code, name }
}

/// The United States' states, district and territories.
pub const US: [Region; 56] = [
    region("AL", "Alabama"),
    region("AK", "Alaska"),
    region("AS", "American Samoa"),
    region("AZ", "Arizona"),
    region("AR", "Arkansas"),
    region("CA", "California"),
    region("CO", "Colorado"),
    region("CT", "Connecticut"),
    region("DE", "Delaware"),
    region("DC", "District of Columbia"),
    region("FL", "Florida"),
    region("GA", "Georgia"),
    region("GU", "Guam"),
    region("HI", "Hawaii"),
    region("ID", "Idaho"),
    region("IL", "Illinois"),
    region("IN", "Indiana"),
    region("IA", "Iowa"),
    region("KS", "Kansas"),
    region("KY", "Kentucky"),
    region("LA", "Louisiana"),
    region("ME", "Maine"),
    region("MD", "Maryland"),
    region("MA", "Massachusetts"),
    region("MI", "Michigan"),
    region("MN", "Minnesota"),
    region("MS", "Mississippi"),
    region("MO", "Missouri"),
    region("MT", "Montana"),
    region("NE", "Nebraska"),
    region("NV", "Nevada"),
    region("NH", "New Hampshire"),
    region("NJ", "New Jersey"),
    region("NM", "New Mexico"),
    region("NY", "New York"),
    region("NC", "North Carolina"),
    region("ND", "North Dakota"),
    region("MP", "Northern Mariana Islands"),
    region("OH", "Ohio"),
    region("OK", "Oklahoma"),
    region("OR", "Oregon"),
    region("PA", "Pennsylvania"),
    region("PR", "Puerto Rico"),
    region("RI", "Rhode Island"),
    region("SC", "South Carolina"),
    region("SD", "South Dakota"),
    region("TN", "Tennessee"),
    region("TX", "Texas"),
    region("UT", "Utah"),
    region("VT", "Vermont"),
    region("VI", "U.S. Virgin Islands"),
    region("VA", "Virginia"),
    region("WA", "Washington"),
    region("WV", "West Virginia"),
    region("WI", "Wisconsin"),
    region("WY", "Wyoming"),
];

/// Canada's provinces and territories (their official names, the same in English and
/// French but for a few, given in both).
pub const CA: [Region; 13] = [
    region("AB", "Alberta"),
    region("BC", "British Columbia / Colombie-Britannique"),
    region("MB", "Manitoba"),
    region("NB", "New Brunswick / Nouveau-Brunswick"),
    region("NL", "Newfoundland and Labrador / Terre-Neuve-et-Labrador"),
    region("NS", "Nova Scotia / Nouvelle-Écosse"),
    region("NT", "Northwest Territories / Territoires du Nord-Ouest"),
    region("NU", "Nunavut"),
    region("ON", "Ontario"),
    region("PE", "Prince Edward Island / Île-du-Prince-Édouard"),
    region("QC", "Quebec / Québec"),
    region("SK", "Saskatchewan"),
    region("YT", "Yukon"),
];

/// Every ISO 3166-1 country by its alpha-2 code and English short name, by name:
/// sorted once, shown on every quiz page with an address step.
pub fn countries() -> &'static [(&'static str, &'static str)] {
    static SORTED: LazyLock<Vec<(&str, &str)>> = LazyLock::new(|| {
        let mut all: Vec<(&str, &str)> = isocountry::CountryCode::iter()
            .map(|c| (c.alpha2(), c.name()))
            .collect();
        all.sort_by_key(|(_, name)| *name);
        all
    });
    &SORTED
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn codes_are_two_capital_letters_and_never_repeat_within_a_list() {
        for list in [&US[..], &CA[..]] {
            let codes: HashSet<&str> = list.iter().map(|r| r.code).collect();
            assert_eq!(codes.len(), list.len());
            assert!(
                list.iter()
                    .all(|r| r.code.len() == 2 && r.code.bytes().all(|b| b.is_ascii_uppercase()))
            );
        }
        let countries = countries();
        assert!(countries.len() >= 249, "{}", countries.len());
        assert!(countries.iter().any(|(code, _)| *code == "CA"));
    }
}
