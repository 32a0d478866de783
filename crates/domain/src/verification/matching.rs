//! Comparing what a document says with what the client or the merchant typed: names
//! without case, accents, punctuation or middle names; addresses on state and postal code,
//! the street loosely. Documents print names and streets their own way ("O'NEIL" for
//! "O'Neil", "ST" for "Street"), and an MRZ read by OCR garbles its `<` fillers, so exact
//! comparison would fail honest clients.

use unicode_normalization::UnicodeNormalization;

/// `text` folded for comparison: accents removed, lowercase, letters and digits only,
/// words kept apart by single spaces.
pub(super) fn fold(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    let mut gap = false;
    for c in text.nfd() {
        if c.is_alphanumeric() {
            if gap && !folded.is_empty() {
                folded.push(' ');
            }
            gap = false;
            folded.extend(c.to_lowercase());
        } else if c.is_whitespace() || c == '-' || c == ',' || c == '<' {
            gap = true;
        }
        // Combining accents and other punctuation (apostrophes, dots) vanish in place:
        // "O'Neil" is "oneil", "Zoë" is "zoe".
    }
    folded
}

/// `text` folded and without spaces: "Smith-Jones" and "SMITH JONES" are one name.
pub(super) fn squeezed(text: &str) -> String {
    fold(text).replace(' ', "")
}

/// The first word of a folded name: a middle name typed with the first is ignored.
pub(super) fn first_word(text: &str) -> String {
    fold(text).split(' ').next().unwrap_or_default().to_owned()
}

/// Whether a barcode's names are the client's: the first given names and the whole last
/// names agree once folded.
pub fn names_agree(typed_first: &str, typed_last: &str, read_first: &str, read_last: &str) -> bool {
    let first = first_word(typed_first);
    !first.is_empty()
        && first == first_word(read_first)
        && squeezed(typed_last) == squeezed(read_last)
}

/// Whether an MRZ's name line holds the client's names, loosely: OCR may turn a run of
/// `<` fillers into letters and split the line in the wrong place, so each typed name
/// must only appear, folded, within the whole read name. The check digits, not the name
/// line, prove the zone was read right.
pub fn names_appear_in(typed_first: &str, typed_last: &str, read_whole: &str) -> bool {
    let whole = squeezed(read_whole);
    let first = first_word(typed_first);
    let last = squeezed(typed_last);
    !first.is_empty() && !last.is_empty() && whole.contains(&last) && whole.contains(&first)
}

/// An address as far as matching goes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AddressParts {
    /// The street line.
    pub street: String,
    /// The city, when known: shown beside what was read, never compared (the street and
    /// the postal code already say where, and a city is written in too many ways).
    pub city: Option<String>,
    /// The state or province code, when there is one.
    pub state: Option<String>,
    /// The postal or zip code.
    pub postal: String,
}

impl AddressParts {
    /// The parts of an address in its one-line form ("1 Main St, Apt 2, Toronto, ON M5V
    /// 2T6, CA"), read from the end, where the form is fixed; `None` if it is not that form.
    pub fn of_one_line(line: &str) -> Option<Self> {
        let parts: Vec<&str> = line.split(", ").collect();
        let [street, .., region, _country] = parts.as_slice() else {
            return None;
        };
        if parts.len() < 4 {
            return None;
        }
        let (state, postal) = match region.split_once(' ') {
            Some((state, postal))
                if state.len() == 2 && state.chars().all(|c| c.is_ascii_uppercase()) =>
            {
                (Some(state.to_owned()), postal.to_owned())
            }
            _ => (None, (*region).to_owned()),
        };
        Some(Self {
            street: (*street).to_owned(),
            // After the street (and its second line): the city.
            city: Some(parts[parts.len() - 3].to_owned()),
            state,
            postal,
        })
    }
}

/// Postal codes compared without spaces or case, a US zip on its first five digits (a
/// card prints the ZIP+4, a client types five).
pub(super) fn postal_key(postal: &str) -> String {
    let key = squeezed(postal);
    match key.len() >= 5 && key.chars().all(|c| c.is_ascii_digit()) {
        true => key[..5].to_owned(),
        false => key,
    }
}

/// Street words as the postal services abbreviate them.
const ABBREVIATIONS: [(&str, &str); 16] = [
    ("street", "st"),
    ("avenue", "ave"),
    ("road", "rd"),
    ("boulevard", "blvd"),
    ("drive", "dr"),
    ("lane", "ln"),
    ("court", "ct"),
    ("place", "pl"),
    ("apartment", "apt"),
    ("suite", "ste"),
    ("north", "n"),
    ("south", "s"),
    ("east", "e"),
    ("west", "w"),
    ("highway", "hwy"),
    ("rue", "r"),
];

fn street_words(street: &str) -> Vec<String> {
    fold(street)
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(|w| {
            ABBREVIATIONS
                .iter()
                .find(|(long, _)| *long == w)
                .map_or(w, |(_, short)| short)
                .to_owned()
        })
        .collect()
}

