//! Value objects for the profile's fields. Each has one `parse` constructor; holding one
//! means the value passed the interface's and the contract's rules. Input is trimmed.

use std::fmt;
use std::net::IpAddr;
use std::sync::LazyLock;

use garde::Validate;
use time::{Date, macros::format_description};

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

use crate::validation::Invalid;

use super::regions;

/// Whether typed text refuses `c`, a character that hides or disguises what the text
/// says, which nothing a person types into a name or an address needs: Unicode's format
/// characters (category Cf: bidirectional controls that make a text show in another
/// order than it reads, zero-width characters that hide inside a name, tags), the line
/// and paragraph separators (a line break inside a one-line field), and the blank
/// letters that show as nothing at all (the Hangul fillers, the blank Braille pattern),
/// of which an invisible signature is made.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c.general_category(),
        GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    ) || matches!(
        c,
        '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{2800}'
    )
}

/// The [`is_invisible`] characters, as inclusive ranges in ascending order (for a
/// schema's pattern). Found once, by asking of every character: the API's document asks
/// for them in each of its text fields' patterns, and every start of the server builds
/// that document (seconds a start, unoptimised, when each asked anew).
pub fn invisible_ranges() -> &'static [(char, char)] {
    static RANGES: LazyLock<Vec<(char, char)>> = LazyLock::new(|| {
        let mut ranges: Vec<(char, char)> = Vec::new();
        for c in (char::MIN..=char::MAX).filter(|c| is_invisible(*c)) {
            match ranges.last_mut() {
                Some((_, end)) if u32::from(*end) + 1 == u32::from(c) => *end = c,
                _ => ranges.push((c, c)),
            }
        }
        ranges
    });
    &RANGES
}

/// Free text of 1 to `MAX` characters without control characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundedText<const MAX: usize>(String);

