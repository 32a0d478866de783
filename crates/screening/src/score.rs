//! The score of a name against another, 0-100, and what the date of birth and country
//! take off it.
//!
//! OFAC's own search is the reference: Jaro-Winkler per name part, helped by a phonetic
//! code. Here the parts of both names are paired regardless of order (the best pairs
//! first), each pair scores its similarity, and the name's score is the pairs' mean, less
//! a little for each part one side has and the other lacks (a middle name). A pair that
//! is not the same word is stretched down hard below 0.9, so that a different given name
//! ("John" and "Mary" Smith) costs half the score rather than a few points. Two words
//! that are both names of the list ("Tang" and "Tan") are two names however close, unless
//! they are one spelling of it ("Bourke" and "Burke"): that is what keeps people who are
//! not on a list from being flagged by a listed name a letter or a vowel from theirs.

use crate::entry::BirthDate;
use crate::index::IdMap;
use crate::names::{Kind, Name, Token, sound_alike, spelling};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::LazyLock;
use time::Date;

/// What the subject's initial scores against a list's word starting with its letter
/// ("J." typed by the client and "John" on the list): below any full word's match, since
/// "J." is as much Jane as John. With the surname the same, "J. Smith" against "John
/// Smith" scores 93: a hit at the default threshold 90, which is what screening wants of
/// a client's name written with initials (the contract's "matching survives initials").
const INITIAL_SIMILARITY: f64 = 0.85;

/// What the list's initial scores against the subject's full word starting with its
/// letter ("A." on the list and the client's "Antonio"): less than the other way round,
/// and not a good pair ([`GOOD_PAIR`]). An alias of an initial and a surname ("A.
/// Porzio") is what OFAC calls a weak AKA: it names everyone of that surname and that
/// initial, so a client who gives a full given name ("Antonio Porzio", "Anna Porzio")
/// scores 85 against it: below the default threshold 90, a hit only for a merchant who
/// asked for the most (80-85). The client's own initial is kept at
/// [`INITIAL_SIMILARITY`]: a client who writes "J. Smith" says no more, and must still
/// be found as the listed "John Smith".
const LISTED_INITIAL_SIMILARITY: f64 = 0.70;

/// What a pair of an initial and a word counts for among the good pairs that make extra
/// words cheap ([`EXTRA_WORD_PENALTY`]): half a word. "J. Smith" and "John William
/// Smith" have one and a half, so the extra word costs [`SINGLE_MATCH_EXTRA_PENALTY`]
/// (78: the initial, one word and one more unknown are weak evidence); "J. W. Smith" and
/// "John William Smith" need no extra word (90). The same initial on both sides is a
/// whole pair: "J. Robert Smith" and "J. Smith" write the same name, a middle name
/// apart.
const INITIAL_PAIR_WEIGHT: f64 = 0.5;

/// What two words that sound alike (a shared Double Metaphone code) score at least, when
/// Jaro-Winkler already finds them close (at least [`SOUND_ALIKE_FLOOR`]): the usual
/// transliteration variants (Mohammed and Muhammad, Yevgeny and Evgeny, Smith and Smyth)
/// come out at 0.85-0.95 in Jaro-Winkler alone, and should cost as little as a typo.
const SOUND_ALIKE_SIMILARITY: f64 = 0.93;

/// The Jaro-Winkler similarity two words need before sounding alike helps: Double
/// Metaphone drops vowels, so "John", "Jane" and "Juan" share a code (JN) and would
/// otherwise be one name. John and Joan (0.87) are helped; John and Jane (0.70) not.
const SOUND_ALIKE_FLOOR: f64 = 0.80;

/// Below this a pair's similarity is stretched down ([`STRETCH`] times the gap): Jaro-
/// Winkler gives unrelated names 0.5-0.75, which averaged with a matching surname would
/// leave two different people at 80 or more.
const STRETCH_FROM: f64 = 0.90;

