//! The values of AAMVA data elements as the domain wants them: dates in either order,
//! sex codes, names split the ways older versions wrote them, postal codes without the
//! padding cards add.

use time::{Date, Month};

use super::jurisdiction::Country;

/// The years a date on a licence can fall in. Bounding them also settles the order of
/// the digits: a year 18xx-21xx read as MMDD is no month, so exactly one order fits.
const YEARS: std::ops::RangeInclusive<i32> = 1850..=2199;

/// A date of 8 digits, in the order the country writes it (US MMDDCCYY, Canada
/// CCYYMMDD), else in the other order when that is the only one giving a date.
pub fn date(value: &str, country: Option<Country>) -> Option<Date> {
    let digits = value.trim();
    if digits.len() != 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number = |range: std::ops::Range<usize>| digits.get(range)?.parse::<i32>().ok();
    let us = || ymd(number(4..8)?, number(0..2)?, number(2..4)?);
    let canadian = || ymd(number(0..4)?, number(4..6)?, number(6..8)?);
    match country {
        Some(Country::Canada) => canadian().or_else(us),
        _ => us().or_else(canadian),
    }
}

fn ymd(year: i32, month: i32, day: i32) -> Option<Date> {
    if !YEARS.contains(&year) {
        return None;
    }
    let month = Month::try_from(u8::try_from(month).ok()?).ok()?;
    Date::from_calendar_date(year, month, u8::try_from(day).ok()?).ok()
}

/// `M`, `F` or `X` from the numeric code of versions 2 and later (1, 2, 9) or a letter.
pub fn sex(value: &str) -> Option<String> {
    let sex = match value.trim().to_ascii_uppercase().as_str() {
        "1" | "M" => "M",
        "2" | "F" => "F",
        "9" | "X" => "X",
        _ => return None,
    };
    Some(sex.to_owned())
}

/// A name or other text as the card prints it, trimmed; absent when the card says it has
/// none (`NONE`, `UNAVL` are how versions 4 and later fill a mandatory but unknown name).
pub fn text(value: &str) -> Option<String> {
    let value = value.trim();
    let placeholder = ["NONE", "UNAVL", "UNAVAILABLE", "N/A"]
        .iter()
        .any(|p| p.eq_ignore_ascii_case(value));
    (!value.is_empty() && !placeholder).then(|| value.to_owned())
}

/// Given names of versions 2 and 3 (`DCT`): the first, then the others, separated by a
/// comma or a space.
pub fn given_names(value: &str) -> (Option<String>, Option<String>) {
    let value = value.trim();
    let (first, others) = match value.find([',', ' ']) {
        Some(at) => (&value[..at], &value[at + 1..]),
        None => (value, ""),
    };
    (text(first), text(&others.replace(',', " ")))
}

/// The full name of version 1 (`DAA`): family, first, then middle names, separated by
/// commas (some cards use `@` or `$`) or, on a few, by spaces.
pub fn full_name(value: &str) -> (Option<String>, Option<String>, Option<String>) {
    let value = value.trim();
    let separator = [',', '@', '$']
        .into_iter()
        .find(|s| value.contains(*s))
        .unwrap_or(' ');
    let mut parts = value
        .split(separator)
        .map(str::trim)
        .filter(|p| !p.is_empty());
    let last = parts.next().and_then(text);
    let first = parts.next().and_then(text);
    let middle = parts.collect::<Vec<_>>().join(" ");
    (last, first, text(&middle))
}

/// A postal code: a US zip cut to its 5 digits (cards pad it to 9 or 11 with zeros or
/// spaces, or add the +4), a Canadian code uppercased without its space.
pub fn postal(value: &str) -> Option<String> {
    let compact: String = value
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect::<String>()
        .to_ascii_uppercase();
    let zip = compact
        .get(..5)
        .filter(|z| z.bytes().all(|b| b.is_ascii_digit()));
    match zip {
        Some(zip) => Some(zip.to_owned()),
        None => text(&compact),
    }
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    #[test]
    fn dates_read_in_the_country_order_or_the_only_one_that_fits() {
        assert_eq!(
            date("04121990", Some(Country::Usa)),
            Some(date!(1990 - 04 - 12))
        );
        assert_eq!(
            date("19900412", Some(Country::Canada)),
            Some(date!(1990 - 04 - 12))
        );
        // A US card written the Canadian way (version 1 did), and the reverse.
        assert_eq!(
            date("19900412", Some(Country::Usa)),
            Some(date!(1990 - 04 - 12))
        );
        assert_eq!(
            date("04121990", Some(Country::Canada)),
            Some(date!(1990 - 04 - 12))
        );
        assert_eq!(date("04121990", None), Some(date!(1990 - 04 - 12)));
        for bad in ["02301990", "1990041", "0412199O", "", "13011990"] {
            assert_eq!(date(bad, None), None, "{bad}");
        }
    }

    #[test]
    fn sex_names_and_postal_codes_take_what_cards_write() {
        assert_eq!(sex("1").as_deref(), Some("M"));
        assert_eq!(sex(" f").as_deref(), Some("F"));
        assert_eq!(sex("9").as_deref(), Some("X"));
        assert_eq!(sex("0"), None);
        assert_eq!(text(" NONE "), None);
        assert_eq!(text(" ANNE ").as_deref(), Some("ANNE"));
        assert_eq!(
            given_names("ANNE,MARIE LOUISE"),
            (Some("ANNE".into()), Some("MARIE LOUISE".into()))
        );
        assert_eq!(given_names("ANNE"), (Some("ANNE".into()), None));
        assert_eq!(
            full_name("DOE,JOHN,QUINCY"),
            (
                Some("DOE".into()),
                Some("JOHN".into()),
                Some("QUINCY".into())
            )
        );
        assert_eq!(
            full_name("DOE JOHN"),
            (Some("DOE".into()), Some("JOHN".into()), None)
        );
        assert_eq!(postal("958140000  ").as_deref(), Some("95814"));
        assert_eq!(postal("95814-1234").as_deref(), Some("95814"));
        assert_eq!(postal("m5v 2t6").as_deref(), Some("M5V2T6"));
        assert_eq!(postal("   "), None);
    }
}