impl<const MAX: usize> BoundedText<MAX> {
    /// Trimmed text of 1 to `MAX` characters without control characters.
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let text = raw.trim();
        if text.is_empty() {
            return Err(Invalid::new("must not be empty"));
        }
        if text.chars().count() > MAX {
            return Err(Invalid::new(format!("must be at most {MAX} characters")));
        }
        if text.chars().any(char::is_control) {
            return Err(Invalid::new("must not contain control characters"));
        }
        Ok(Self(text.to_owned()))
    }

    /// As [`BoundedText::parse`], for text typed by a person (a merchant's call, a
    /// client's form): without [invisible](is_invisible) characters, and normalised to
    /// NFC, so that one name typed on two keyboards is stored the same way. The length is
    /// counted after normalising. (What was stored is read back with `parse`: a rule
    /// made stricter later must not make stored profiles unreadable.)
    pub fn parse_typed(raw: &str) -> Result<Self, Invalid> {
        // Looked for inside the blanks trimmed around the text (the separators are
        // blanks too): what is trimmed away is never stored.
        if raw.trim().chars().any(is_invisible) {
            return Err(Invalid::new(
                "must not contain invisible characters (bidirectional controls, zero-width characters, separators, blank letters)",
            ));
        }
        Self::parse(&raw.nfc().collect::<String>())
    }

    /// As [`BoundedText::parse_typed`], for text a client types on a public page (an
    /// agreement's name, an address), which a reviewer later reads in a browser: also
    /// without `<` or `>`.
    pub fn parse_plain(raw: &str) -> Result<Self, Invalid> {
        if raw.contains(['<', '>']) {
            return Err(Invalid::new("must be plain text, without < or >"));
        }
        Self::parse_typed(raw)
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Merchant reference, customer id, driver's licence id, address lines: 100 characters.
pub type LongText = BoundedText<100>;
/// First, middle and last names, city: 45 characters.
pub type ShortText = BoundedText<45>;

/// An e-mail address of at most 45 characters. Compared case-insensitively (see [`Email::key`]).
#[derive(Debug, Clone, PartialEq, Eq, Validate)]
#[garde(transparent)]
pub struct Email(#[garde(email, length(chars, max = 45))] String);

impl Email {
    /// An e-mail address of at most 45 characters.
    ///
    /// ```
    /// use domain::profile::Email;
    /// assert_eq!(Email::parse(" ada@example.com ").unwrap().as_str(), "ada@example.com");
    /// assert!(Email::parse("ada@").is_err());
    /// // Compared case-insensitively: the key is what uniqueness is checked on.
    /// assert_eq!(Email::parse("ADA@Example.com").unwrap().key(), "ada@example.com");
    /// ```
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let email = Self(raw.trim().to_owned());
        email
            .validate()
            .map_err(|_| Invalid::new("must be a valid e-mail address of at most 45 characters"))?;
        Ok(email)
    }

    /// An address read back from storage, where only [`Email::parse`]d ones are written.
    /// It is not checked again: its pattern is the costliest check of a profile read, and
    /// a read must not refuse what a write accepted.
    pub fn from_stored(stored: String) -> Self {
        Self(stored)
    }

    /// The address as given (trimmed).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The form used for uniqueness and lookups: two spellings differing only in case
    /// name the same mailbox for every provider a merchant's clients use.
    pub fn key(&self) -> String {
        self.0.to_lowercase()
    }
}

/// A US/Canadian (NANP) number of 10 digits without country code: the area code and the
/// exchange code both start with 2-9.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhoneNumber(String);

impl PhoneNumber {
    /// How many digits a number has.
    const DIGITS: usize = 10;

    /// A 10-digit NANP number (area code and exchange 2-9).
    ///
    /// ```
    /// use domain::profile::PhoneNumber;
    /// assert!(PhoneNumber::parse("4165550123").is_ok());
    /// assert!(PhoneNumber::parse("1165550123").is_err(), "no area code starts with 1");
    /// assert!(PhoneNumber::parse("416555012").is_err(), "ten digits");
    /// ```
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let digits = raw.trim();
        let bytes = digits.as_bytes();
        let nanp = bytes.len() == Self::DIGITS
            && bytes.iter().all(u8::is_ascii_digit)
            && bytes[0] >= b'2'
            && bytes[3] >= b'2';
        if !nanp {
            return Err(Invalid::new(
                "must be a 10-digit US/Canadian number without country code",
            ));
        }
        Ok(Self(digits.to_owned()))
    }

    /// The ten digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether some number could hold `needle` (a search's text): only digits, ten at
    /// most. A search for anything else need not look through the numbers at all.
    ///
    /// ```
    /// use domain::profile::PhoneNumber;
    /// assert!(PhoneNumber::could_hold("5550"));
    /// assert!(!PhoneNumber::could_hold("ada@example.com"));
    /// assert!(!PhoneNumber::could_hold("41655501234"), "eleven digits");
    /// ```
    pub fn could_hold(needle: &str) -> bool {
        needle.len() <= Self::DIGITS && needle.bytes().all(|b| b.is_ascii_digit())
    }
}

/// A real calendar date written `YYYY-MM-DD`. That it lies in the past depends on the
/// clock, so the profile checks it when it is applied ([`DateOfBirth::is_before`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateOfBirth(Date);

impl DateOfBirth {
    /// A real date, `YYYY-MM-DD`.
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let format = format_description!("[year]-[month]-[day]");
        Date::parse(raw.trim(), &format)
            .map(Self)
            .map_err(|_| Invalid::new("must be a real date written YYYY-MM-DD"))
    }

    /// Whether the date is before `today`.
    pub fn is_before(&self, today: Date) -> bool {
        self.0 < today
    }

    /// The date.
    pub fn date(&self) -> Date {
        self.0
    }
}

impl fmt::Display for DateOfBirth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = (self.0.year(), u8::from(self.0.month()), self.0.day());
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

/// An IPv4 or IPv6 address, kept in its canonical text form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IpAddress(IpAddr);

impl IpAddress {
    /// An IPv4 or IPv6 address.
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        raw.trim()
            .parse()
            .map(Self)
            .map_err(|_| Invalid::new("must be an IPv4 or IPv6 address"))
    }
}

impl fmt::Display for IpAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// An ISO 3166-1 alpha-2 country code, upper-cased.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Country(String);