/// How many times the gap below [`STRETCH_FROM`] is taken off: 0.85 becomes 0.7, 0.8
/// becomes 0.5, 0.7 becomes 0.1. Three times, so that a third word that differs
/// ("Muhammad Ali Hassan" and "Muhammad Ali Khan", Jaro-Winkler 0.75) leaves two
/// people below 80 even with two words in common.
const STRETCH: f64 = 3.0;

/// A pair at least this similar is a good pair, one that shows the same person.
const GOOD_PAIR: f64 = 0.85;

/// Jaro-Winkler's bonus for a common prefix rates a short word high against a longer one
/// it begins ("Levsi" and "Levshamir" 0.91, "Hata" and "Hatana"): each letter of length
/// difference past the first takes this share of the longer word off ("Levsi" and
/// "Levshamir" lose 0.17, "Yevgeniy" and "Evgeny" 0.06, which sound alike anyway).
const LENGTH_GAP_PENALTY: f64 = 0.5;

/// Points off for each word one name has that the other lacks, when at least two good
/// pairs matched: a middle name, a second surname, a kunya. Small, since lists and
/// documents drop them at will.
const EXTRA_WORD_PENALTY: f64 = 3.0;

/// The most [`EXTRA_WORD_PENALTY`] takes off, however many extra words: a list's full
/// Arabic name has five or six parts where a passport has two.
const EXTRA_WORDS_CAP: f64 = 9.0;

/// Points off for each extra word when fewer than two good pairs matched: one word in
/// common ("Smith" and "John Smith") is weak evidence. 15 leaves it at 85, a hit only for
/// a merchant who asked for the most (threshold 80-85), and shows a mononym on a list
/// ("Suharto") to those merchants against "Mohamed Suharto".
const SINGLE_MATCH_EXTRA_PENALTY: f64 = 15.0;

/// Points off when both dates of birth are known and none of the list's agrees (same
/// year when the list gives only the year, same day otherwise). 15 turns a perfect name
/// (100) into 85: below the default threshold 90, so a namesake born another year is not
/// a hit there, but still a hit for a merchant at 80-85, since lists' dates are often
/// approximate or wrong. A date that agrees adds nothing: the score stays the name's.
pub(crate) const DATE_OF_BIRTH_MISMATCH_PENALTY: f64 = 15.0;

/// Points off when both countries are known and none of the list's is the subject's:
/// only a tie-breaker, since people move and lists mix nationality, residence and
/// address. 3 reorders hits without making or unmaking one on its own, unless the name
/// was just at the threshold.
pub(crate) const COUNTRY_MISMATCH_PENALTY: f64 = 3.0;

/// The most two different words both found on the list score ([`similarity`]): two
/// names the list itself tells apart ("Tang" and "Tan", "Michael" and "Michelle", "Meng"
/// and "Ming") are two people's, not one name misspelt. Below [`GOOD_PAIR`], so that a
/// two-word name with one such word scores 80 at most: a hit only for a merchant who
/// asked for the most.
const KNOWN_APART_SIMILARITY: f64 = 0.6;

/// The fewest letters the longer of two words the list knows apart has for one
/// [`spelling`] to make them one name: short names one vowel apart are other names
/// ("Zhou" and "Zhu", "Xue" and "Xu", "Hou" and "Hu" are different Chinese surnames).
const SPELLING_VARIANT_LETTERS: usize = 5;

/// Joining two neighbouring words of one name ("abdul"+"rahman") is kept when the joined
/// form is at least this close to a word of the other name ("abdulrahman"), and closer
/// than either half alone.
const JOIN_SIMILARITY: f64 = 0.92;

/// Similarities of the subject's words to the list's words met so far in one screening:
/// a screening's candidates share their common words (that is why they are candidates),
/// so most pairs come back hundreds of times. Keyed by the subject's token index (at most
/// 31) and the list word's number in the index.
#[derive(Debug, Default)]
pub(crate) struct Memo(IdMap<f64>);

/// How many bits of a memo's key the list word's number takes.
const MEMO_WORD_BITS: u32 = 27;

