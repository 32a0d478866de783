//! ISO 3166 codes the profile rules need. The lists are data from the standard (ISO 3166-1
//! alpha-2, officially assigned codes; ISO 3166-2 for the US and Canada), not logic.

const COUNTRIES: &str = "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ \
BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE \
DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR \
GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP \
KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT \
MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW \
PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG \
TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW";

/// The 50 states, the District of Columbia and the outlying areas with ISO 3166-2:US codes.
const US_SUBDIVISIONS: &str = "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI \
MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC AS GU MP PR \
UM VI";

/// The 10 provinces and 3 territories.
const CA_SUBDIVISIONS: &str = "AB BC MB NB NL NS NT NU ON PE QC SK YT";

fn listed(list: &str, code: &str) -> bool {
    code.len() == 2 && list.split_ascii_whitespace().any(|c| c == code)
}

pub(crate) fn is_country(code: &str) -> bool {
    listed(COUNTRIES, code)
}

/// Every ISO 3166-1 alpha-2 code a profile's `country` may hold, upper case.
pub fn countries() -> impl Iterator<Item = &'static str> {
    COUNTRIES.split_ascii_whitespace()
}

/// `Some(answer)` for countries whose subdivisions we know, `None` otherwise.
pub(crate) fn is_subdivision(country: &str, state: &str) -> Option<bool> {
    match country {
        "US" => Some(listed(US_SUBDIVISIONS, state)),
        "CA" => Some(listed(CA_SUBDIVISIONS, state)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lists_hold_what_the_standard_assigns() {
        assert_eq!(COUNTRIES.split_ascii_whitespace().count(), 249);
        assert_eq!(US_SUBDIVISIONS.split_ascii_whitespace().count(), 57);
        assert_eq!(CA_SUBDIVISIONS.split_ascii_whitespace().count(), 13);
    }
}