impl Country {
    /// Two letters: a state or province (checked against its country for US and CA).
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let code = raw.trim().to_ascii_uppercase();
        if !regions::is_country(&code) {
            return Err(Invalid::new("must be an ISO 3166-1 alpha-2 country code"));
        }
        Ok(Self(code))
    }

    /// The two letters, upper case.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A two-letter state or province code, upper-cased. Whether it belongs to the profile's
/// country is checked on the whole address ([`State::belongs_to`]), since either may change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State(String);

impl State {
    /// An ISO 3166-1 alpha-2 code.
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let code = raw.trim().to_ascii_uppercase();
        if code.len() != 2 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(Invalid::new("must be a two-letter code"));
        }
        Ok(Self(code))
    }

    /// The two letters, upper case.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// False only where we know the country's subdivisions (US, CA) and this is not one.
    pub fn belongs_to(&self, country: &Country) -> bool {
        regions::is_subdivision(country.as_str(), &self.0).unwrap_or(true)
    }
}

/// A postal or zip code: 1 to 10 letters, digits, spaces or hyphens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Postal(String);

impl Postal {
    /// 1 to 10 letters, digits, spaces or hyphens.
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let code = raw.trim();
        let ok = (1..=10).contains(&code.len())
            && code
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b' ' || b == b'-');
        if !ok {
            return Err(Invalid::new(
                "must be 1 to 10 letters, digits, spaces or hyphens",
            ));
        }
        Ok(Self(code.to_ascii_uppercase()))
    }

    /// The code as given (trimmed).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A social security / social insurance number: exactly 9 digits. Its `Debug` shows only
/// the last four, so a stray `{:?}` in a log never carries one.
#[derive(Clone, PartialEq, Eq)]
pub struct Ssn(String);

impl fmt::Debug for Ssn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let last = self
            .0
            .get(self.0.len().saturating_sub(4)..)
            .unwrap_or_default();
        write!(f, "Ssn(*****{last})")
    }
}

impl Ssn {
    /// Exactly 9 digits.
    ///
    /// ```
    /// use domain::profile::Ssn;
    /// let ssn = Ssn::parse("123456789").unwrap();
    /// assert_eq!(format!("{ssn:?}"), "Ssn(*****6789)", "Debug never shows it whole");
    /// assert!(Ssn::parse("12345678X").is_err());
    /// ```
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let digits = raw.trim();
        if digits.len() != 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(Invalid::new("must be exactly 9 digits"));
        }
        Ok(Self(digits.to_owned()))
    }

    /// The nine digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A non-negative amount with at most two decimals, held exactly in cents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Amount(i64);

impl Amount {
    /// The largest amount accepted: 13 integer digits keeps every value exact in cents.
    const MAX_INTEGER_DIGITS: usize = 13;

    /// Parses the decimal text of a JSON number or string (`"125.5"`, `125.50`, `"7"`).
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let invalid = || Invalid::new("must be a non-negative number with at most two decimals");
        let text = raw.trim();
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        let digits_only = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty()
            || whole.len() > Self::MAX_INTEGER_DIGITS
            || !digits_only(whole)
            || fraction.len() > 2
            || !digits_only(fraction)
            || (text.contains('.') && fraction.is_empty())
        {
            return Err(invalid());
        }
        let whole: i64 = whole.parse().map_err(|_| invalid())?;
        let cents: i64 = format!("{fraction:0<2}").parse().map_err(|_| invalid())?;
        Ok(Self(whole * 100 + cents))
    }

    /// An amount read back from storage, in cents.
    pub fn from_cents(cents: i64) -> Self {
        Self(cents)
    }

    /// The amount in cents.
    pub fn cents(&self) -> i64 {
        self.0
    }
}

