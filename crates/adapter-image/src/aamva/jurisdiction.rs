//! Who issued a card, from the issuer identification number (IIN) of its header: the
//! AAMVA list of US and Canadian jurisdictions (and the few others that print AAMVA
//! barcodes).

/// The country whose date order and postal codes a jurisdiction uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Country {
    /// The United States and its territories: dates MMDDCCYY, 5-digit zips.
    Usa,
    /// Canada: dates CCYYMMDD, postal codes such as `M5V2T6`.
    Canada,
    /// Mexico (its states that joined the standard).
    Mexico,
}

impl Country {
    /// The ISO 3166-1 alpha-3 code, as AAMVA's `DCG` writes it.
    pub fn code(self) -> &'static str {
        match self {
            Self::Usa => "USA",
            Self::Canada => "CAN",
            Self::Mexico => "MEX",
        }
    }

    /// The country of a `DCG` value.
    pub fn parse(code: &str) -> Option<Self> {
        [Self::Usa, Self::Canada, Self::Mexico]
            .into_iter()
            .find(|c| c.code().eq_ignore_ascii_case(code.trim()))
    }
}

/// Every IIN the AAMVA list names: (IIN, jurisdiction code, country).
const ISSUERS: [(&str, &str, Country); 73] = [
    ("604426", "PE", Country::Canada),
    ("604427", "AS", Country::Usa),
    ("604428", "QC", Country::Canada),
    ("604429", "YT", Country::Canada),
    ("604430", "MP", Country::Usa),
    ("604431", "PR", Country::Usa),
    ("604432", "AB", Country::Canada),
    ("604433", "NU", Country::Canada),
    ("604434", "NT", Country::Canada),
    ("636000", "VA", Country::Usa),
    ("636001", "NY", Country::Usa),
    ("636002", "MA", Country::Usa),
    ("636003", "MD", Country::Usa),
    ("636004", "NC", Country::Usa),
    ("636005", "SC", Country::Usa),
    ("636006", "CT", Country::Usa),
    ("636007", "LA", Country::Usa),
    ("636008", "MT", Country::Usa),
    ("636009", "NM", Country::Usa),
    ("636010", "FL", Country::Usa),
    ("636011", "DE", Country::Usa),
    ("636012", "ON", Country::Canada),
    ("636013", "NS", Country::Canada),
    ("636014", "CA", Country::Usa),
    ("636015", "TX", Country::Usa),
    ("636016", "NL", Country::Canada),
    ("636017", "NB", Country::Canada),
    ("636018", "IA", Country::Usa),
    ("636019", "GU", Country::Usa),
    ("636020", "CO", Country::Usa),
    ("636021", "AR", Country::Usa),
    ("636022", "KS", Country::Usa),
    ("636023", "OH", Country::Usa),
    ("636024", "VT", Country::Usa),
    ("636025", "PA", Country::Usa),
    ("636026", "AZ", Country::Usa),
    // The US Department of State (diplomats' licences): no state code of its own.
    ("636027", "US", Country::Usa),
    ("636028", "BC", Country::Canada),
    ("636029", "OR", Country::Usa),
    ("636030", "MO", Country::Usa),
    ("636031", "WI", Country::Usa),
    ("636032", "MI", Country::Usa),
    ("636033", "AL", Country::Usa),
    ("636034", "ND", Country::Usa),
    ("636035", "IL", Country::Usa),
    ("636036", "NJ", Country::Usa),
    ("636037", "IN", Country::Usa),
    ("636038", "MN", Country::Usa),
    ("636039", "NH", Country::Usa),
    ("636040", "UT", Country::Usa),
    ("636041", "ME", Country::Usa),
    ("636042", "SD", Country::Usa),
    ("636043", "DC", Country::Usa),
    ("636044", "SK", Country::Canada),
    ("636045", "WA", Country::Usa),
    ("636046", "KY", Country::Usa),
    ("636047", "HI", Country::Usa),
    ("636048", "MB", Country::Canada),
    ("636049", "NV", Country::Usa),
    ("636050", "ID", Country::Usa),
    ("636051", "MS", Country::Usa),
    ("636052", "RI", Country::Usa),
    ("636053", "TN", Country::Usa),
    ("636054", "NE", Country::Usa),
    ("636055", "GA", Country::Usa),
    ("636056", "COA", Country::Mexico),
    ("636057", "HID", Country::Mexico),
    ("636058", "OK", Country::Usa),
    ("636059", "AK", Country::Usa),
    ("636060", "WY", Country::Usa),
    ("636061", "WV", Country::Usa),
    ("636062", "VI", Country::Usa),
    // Alberta's number outside the ISO range, still on older cards.
    ("990876", "AB", Country::Canada),
];

/// The jurisdiction code and country of an IIN, when the list names it.
pub fn issuer(iin: &str) -> Option<(&'static str, Country)> {
    ISSUERS
        .iter()
        .find(|(number, _, _)| *number == iin)
        .map(|&(_, code, country)| (code, country))
}

/// The country of a state or province code, for cards whose header names no known IIN.
pub fn country_of_state(state: &str) -> Option<Country> {
    const PROVINCES: [&str; 13] = [
        "AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT",
    ];
    let state = state.trim();
    if state.len() != 2 {
        return None;
    }
    if PROVINCES.iter().any(|p| p.eq_ignore_ascii_case(state)) {
        Some(Country::Canada)
    } else if state.bytes().all(|b| b.is_ascii_alphabetic()) {
        Some(Country::Usa)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iins_name_their_jurisdiction_and_country() {
        assert_eq!(issuer("636014"), Some(("CA", Country::Usa)));
        assert_eq!(issuer("636012"), Some(("ON", Country::Canada)));
        assert_eq!(issuer("604428"), Some(("QC", Country::Canada)));
        assert_eq!(issuer("636060"), Some(("WY", Country::Usa)));
        assert_eq!(issuer("123456"), None);
        assert_eq!(country_of_state("qc"), Some(Country::Canada));
        assert_eq!(country_of_state("TX"), Some(Country::Usa));
        assert_eq!(Country::parse(" can "), Some(Country::Canada));
    }
}