/// A word of a name as scored: a token, or neighbouring tokens joined.
#[derive(Debug)]
struct Unit<'a> {
    /// The token's index in its name, when the unit is one token.
    index: Option<usize>,
    text: Cow<'a, str>,
    /// The token's codes, when the unit is one token (joined units have none: Jaro-
    /// Winkler alone, not worth a Double Metaphone per candidate).
    token: Option<&'a Token>,
    initial: bool,
}

/// Articles written fused to the word after them ("Alrahman", "Elamin").
fn without_article(text: &str) -> &str {
    match text.get(..2) {
        Some("al" | "el") if text.len() > 4 => &text[2..],
        _ => text,
    }
}

/// Jaro-Winkler less [`LENGTH_GAP_PENALTY`], the better of the words as written and
/// without a fused article.
fn jaro_winkler(a: &str, b: &str) -> f64 {
    let measure = |a: &str, b: &str| {
        let gap =
            a.len().abs_diff(b.len()).saturating_sub(1) as f64 / a.len().max(b.len()).max(1) as f64;
        strsim::jaro_winkler(a, b) - LENGTH_GAP_PENALTY * gap
    };
    let direct = measure(a, b);
    let (a2, b2) = (without_article(a), without_article(b));
    if a2.len() == a.len() && b2.len() == b.len() {
        direct
    } else {
        direct.max(measure(a2, b2))
    }
}

/// How alike the subject's unit `a` and the list's unit `b` are, 0-1, stretched
/// ([`STRETCH`]); an initial of the list's against a word of the subject's scores less
/// than the other way round ([`LISTED_INITIAL_SIMILARITY`]).
fn similarity(a: &Unit<'_>, b: &Unit<'_>) -> f64 {
    if a.text == b.text {
        return 1.0;
    }
    if a.initial || b.initial {
        return if a.text.as_bytes().first() != b.text.as_bytes().first() {
            0.0
        } else if b.initial && !a.initial {
            LISTED_INITIAL_SIMILARITY
        } else {
            INITIAL_SIMILARITY
        };
    }
    let mut s = jaro_winkler(&a.text, &b.text);
    if let (Some(x), Some(y)) = (a.token, b.token)
        && x.word != 0
        && y.word != 0
    {
        let long = a.text.len().max(b.text.len()) >= SPELLING_VARIANT_LETTERS;
        return if long && spelling(&a.text) == spelling(&b.text) {
            s.max(SOUND_ALIKE_SIMILARITY)
        } else {
            stretched(s).min(KNOWN_APART_SIMILARITY)
        };
    }
    if s >= SOUND_ALIKE_FLOOR
        && let (Some(x), Some(y)) = (a.token, b.token)
        && sound_alike(x, y)
    {
        s = s.max(SOUND_ALIKE_SIMILARITY);
    }
    stretched(s)
}

/// `s` stretched down below [`STRETCH_FROM`].
fn stretched(s: f64) -> f64 {
    if s >= STRETCH_FROM {
        s
    } else {
        (s - STRETCH * (STRETCH_FROM - s)).max(0.0)
    }
}

/// Whether `left` and `right` joined are worth keeping against `other`: whether a word of
/// `other` of about the joined length, starting with the same letter (what nearly every
/// compound shares with its spelling apart; the test is run on every candidate), is
/// close to the joined form, closer than to either half.
fn worth_joining(left: &str, right: &str, other: &Name) -> Option<String> {
    let length = left.len() + right.len();
    let first = left.as_bytes().first();
    let mut words = other.tokens.iter().filter(|t| {
        t.kind == Kind::Word
            && t.text.len() + 2 >= length
            && t.text.len() <= length + 2
            && t.text.as_bytes().first() == first
    });
    let mut joined = None;
    words
        .any(|word| {
            let w = &*word.text;
            let joined = joined.get_or_insert_with(|| format!("{left}{right}"));
            let s = jaro_winkler(joined, w);
            s >= JOIN_SIMILARITY && s > jaro_winkler(left, w) && s > jaro_winkler(right, w)
        })
        .then(|| joined.unwrap_or_default())
}