impl fmt::Display for Amount {
    /// Always two decimals: `125.50`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:02}", self.0 / 100, self.0 % 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn an_ssn_never_shows_whole_in_debug_output() {
        let ssn = Ssn::parse("123456789").expect("valid");
        assert_eq!(format!("{ssn:?}"), "Ssn(*****6789)");
    }

    #[test]
    fn text_typed_by_a_client_refuses_markup() {
        assert!(ShortText::parse_plain("Ada Lovelace").is_ok());
        assert!(LongText::parse_plain("1 Main St, Apt 2").is_ok());
        for markup in ["<b>Ada</b>", "Ada <script>", "a > b", "\"><img src=x>"] {
            assert!(ShortText::parse_plain(markup).is_err(), "{markup}");
        }
        assert!(
            ShortText::parse_plain("Ada\u{7}").is_err(),
            "control characters too"
        );
    }

    #[test]
    fn text_typed_by_a_client_refuses_format_characters() {
        for hidden in [
            "Ada\u{202E}ecalevoL",
            "Ada\u{2066}x\u{2069}",
            "Ada\u{200B}Lovelace",
            "Ada\u{200D}",
            "\u{FEFF}Ada",
            "Ada\u{2060}",
            "Ada\u{200F}",
            "Ada\u{061C}",
            "Ada\u{2028}Lovelace",
            "Ada\u{2029}Lovelace",
            "\u{3164}",
            "Ada \u{2800}",
            "\u{115F}\u{1160}",
            "Ada\u{E0041}",
        ] {
            assert!(ShortText::parse_plain(hidden).is_err(), "{hidden:?}");
            assert!(ShortText::parse_typed(hidden).is_err(), "{hidden:?}");
        }
        assert!(ShortText::parse_plain("Zoë Ødegård-Łukasz").is_ok());
        assert!(ShortText::parse_typed("김민준 O'Brien").is_ok());
        // What was stored before a rule grew stricter still reads.
        assert!(ShortText::parse("Ada\u{2800}").is_ok());
    }

    #[test]
    fn the_invisible_ranges_hold_exactly_the_invisible_characters() {
        let ranges = invisible_ranges();
        assert!(
            ranges
                .windows(2)
                .all(|w| u32::from(w[0].1) + 1 < u32::from(w[1].0))
        );
        for c in [
            '\u{200B}',
            '\u{202E}',
            '\u{2028}',
            '\u{3164}',
            '\u{2800}',
            '\u{E0041}',
        ] {
            assert!(ranges.iter().any(|(a, b)| (*a..=*b).contains(&c)), "{c:?}");
        }
        for c in ['a', ' ', 'é', '김', '\u{00A0}'] {
            assert!(!ranges.iter().any(|(a, b)| (*a..=*b).contains(&c)), "{c:?}");
        }
    }

    #[test]
    fn text_typed_by_a_client_is_stored_composed() {
        let typed = ShortText::parse_plain("Rene\u{301}e").expect("valid");
        assert_eq!(typed.as_str(), "Ren\u{E9}e");
        // Counted once composed: 45 decomposed "é" are 45 characters, not 90.
        assert!(ShortText::parse_plain(&"e\u{301}".repeat(45)).is_ok());
    }

    #[test]
    fn bounded_text_counts_characters_not_bytes() {
        assert!(ShortText::parse(&"é".repeat(45)).is_ok());
        assert!(ShortText::parse(&"é".repeat(46)).is_err());
        assert!(LongText::parse(&"a".repeat(100)).is_ok());
        assert!(LongText::parse(&"a".repeat(101)).is_err());
    }

    #[test]
    fn bounded_text_is_trimmed_and_refuses_blank_or_control_characters() {
        assert_eq!(
            ShortText::parse("  Ada ").map(|t| t.as_str().to_owned()),
            Ok("Ada".into())
        );
        assert!(ShortText::parse("   ").is_err());
        assert!(ShortText::parse("A\u{0}da").is_err());
    }

    #[test]
    fn email_needs_valid_syntax_and_at_most_45_characters() {
        assert!(Email::parse("ada@example.com").is_ok());
        assert!(Email::parse("not-an-email").is_err());
        assert!(Email::parse("a@b@example.com").is_err());
        let at_length = |n: usize| format!("{}@example.com", "a".repeat(n - 12));
        assert!(Email::parse(&at_length(45)).is_ok());
        assert!(Email::parse(&at_length(46)).is_err());
    }

    #[test]
    fn email_key_ignores_case() {
        let a = Email::parse("Ada@Example.COM").expect("valid");
        let b = Email::parse("ada@example.com").expect("valid");
        assert_eq!(a.key(), b.key());
        assert_eq!(a.as_str(), "Ada@Example.COM", "kept as written");
    }

    #[test]
    fn phone_numbers_follow_the_nanp_plan() {
        assert!(PhoneNumber::parse("4165550123").is_ok());
        assert!(
            PhoneNumber::parse("1165550123").is_err(),
            "area code starts 0/1"
        );
        assert!(
            PhoneNumber::parse("4161550123").is_err(),
            "exchange starts 0/1"
        );
        assert!(PhoneNumber::parse("416555012").is_err(), "9 digits");
        assert!(PhoneNumber::parse("41655501234").is_err(), "11 digits");
        assert!(PhoneNumber::parse("416-555-01").is_err());
    }

    #[test]
    fn date_of_birth_is_a_real_past_date() {
        let today = date!(2026 - 11 - 22);
        assert!(DateOfBirth::parse("1990-02-30").is_err(), "no such day");
        assert!(DateOfBirth::parse("1990-2-3").is_err(), "not YYYY-MM-DD");
        let parse = |s| DateOfBirth::parse(s).expect("real date");
        assert!(parse("1990-02-28").is_before(today));
        assert!(!parse("2026-11-22").is_before(today), "today");
        assert!(!parse("2030-01-01").is_before(today), "future");
        let dob = parse("0990-01-02");
        assert_eq!(dob.to_string(), "0990-01-02");
    }

    #[test]
    fn ip_addresses_of_both_families_are_accepted() {
        assert!(IpAddress::parse("203.0.113.9").is_ok());
        assert_eq!(
            IpAddress::parse("2001:DB8::1").map(|ip| ip.to_string()),
            Ok("2001:db8::1".to_owned())
        );
        assert!(IpAddress::parse("256.1.1.1").is_err());
    }

    #[test]
    fn countries_are_iso_codes_and_states_belong_to_them() {
        let ca = Country::parse("ca").expect("valid");
        assert_eq!(ca.as_str(), "CA");
        assert!(Country::parse("XX").is_err());
        assert!(Country::parse("CAN").is_err());
        let us = Country::parse("US").expect("valid");
        let on = State::parse("on").expect("two letters");
        assert!(on.belongs_to(&ca));
        assert!(!on.belongs_to(&us));
        assert!(State::parse("NY").expect("valid").belongs_to(&us));
        let fr = Country::parse("FR").expect("valid");
        assert!(on.belongs_to(&fr), "subdivisions elsewhere are not checked");
        assert!(State::parse("O1").is_err());
    }

    #[test]
    fn postal_codes_and_ssn_have_their_shapes() {
        assert_eq!(
            Postal::parse("m5v 2t6").map(|p| p.as_str().to_owned()),
            Ok("M5V 2T6".into())
        );
        assert!(Postal::parse("12345-6789").is_ok());
        assert!(Postal::parse("12345678901").is_err());
        assert!(Postal::parse("12<45").is_err());
        assert!(Ssn::parse("123456789").is_ok());
        assert!(Ssn::parse("12345678").is_err());
        assert!(Ssn::parse("12345678a").is_err());
    }

    #[test]
    fn amounts_are_exact_with_two_decimals() {
        assert_eq!(
            Amount::parse("125.5").map(|a| a.to_string()),
            Ok("125.50".into())
        );
        assert_eq!(Amount::parse("0.07").map(|a| a.cents()), Ok(7));
        assert_eq!(
            Amount::parse("42").map(|a| a.to_string()),
            Ok("42.00".into())
        );
        assert!(Amount::parse("-1").is_err());
        assert!(Amount::parse("1.234").is_err());
        assert!(Amount::parse("1.").is_err());
        assert!(Amount::parse(".5").is_err());
        assert!(Amount::parse("1e3").is_err());
        assert!(Amount::parse("abc").is_err());
        assert!(
            Amount::parse("99999999999999").is_err(),
            "14 integer digits"
        );
    }
}