/// Whether two street lines are the same street, loosely: the same house number, and
/// most of the shorter line's words in the longer one once abbreviated alike.
pub(super) fn streets_agree(typed: &str, read: &str) -> bool {
    let (typed, read) = (street_words(typed), street_words(read));
    let number = |words: &[String]| {
        words
            .iter()
            .find(|w| w.chars().any(|c| c.is_ascii_digit()))
            .cloned()
    };
    if number(&typed) != number(&read) {
        return false;
    }
    let (short, long) = match typed.len() <= read.len() {
        true => (&typed, &read),
        false => (&read, &typed),
    };
    let shared = short.iter().filter(|w| long.contains(w)).count();
    !short.is_empty() && shared * 2 >= short.len()
}

/// Whether the address read is the one typed: the state and the postal code must agree,
/// the street only loosely.
pub fn addresses_agree(typed: &AddressParts, read: &AddressParts) -> bool {
    let states_agree = match (&typed.state, &read.state) {
        (Some(typed), Some(read)) => typed.eq_ignore_ascii_case(read),
        (None, None) => true,
        _ => false,
    };
    states_agree
        && postal_key(&typed.postal) == postal_key(&read.postal)
        && streets_agree(&typed.street, &read.street)
}

/// Document numbers compared without spaces, dashes or case.
pub fn numbers_agree(typed: &str, read: &str) -> bool {
    let key = squeezed(typed);
    !key.is_empty() && key == squeezed(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_agree_without_case_accents_punctuation_or_middle_names() {
        assert!(names_agree("Zoë Ann", "O'Neil-Smith", "ZOE", "ONEIL SMITH"));
        assert!(names_agree("jean", "Dupont", "JEAN", "DUPONT"));
        assert!(!names_agree("Jean", "Dupont", "JEANNE", "DUPONT"));
        assert!(!names_agree("Jean", "Dupont", "JEAN", "DUPOND"));
        assert!(!names_agree("", "Dupont", "", "DUPONT"));
    }

    #[test]
    fn an_mrz_name_line_is_searched_loosely_for_both_names() {
        assert!(names_appear_in(
            "Anna Maria",
            "Eriksson",
            "ERIKSSON<<ANNA<MARIA<<<<"
        ));
        // Fillers read as letters, the split in the wrong place: still the client.
        assert!(names_appear_in(
            "Anna",
            "Eriksson",
            "ERIKSSONKKANNA<MARIAKKK"
        ));
        assert!(!names_appear_in("Anna", "Larsson", "ERIKSSON<<ANNA<MARIA"));
        assert!(!names_appear_in("", "Eriksson", "ERIKSSON<<ANNA"));
    }

    #[test]
    fn a_one_line_address_is_read_from_its_end() {
        let parts = AddressParts::of_one_line("1 Main St, Apt 2, Toronto, ON M5V 2T6, CA")
            .expect("the one-line form");
        assert_eq!(parts.street, "1 Main St");
        assert_eq!(parts.city.as_deref(), Some("Toronto"));
        assert_eq!(parts.state.as_deref(), Some("ON"));
        assert_eq!(parts.postal, "M5V 2T6");
        let no_state = AddressParts::of_one_line("9 Rue X, Lyon, 69001, FR").expect("form");
        assert_eq!((no_state.state, no_state.postal.as_str()), (None, "69001"));
        assert_eq!(no_state.city.as_deref(), Some("Lyon"));
        assert_eq!(AddressParts::of_one_line("somewhere"), None);
    }

    #[test]
    fn addresses_agree_on_state_and_postal_code_and_loosely_on_the_street() {
        let typed = AddressParts {
            street: "1234 North Main Street".into(),
            city: Some("San Francisco".into()),
            state: Some("CA".into()),
            postal: "94105".into(),
        };
        let read = AddressParts {
            street: "1234 N MAIN ST".into(),
            city: None,
            state: Some("ca".into()),
            postal: "941051234".into(),
        };
        assert!(addresses_agree(&typed, &read));
        let other_number = AddressParts {
            street: "1236 N MAIN ST".into(),
            ..read.clone()
        };
        assert!(!addresses_agree(&typed, &other_number));
        let other_state = AddressParts {
            state: Some("NV".into()),
            ..read.clone()
        };
        assert!(!addresses_agree(&typed, &other_state));
        let other_zip = AddressParts {
            postal: "94106".into(),
            ..read.clone()
        };
        assert!(!addresses_agree(&typed, &other_zip));
        let other_street = AddressParts {
            street: "1234 ELM ROAD WEST".into(),
            ..read
        };
        assert!(!addresses_agree(&typed, &other_street));
    }

    #[test]
    fn document_numbers_agree_without_dashes_or_case() {
        assert!(numbers_agree("d123-456-789", "D123456789"));
        assert!(!numbers_agree("D123456789", "D123456780"));
        assert!(!numbers_agree("", ""));
    }
}