/// The units of `name` against `other`: its words and initials, neighbours of a segment
/// joined where `other` writes them as one word, particles dropped unless joined.
fn units<'a>(name: &'a Name, other: &Name) -> Vec<Unit<'a>> {
    let tokens = &name.tokens;
    let mut units = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let first = &tokens[i];
        let mut text: Cow<'a, str> = Cow::Borrowed(&first.text);
        let mut j = i + 1;
        if first.kind != Kind::Initial {
            while let Some(next) = tokens.get(j) {
                if next.segment != first.segment || next.kind == Kind::Initial {
                    break;
                }
                let Some(joined) = worth_joining(&text, &next.text, other) else {
                    break;
                };
                text = Cow::Owned(joined);
                j += 1;
            }
        }
        if j > i + 1 {
            units.push(Unit {
                index: None,
                text,
                token: None,
                initial: false,
            });
        } else if first.counts() {
            units.push(Unit {
                index: Some(i),
                text,
                token: Some(first),
                initial: first.kind == Kind::Initial,
            });
        }
        i = j;
    }
    units
}

/// The memo's key for a subject's token and a list's word, if both fit.
fn memo_key(subject: &Unit<'_>, listed: &Unit<'_>) -> Option<u32> {
    let index = u32::try_from(subject.index?).ok().filter(|i| *i < 32)?;
    let word = listed.token?.word;
    (word != 0 && word < 1 << MEMO_WORD_BITS).then_some(index << MEMO_WORD_BITS | word)
}

/// The score of the subject's name `a` against a list's name `b`, 0-100 (not rounded),
/// symmetric but for ties and for an initial ([`LISTED_INITIAL_SIMILARITY`]). `memo` is the screening's: only for one subject.
pub(crate) fn name_score(a: &Name, b: &Name, memo: &mut Memo) -> f64 {
    let left = units(a, b);
    let right = units(b, a);
    if left.is_empty() || right.is_empty() {
        return 0.0;
    }
    let mut pairs: Vec<(f64, usize, usize)> = Vec::with_capacity(left.len() * right.len());
    for (i, x) in left.iter().enumerate() {
        for (j, y) in right.iter().enumerate() {
            let s = match memo_key(x, y) {
                Some(key) => *memo.0.entry(key).or_insert_with(|| similarity(x, y)),
                None => similarity(x, y),
            };
            pairs.push((s, i, j));
        }
    }
    // Greedy pairing, most similar first: names have a handful of words, and a word
    // nearly always has one obvious partner.
    pairs.sort_by(|p, q| q.0.total_cmp(&p.0).then(p.1.cmp(&q.1)).then(p.2.cmp(&q.2)));
    let mut left_used = vec![false; left.len()];
    let mut right_used = vec![false; right.len()];
    let n = left.len().min(right.len());
    let (mut sum, mut good, mut paired) = (0.0, 0.0, 0);
    for (s, i, j) in pairs {
        if paired == n {
            break;
        }
        if left_used[i] || right_used[j] {
            continue;
        }
        left_used[i] = true;
        right_used[j] = true;
        paired += 1;
        sum += s;
        if s >= GOOD_PAIR {
            good += if left[i].initial != right[j].initial {
                INITIAL_PAIR_WEIGHT
            } else {
                1.0
            };
        }
    }
    let extra = (left.len().max(right.len()) - n) as f64;
    let penalty = if extra == 0.0 {
        0.0
    } else if good >= 2.0 {
        (EXTRA_WORD_PENALTY * extra).min(EXTRA_WORDS_CAP)
    } else {
        SINGLE_MATCH_EXTRA_PENALTY * extra
    };
    (100.0 * sum / n as f64 - penalty).clamp(0.0, 100.0)
}

/// Whether a list's date of birth agrees with the subject's.
fn agrees(listed: &BirthDate, date: Date) -> bool {
    listed.year == date.year()
        && listed
            .month_day
            .is_none_or(|(month, day)| month == u8::from(date.month()) && day == date.day())
}

/// Points off for the date of birth ([`DATE_OF_BIRTH_MISMATCH_PENALTY`]).
pub(crate) fn date_of_birth_penalty(subject: Option<Date>, listed: &[BirthDate]) -> f64 {
    match subject {
        Some(date) if !listed.is_empty() && !listed.iter().any(|b| agrees(b, date)) => {
            DATE_OF_BIRTH_MISMATCH_PENALTY
        }
        _ => 0.0,
    }
}

/// Points off for the country ([`COUNTRY_MISMATCH_PENALTY`]): `listed` are the entry's
/// countries that [`country_code`] could read.
pub(crate) fn country_penalty(subject: Option<&str>, listed: &[[u8; 2]]) -> f64 {
    match subject.and_then(country_code) {
        Some(code) if !listed.is_empty() && !listed.contains(&code) => COUNTRY_MISMATCH_PENALTY,
        _ => 0.0,
    }
}

/// A country name as compared: ASCII, lowercase, words separated by one space.
fn country_words(text: &str) -> String {
    let ascii = deunicode::deunicode(text).to_ascii_lowercase();
    ascii
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Names lists use that ISO 3166-1's English short names do not read as.
const COUNTRY_ALIASES: &[(&str, &str)] = &[
    ("russia", "RU"),
    ("syria", "SY"),
    ("north korea", "KP"),
    ("south korea", "KR"),
    ("vietnam", "VN"),
    ("laos", "LA"),
    ("burma", "MM"),
    ("uk", "GB"),
    ("united kingdom", "GB"),
    ("great britain", "GB"),
    ("usa", "US"),
    ("united states", "US"),
    ("ivory coast", "CI"),
    ("turkey", "TR"),
    ("czech republic", "CZ"),
    ("macedonia", "MK"),
    ("palestine", "PS"),
    ("taiwan", "TW"),
    ("kosovo", "XK"),
];

/// ISO 3166-1 names, and their short forms (before a parenthesis or comma: "Iran
/// (Islamic Republic of)", "Tanzania, United Republic of") when only one country has it.
static COUNTRY_NAMES: LazyLock<HashMap<String, [u8; 2]>> = LazyLock::new(|| {
    let code = |alpha2: &str| -> Option<[u8; 2]> { alpha2.as_bytes().try_into().ok() };
    let mut full: HashMap<String, [u8; 2]> = HashMap::new();
    let mut short: HashMap<String, Option<[u8; 2]>> = HashMap::new();
    for country in isocountry::CountryCode::iter() {
        let Some(alpha2) = code(country.alpha2()) else {
            continue;
        };
        let name = country.name();
        full.insert(country_words(name), alpha2);
        if let Some(cut) = name.find([',', '(']) {
            short
                .entry(country_words(&name[..cut]))
                .and_modify(|c| {
                    if *c != Some(alpha2) {
                        *c = None;
                    }
                })
                .or_insert(Some(alpha2));
        }
    }
    for (name, alpha2) in COUNTRY_ALIASES {
        if let Some(alpha2) = code(alpha2) {
            full.insert((*name).to_owned(), alpha2);
        }
    }
    for (name, alpha2) in short {
        if let Some(alpha2) = alpha2 {
            full.entry(name).or_insert(alpha2);
        }
    }
    full
});

/// The ISO 3166-1 alpha-2 code of a country as a list writes it: a code (alpha-2 or
/// alpha-3) or an English name; `None` for a name not known, which then never lowers a
/// score.
pub(crate) fn country_code(text: &str) -> Option<[u8; 2]> {
    let trimmed = text.trim();
    if trimmed.len() == 2 && trimmed.bytes().all(|b| b.is_ascii_alphabetic()) {
        let upper = trimmed.to_ascii_uppercase();
        return upper.as_bytes().try_into().ok();
    }
    if trimmed.len() == 3
        && let Ok(country) = isocountry::CountryCode::for_alpha3_caseless(trimmed)
    {
        return country.alpha2().as_bytes().try_into().ok();
    }
    COUNTRY_NAMES.get(&country_words(trimmed)).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::normalise;
    use time::Month;

    fn score(a: &str, b: &str) -> f64 {
        name_score(&normalise(&[a]), &normalise(&[b]), &mut Memo::default())
    }

    #[test]
    fn the_same_name_however_written_scores_100() {
        let cases = [
            ("John Smith", "JOHN SMITH"),
            ("José Müller", "Jose Muller"),
            ("Smith John", "SMITH, John"),
            ("Abdul-Rahman Khan", "Abdulrahman Khan"),
            ("Abdul Rahman Khan", "Abdulrahman Khan"),
            ("Abdul Rahman Khan", "Abdul-Rahman Khan"),
            ("Al-Rahman", "Alrahman"),
            ("Dr. John Smith", "John Smith"),
            ("Xi Jin Ping", "XI Jinping"),
        ];
        for (a, b) in cases {
            assert_eq!(score(a, b).round(), 100.0, "{a} / {b}");
            assert_eq!(score(b, a).round(), 100.0, "{b} / {a}");
        }
    }

    #[test]
    fn pairs_table() {
        // (a, b, least, most): each bound can fail.
        let cases: &[(&str, &str, f64, f64)] = &[
            ("Mohammed Ali", "Muhammad Ali", 90.0, 99.0),
            ("John Smith", "John Smyth", 90.0, 99.0),
            ("Yevgeny Prigozhin", "Evgeny Prigozhin", 90.0, 99.0),
            ("John Smith", "John William Smith", 95.0, 98.0),
            ("J. Smith", "John Smith", 90.0, 95.0),
            ("J. Smith", "John William Smith", 70.0, 79.0),
            ("J. W. Smith", "John William Smith", 89.5, 91.0),
            ("Levsi Mirmunu", "Levshamir Mirmunu", 0.0, 79.0),
            ("Yevgeniy Prigozhin", "Evgeny Prigozhin", 90.0, 99.0),
            ("J. Smith", "Mary Smith", 0.0, 60.0),
            ("John Smith", "Mary Smith", 0.0, 60.0),
            ("John Smith", "Jane Smith", 0.0, 79.0),
            ("Smith", "John Smith", 80.0, 89.0),
            ("Smith", "John William Smith", 0.0, 79.0),
            ("Ali Hassan", "Ali Hussein", 0.0, 89.0),
            ("Rahman", "Al Rahman", 100.0, 100.0),
            ("Peter Jones", "Andrew Clark", 0.0, 20.0),
        ];
        for (a, b, least, most) in cases {
            let s = score(a, b);
            assert!((*least..=*most).contains(&s), "{a} / {b}: {s}");
        }
    }

    /// A name's tokens numbered as an index numbers the words of its list.
    fn known(text: &str, list: &[&str]) -> Name {
        let mut name = normalise(&[text]);
        for token in &mut name.tokens {
            let at = list.iter().position(|w| **w == *token.text);
            token.word = at.map_or(0, |i| u32::try_from(i + 1).unwrap_or(0));
        }
        name
    }

    #[test]
    fn two_words_the_list_knows_apart_are_two_names() {
        let list = [
            "tan", "tang", "jie", "michael", "michelle", "williams", "bourke", "burke", "anna",
            "zhou", "zhu", "ming",
        ];
        let known_score =
            |a: &str, b: &str| name_score(&known(a, &list), &known(b, &list), &mut Memo::default());
        // A letter or a sound apart, each a name of the list: another person, 80 at most.
        for (a, b) in [
            ("Jie Tang", "Tan Jie"),
            ("Michael Williams", "Michelle Williams"),
            ("Ming Zhou", "Ming Zhu"),
        ] {
            let s = known_score(a, b);
            assert!((0.0..=80.0).contains(&s), "{a} / {b}: {s}");
            // The same words, one of them unknown to the list: a misspelling, a hit.
            assert!(score(a, b) >= 90.0, "{a} / {b} unknown: {}", score(a, b));
        }
        // Two spellings of one name (ou and u), both on the list: one name.
        let s = known_score("Anna Bourke", "Anna Burke");
        assert!(s >= 95.0, "Anna Bourke / Anna Burke: {s}");
    }

    #[test]
    fn the_same_initial_on_both_sides_is_a_whole_word() {
        // A middle name added to a list's "M. Pareja": the initial and the surname are
        // both written as the list writes them.
        let s = score("M. Gulbeyan Pareja", "M. Pareja");
        assert!((95.0..=98.0).contains(&s), "{s}");
        // Against a full given name, the initial is still half a word.
        let s = score("J. Smith", "John William Smith");
        assert!((70.0..=79.0).contains(&s), "{s}");
    }

    #[test]
    fn an_initial_on_the_list_is_weaker_than_the_subjects() {
        // The list's weak alias against a client's full given name: below 90, above 80.
        for subject in ["Antonio Porzio", "Anna Porzio"] {
            let s = score(subject, "A. Porzio");
            assert!((84.0..=86.0).contains(&s), "{subject} / A. Porzio: {s}");
        }
        // The client's initial against the list's full name: still a hit at 90.
        let s = score("A. Porzio", "Antonio Porzio");
        assert!(
            (90.0..=95.0).contains(&s),
            "A. Porzio / Antonio Porzio: {s}"
        );
        // Initials on both sides are the same word.
        assert_eq!(score("A. Porzio", "A. Porzio").round(), 100.0);
    }

    #[test]
    fn a_one_word_list_name_is_weak_against_a_longer_name() {
        let fields = |first: &str, last: &str| {
            let subject = normalise(&[first, last]);
            move |listed: &str| name_score(&subject, &normalise(&[listed]), &mut Memo::default())
        };
        // A surname that is also a particle elsewhere ("Du") is a word of the subject.
        for (first, last, listed) in [
            ("Li", "Du", "LI"),
            ("Wei", "Du", "WEI LTD"),
            ("Maria", "De", "MARIA"),
            ("Mohamed", "Suharto", "Suharto"),
        ] {
            let s = fields(first, last)(listed);
            assert!((84.0..=86.0).contains(&s), "{first} {last} / {listed}: {s}");
        }
        // A particle before a word is still no word.
        assert_eq!(fields("", "Al Rahman")("Rahman").round(), 100.0);
        assert_eq!(fields("Juan", "de la Cruz")("Juan Cruz").round(), 100.0);
    }

    #[test]
    fn dates_of_birth() {
        let date = Date::from_calendar_date(1970, Month::March, 4).expect("a valid date");
        let year = |y| BirthDate {
            year: y,
            month_day: None,
        };
        let day = |y, m, d| BirthDate {
            year: y,
            month_day: Some((m, d)),
        };
        let cases = [
            (None, vec![year(1960)], 0.0),
            (Some(date), vec![], 0.0),
            (Some(date), vec![year(1970)], 0.0),
            (Some(date), vec![year(1960), day(1970, 3, 4)], 0.0),
            (Some(date), vec![year(1971)], DATE_OF_BIRTH_MISMATCH_PENALTY),
            (
                Some(date),
                vec![day(1970, 4, 3)],
                DATE_OF_BIRTH_MISMATCH_PENALTY,
            ),
        ];
        for (subject, listed, penalty) in cases {
            assert_eq!(
                date_of_birth_penalty(subject, &listed),
                penalty,
                "{subject:?} {listed:?}"
            );
        }
    }

    #[test]
    fn countries() {
        let cases = [
            ("FR", Some(*b"FR")),
            ("fr", Some(*b"FR")),
            ("FRA", Some(*b"FR")),
            ("France", Some(*b"FR")),
            ("Iran", Some(*b"IR")),
            ("Iran (Islamic Republic of)", Some(*b"IR")),
            ("Russia", Some(*b"RU")),
            ("Russian Federation", Some(*b"RU")),
            ("Congo", Some(*b"CG")),
            ("Atlantis", None),
        ];
        for (text, code) in cases {
            assert_eq!(country_code(text), code, "{text}");
        }
        assert_eq!(
            country_penalty(Some("FR"), &[*b"DE"]),
            COUNTRY_MISMATCH_PENALTY
        );
        assert_eq!(country_penalty(Some("FR"), &[*b"DE", *b"FR"]), 0.0);
        assert_eq!(country_penalty(Some("FR"), &[]), 0.0);
        assert_eq!(country_penalty(None, &[*b"DE"]), 0.0);
    }
}
