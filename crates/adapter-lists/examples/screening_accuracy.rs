//! How accurate and how fast screening is on a generated list (contract §19; the figures
//! are in docs/screening.md, "Accuracy and speed, measured"). A benchmark, not a test: it
//! asserts nothing, it prints.
//!
//!     /tmp/faker-venv/bin/python scripts/make_lists.py /tmp/lists-11 --seed 11 \
//!         --unlisted 30000
//!     cargo run --release -p adapter-lists --example screening_accuracy -- \
//!         /tmp/lists-11 11 [--listed 2000] [--unlisted 20000] [--show 8] \
//!         [--full-names] [--print-probes]
//!
//! The first argument is a directory written by `scripts/make_lists.py` (its seed is the
//! list's), the second the seed of the probes' draws (`rand`'s `StdRng`). The list is read
//! from OFAC's CSV files (`sdn.csv`, `alt.csv`, `add.csv`) through `adapter_lists::read`,
//! as `idv screening import` reads it, and indexed (the build timed).
//!
//! Listed probes: `--listed` people of the list (2 000, a tenth per way) whose name, the
//! primary or an alias in Latin letters drawn at random, is varied in one of the ten ways
//! of §19: case, accents, transliteration, name order, a missing middle name, initials,
//! hyphens, spaces, honorifics, a small misspelling (see [`Way`]); with `--full-names`,
//! only names with no initial are varied (not the list's aliases "G. Garcia", which
//! `make_lists.py` gives most people: a subject's name from an identity document has its
//! given names whole). A name a way cannot
//! vary (initials of a name whose given name is already an initial, a hyphen where there
//! is no compound) is drawn again. First name and last name are split as a form would
//! take them: at the comma of OFAC's "SURNAME, Given", else the last word is the last name.
//! A quarter of the probes whose entry has a date of birth give it (a year alone gives a
//! date drawn in that year); the others, and every country, are unknown. A probe is found
//! when its entry is among the hits at the default threshold, 90. `--print-probes` prints
//! every probe.
//!
//! Unlisted probes: the people of `unlisted.csv` (drawn by `make_lists.py --unlisted` from
//! another seed, the same locales), less those whose name, made ASCII and lowercase, its
//! words in any order, is one of the list's names (namesakes, whom no name check can tell
//! apart), the first `--unlisted` of them (20 000). A probe is flagged when it has any hit
//! at 90. They are screened without a date of birth, then again with one drawn at random.
//! The flagged are counted by why: a hit on a full name of the list, else on a name in
//! another script, else only on names with an initial.
//!
//! Every `screen` call of the listed probes and of the unlisted ones without a date of
//! birth is timed (p50, p95, max). Misses and false positives are shown, `--show` of each
//! kind, with the entry's score when it was a candidate at all (screened again at
//! threshold 0, untimed).

use std::collections::{BTreeMap, HashSet};
use std::error::Error;
use std::path::Path;
use std::time::{Duration, Instant};

use adapter_lists::{Format, ListFile, read};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use screening::{Entry, Index, Subject};
use time::{Date, Month};

/// The default threshold (contract §19).
const THRESHOLD: u8 = 90;
/// The share of listed probes that give their entry's date of birth, when it has one.
const WITH_DATE_OF_BIRTH: f64 = 0.25;

/// The ten ways of §19 a listed name is varied in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Way {
    /// Upper case, lower case, each word capitalised, or each letter's case at random.
    Case,
    /// Every accent removed from a name that has some, else one added (é, ü, ñ, ş...).
    Accents,
    /// A Russian name written in Cyrillic, or its Cyrillic alias romanised another way
    /// (ICAO, English, German, French); other names given one romanisation variant
    /// (y/i, ks/x, kh/h, ou/u, ph/f, w/v, ä/ae..., Arabic names' usual spellings, pinyin
    /// as Wade-Giles).
    Transliteration,
    /// First and last names swapped.
    Order,
    /// A middle part dropped from a name of 3 parts or more; a middle name (a
    /// patronymic for a Russian) added to a name of 2, so the list misses it.
    MiddleName,
    /// A given name reduced to its initial, with or without a dot.
    Initials,
    /// A hyphen made a space, two words of a field joined by a hyphen, or a compound
    /// (Abdul|rahman, Mc|Donald, pinyin syllables Xiu|lan) split by one.
    Hyphens,
    /// A hyphen removed, two words of a field joined, or a compound split by a space.
    Spaces,
    /// A title before the first name (Mr, Dr., Sheikh, General, Colonel...).
    Honorifics,
    /// One letter substituted, dropped, doubled, or two neighbours swapped, in a word of
    /// 5 letters or more, never the first letter.
    Misspelling,
}

impl Way {
    const ALL: [Way; 10] = [
        Way::Case,
        Way::Accents,
        Way::Transliteration,
        Way::Order,
        Way::MiddleName,
        Way::Initials,
        Way::Hyphens,
        Way::Spaces,
        Way::Honorifics,
        Way::Misspelling,
    ];

    fn name(self) -> &'static str {
        match self {
            Way::Case => "case",
            Way::Accents => "accents",
            Way::Transliteration => "transliteration",
            Way::Order => "name order",
            Way::MiddleName => "missing middle name",
            Way::Initials => "initials",
            Way::Hyphens => "hyphens",
            Way::Spaces => "spaces",
            Way::Honorifics => "honorifics",
            Way::Misspelling => "misspelling",
        }
    }
}

/// Where a person's names come from, told by the script of an alias.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    Russian,
    Arabic,
    Chinese,
    Other,
}

/// A person of the list: the entry's index, its origin, its names in Latin letters and
/// its name in Cyrillic, if any.
#[derive(Debug)]
struct Person {
    entry: usize,
    origin: Origin,
    latin: Vec<usize>,
    cyrillic: Option<usize>,
}

/// A name as a form takes it: given names, then the last name, each split at spaces.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Parts {
    given: Vec<String>,
    family: Vec<String>,
}

impl Parts {
    /// At the comma of "SURNAME, Given", else the last word is the last name.
    fn of(name: &str) -> Self {
        let words = |s: &str| -> Vec<String> { s.split_whitespace().map(str::to_owned).collect() };
        if let Some((family, given)) = name.split_once(',') {
            return Self {
                given: words(given),
                family: words(family),
            };
        }
        let mut given = words(name);
        let family = given.pop().into_iter().collect();
        Self { given, family }
    }

    fn first(&self) -> String {
        self.given.join(" ")
    }

    fn last(&self) -> String {
        self.family.join(" ")
    }

    fn count(&self) -> usize {
        self.given.len() + self.family.len()
    }
}

/// One listed probe.
#[derive(Debug)]
struct Probe {
    way: Way,
    /// How the way was applied ("upper", "removed", "to Cyrillic"...).
    kind: String,
    entry: usize,
    base: String,
    first: String,
    last: String,
    date_of_birth: Option<Date>,
}

fn script(c: char) -> Option<Origin> {
    match u32::from(c) {
        0x0400..=0x04ff => Some(Origin::Russian),
        0x0600..=0x06ff => Some(Origin::Arabic),
        0x3400..=0x9fff => Some(Origin::Chinese),
        _ => None,
    }
}

fn is_latin(name: &str) -> bool {
    name.chars().all(|c| script(c).is_none())
}

/// OFAC writes a person "SURNAME, Given" and a company in capitals.
fn is_person(entry: &Entry) -> bool {
    entry.names.first().is_some_and(|primary| {
        primary
            .split_once(", ")
            .is_some_and(|(_, given)| given.chars().any(char::is_lowercase))
    })
}

fn people(entries: &[Entry]) -> Vec<Person> {
    entries
        .iter()
        .enumerate()
        .filter(|(_, e)| is_person(e))
        .map(|(i, e)| {
            let origin = e
                .names
                .iter()
                .find_map(|n| n.chars().find_map(script))
                .unwrap_or(Origin::Other);
            Person {
                entry: i,
                origin,
                latin: (0..e.names.len())
                    .filter(|n| is_latin(&e.names[*n]))
                    .collect(),
                cyrillic: (0..e.names.len()).find(|n| {
                    e.names[*n]
                        .chars()
                        .any(|c| script(c) == Some(Origin::Russian))
                }),
            }
        })
        .filter(|p| !p.latin.is_empty())
        .collect()
}

/// `word` in the case of `model`: all capitals, capitalised, or as it is.
fn cased_like(word: &str, model: &str) -> String {
    let letters: Vec<char> = model.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() > 1 && letters.iter().all(|c| c.is_uppercase()) {
        word.to_uppercase()
    } else if model.chars().next().is_some_and(char::is_uppercase) {
        capitalised(word)
    } else {
        word.to_owned()
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect()
    })
}

/// Applies `f` to every word of both fields.
fn each_word(parts: &Parts, f: impl Fn(&str) -> String) -> Parts {
    Parts {
        given: parts.given.iter().map(|w| f(w)).collect(),
        family: parts.family.iter().map(|w| f(w)).collect(),
    }
}

/// A word's position: (0 given / 1 family, index).
type At = (usize, usize);

fn words(parts: &Parts) -> Vec<(At, &str)> {
    let given = parts
        .given
        .iter()
        .enumerate()
        .map(|(i, w)| ((0, i), w.as_str()));
    let family = parts
        .family
        .iter()
        .enumerate()
        .map(|(i, w)| ((1, i), w.as_str()));
    given.chain(family).collect()
}

fn word_mut(parts: &mut Parts, (field, i): At) -> &mut String {
    if field == 0 {
        &mut parts.given[i]
    } else {
        &mut parts.family[i]
    }
}

// 1. Case.

fn vary_case(rng: &mut StdRng, parts: &Parts) -> Option<(Parts, String)> {
    let modes = ["upper", "lower", "capitalised", "random"];
    let mut order = modes.to_vec();
    order.shuffle(rng);
    for mode in order {
        let varied = match mode {
            "upper" => each_word(parts, str::to_uppercase),
            "lower" => each_word(parts, str::to_lowercase),
            "capitalised" => each_word(parts, |w| {
                w.split('-').map(capitalised).collect::<Vec<_>>().join("-")
            }),
            _ => {
                let mut varied = parts.clone();
                for (at, _) in words(parts) {
                    let word = word_mut(&mut varied, at);
                    *word = word
                        .chars()
                        .map(|c| {
                            if rng.gen_bool(0.5) {
                                c.to_uppercase().collect::<String>()
                            } else {
                                c.to_lowercase().collect()
                            }
                        })
                        .collect();
                }
                varied
            }
        };
        if varied != *parts {
            return Some((varied, mode.to_owned()));
        }
    }
    None
}

// 2. Accents.

/// The letter without its accent, when it has one.
fn unaccented(c: char) -> Option<char> {
    if c.is_ascii() || !c.is_alphabetic() || script(c).is_some() {
        return None;
    }
    let plain = deunicode::deunicode_char(c)?;
    let mut chars = plain.chars();
    match (chars.next(), chars.next()) {
        (Some(p), None) if p.is_ascii_alphabetic() => Some(p),
        _ => None,
    }
}

const ACCENTED: &[(char, &[char])] = &[
    ('a', &['á', 'à', 'ä', 'â']),
    ('e', &['é', 'è', 'ê', 'ë']),
    ('i', &['í', 'ï', 'î']),
    ('o', &['ó', 'ö', 'ô']),
    ('u', &['ú', 'ü', 'û']),
    ('n', &['ñ']),
    ('c', &['ç']),
    ('s', &['ş']),
];

fn vary_accents(rng: &mut StdRng, parts: &Parts) -> Option<(Parts, String)> {
    let has = words(parts)
        .iter()
        .any(|(_, w)| w.chars().any(|c| unaccented(c).is_some()));
    if has {
        let varied = each_word(parts, |w| {
            w.chars().map(|c| unaccented(c).unwrap_or(c)).collect()
        });
        return Some((varied, "removed".to_owned()));
    }
    // (word, char index, the accented letter)
    let mut spots = Vec::new();
    for (at, word) in words(parts) {
        for (i, c) in word.chars().enumerate() {
            if let Some((_, accented)) = ACCENTED.iter().find(|(p, _)| *p == c.to_ascii_lowercase())
            {
                spots.push((at, i, c.is_uppercase(), *accented));
            }
        }
    }
    let (at, i, upper, accented) = *spots.choose(rng)?;
    let mut letter = *accented.choose(rng)?;
    if upper {
        letter = letter.to_uppercase().next().unwrap_or(letter);
    }
    let mut varied = parts.clone();
    let word = word_mut(&mut varied, at);
    *word = word
        .chars()
        .enumerate()
        .map(|(j, c)| if j == i { letter } else { c })
        .collect();
    Some((varied, "added".to_owned()))
}

// 3. Transliteration.

/// A Latin name written in Cyrillic (the list's romanisation read backwards).
fn to_cyrillic(word: &str) -> String {
    const GROUPS: &[(&str, &str)] = &[
        ("shch", "щ"),
        ("zh", "ж"),
        ("kh", "х"),
        ("ts", "ц"),
        ("ch", "ч"),
        ("sh", "ш"),
        ("yu", "ю"),
        ("ya", "я"),
        ("yo", "ё"),
    ];
    const LETTERS: &[(char, &str)] = &[
        ('a', "а"),
        ('b', "б"),
        ('v', "в"),
        ('g', "г"),
        ('d', "д"),
        ('e', "е"),
        ('z', "з"),
        ('i', "и"),
        ('k', "к"),
        ('l', "л"),
        ('m', "м"),
        ('n', "н"),
        ('o', "о"),
        ('p', "п"),
        ('r', "р"),
        ('s', "с"),
        ('t', "т"),
        ('u', "у"),
        ('f', "ф"),
        ('h', "х"),
        ('c', "к"),
        ('j', "й"),
        ('w', "в"),
        ('x', "кс"),
        ('q', "к"),
    ];
    let lower: Vec<char> = word.to_lowercase().chars().collect();
    let vowel = |c: Option<&char>| c.is_some_and(|c| "aeiouy".contains(*c));
    let mut out = String::new();
    let mut i = 0;
    'outer: while i < lower.len() {
        for (latin, cyrillic) in GROUPS {
            let n = latin.chars().count();
            if lower[i..].iter().take(n).copied().eq(latin.chars()) {
                out.push_str(cyrillic);
                i += n;
                continue 'outer;
            }
        }
        let c = lower[i];
        if c == 'y' {
            // After a vowel ("-iy", "-ey") or first, й; after a consonant, ы.
            let previous = i.checked_sub(1).and_then(|p| lower.get(p));
            out.push(if i == 0 || vowel(previous) {
                'й'
            } else {
                'ы'
            });
        } else if let Some((_, cyrillic)) = LETTERS.iter().find(|(l, _)| *l == c) {
            out.push_str(cyrillic);
        } else {
            out.push(c);
        }
        i += 1;
    }
    cased_like(&out, word)
}

/// Ways of romanising Russian other than the list's (BGN/PCGN, simplified).
const SYSTEMS: [&str; 4] = ["ICAO", "English", "German", "French"];

/// A Cyrillic word romanised in `system`.
fn romanised(word: &str, system: &str) -> String {
    let lower: Vec<char> = word.to_lowercase().chars().collect();
    let vowels = "аеёиоуыэюя";
    let mut out = String::new();
    for (i, c) in lower.iter().enumerate() {
        let previous = i.checked_sub(1).and_then(|p| lower.get(p));
        let next = lower.get(i + 1);
        let after_vowel = previous.is_some_and(|p| vowels.contains(*p) || "ьъ".contains(*p));
        let between_vowels = after_vowel && next.is_some_and(|n| vowels.contains(*n));
        // "-ий", "-ый" at the end.
        let ending = next == Some(&'й') && i + 2 == lower.len() && "иы".contains(*c);
        let s: &str = match (system, c) {
            (_, 'а') => "a",
            (_, 'б') => "b",
            ("German", 'в') => "w",
            (_, 'в') => "v",
            (_, 'г') => "g",
            (_, 'д') => "d",
            ("English", 'е') if i == 0 || after_vowel => "ye",
            ("German", 'е') if i == 0 || after_vowel => "je",
            (_, 'е') => "e",
            ("ICAO", 'ё') => "e",
            ("English", 'ё') => "yo",
            ("German", 'ё') => "jo",
            ("French", 'ё') => "io",
            ("German", 'ж') => "sh",
            ("French", 'ж') => "j",
            (_, 'ж') => "zh",
            ("German", 'з') => "s",
            (_, 'з') => "z",
            ("English", 'и') if ending => "",
            (_, 'и') => "i",
            ("English", 'й') if i > 0 && i + 1 == lower.len() && previous == Some(&'и') => "y",
            ("English", 'й') => "y",
            ("German", 'й') if i + 1 == lower.len() && previous == Some(&'и') => "",
            ("German", 'й') => "j",
            ("French", 'й') if i + 1 == lower.len() && previous == Some(&'и') => "",
            (_, 'й') => "i",
            (_, 'к') => "k",
            (_, 'л') => "l",
            (_, 'м') => "m",
            (_, 'н') => "n",
            (_, 'о') => "o",
            (_, 'п') => "p",
            (_, 'р') => "r",
            ("German" | "French", 'с') if between_vowels => "ss",
            (_, 'с') => "s",
            (_, 'т') => "t",
            ("French", 'у') => "ou",
            (_, 'у') => "u",
            (_, 'ф') => "f",
            ("German", 'х') => "ch",
            (_, 'х') => "kh",
            ("German", 'ц') => "z",
            (_, 'ц') => "ts",
            ("German", 'ч') => "tsch",
            ("French", 'ч') => "tch",
            (_, 'ч') => "ch",
            ("German", 'ш') => "sch",
            ("French", 'ш') => "ch",
            (_, 'ш') => "sh",
            ("German", 'щ') => "schtsch",
            ("French", 'щ') => "chtch",
            (_, 'щ') => "shch",
            ("ICAO", 'ъ') => "ie",
            (_, 'ъ' | 'ь') => "",
            ("English", 'ы') if ending => "y",
            (_, 'ы') => "y",
            (_, 'э') => "e",
            ("ICAO", 'ю') => "iu",
            ("German", 'ю') => "ju",
            ("French", 'ю') => "iou",
            (_, 'ю') => "yu",
            ("ICAO" | "French", 'я') => "ia",
            ("German", 'я') => "ja",
            (_, 'я') => "ya",
            _ => {
                out.push(*c);
                continue;
            }
        };
        out.push_str(s);
    }
    cased_like(&out, word)
}

/// Romanisation variants of Latin names (either way round as written), one applied.
const VARIANTS: &[(&str, &str)] = &[
    ("y", "i"),
    ("i", "y"),
    ("ks", "x"),
    ("x", "ks"),
    ("kh", "h"),
    ("ou", "u"),
    ("u", "ou"),
    ("ph", "f"),
    ("f", "ph"),
    ("sh", "sch"),
    ("ch", "tch"),
    ("zh", "j"),
    ("ts", "tz"),
    ("w", "v"),
    ("v", "w"),
    ("c", "k"),
    ("k", "c"),
    ("q", "k"),
    ("ee", "i"),
    ("oo", "u"),
    ("ai", "ay"),
    ("ei", "ey"),
    ("ä", "ae"),
    ("ö", "oe"),
    ("ü", "ue"),
    ("ß", "ss"),
    ("ñ", "ny"),
    ("ov", "off"),
    ("ev", "eff"),
    ("ll", "l"),
    ("ss", "s"),
    ("tt", "t"),
    ("mm", "m"),
    ("nn", "n"),
    ("gh", "g"),
    ("dh", "d"),
    ("th", "t"),
    ("al-", "el-"),
];

/// Pinyin as Wade-Giles writes it.
const WADE_GILES: &[(&str, &str)] = &[
    ("x", "hs"),
    ("q", "ch"),
    ("zh", "ch"),
    ("z", "ts"),
    ("c", "ts"),
    ("j", "ch"),
    ("r", "j"),
    ("ong", "ung"),
    ("ian", "ien"),
    ("ui", "uei"),
    ("you", "yu"),
];

/// Arabic names as other lists spell them.
const ARABIC: &[(&str, &str)] = &[
    ("mohammed", "muhammad"),
    ("ahmad", "ahmed"),
    ("hassan", "hasan"),
    ("hussein", "husayn"),
    ("omar", "umar"),
    ("khalid", "khaled"),
    ("abdullah", "abdallah"),
    ("yusuf", "youssef"),
    ("ibrahim", "ebrahim"),
    ("mustafa", "mostafa"),
    ("tariq", "tarek"),
    ("samir", "sameer"),
    ("walid", "waleed"),
    ("faisal", "faysal"),
    ("nabil", "nabeel"),
    ("karim", "kareem"),
    ("salim", "saleem"),
    ("jamal", "gamal"),
    ("rami", "ramy"),
    ("masri", "misri"),
    ("nasser", "nasir"),
    ("khalil", "khaleel"),
    ("saleh", "salih"),
    ("tikriti", "takriti"),
    ("mansour", "mansur"),
    ("qasim", "kassem"),
    ("rashid", "rasheed"),
    ("darwish", "darweesh"),
    ("barakat", "baraket"),
    ("hakim", "hakeem"),
    ("zaidan", "zeidan"),
    ("othman", "uthman"),
    ("jabouri", "jaburi"),
];

/// Every way of replacing one occurrence of a pattern of `table` in `parts`.
fn replacements(parts: &Parts, table: &[(&str, &str)]) -> Vec<(At, usize, String, String)> {
    let mut out = Vec::new();
    for (at, word) in words(parts) {
        if word.chars().filter(|c| c.is_alphabetic()).count() < 2 {
            // An initial is no spelling.
            continue;
        }
        let lower = word.to_lowercase();
        // Byte offsets in `lower` are offsets in `word` only when lowercasing kept the
        // lengths (it does for these names; skip any word where it does not).
        if lower.len() != word.len() {
            continue;
        }
        for (from, to) in table {
            for (offset, _) in lower.match_indices(from) {
                // A consonant of a digraph is not that consonant ("ch" is not "c").
                let digraph = from.len() == 1
                    && "cdgkpstz".contains(*from)
                    && lower[offset + 1..].starts_with('h');
                if digraph {
                    continue;
                }
                out.push((at, offset, (*from).to_owned(), (*to).to_owned()));
            }
        }
    }
    out
}

fn replace_at(parts: &Parts, (at, offset, from, to): &(At, usize, String, String)) -> Parts {
    let mut varied = parts.clone();
    let word = word_mut(&mut varied, *at);
    let original = &word[*offset..*offset + from.len()];
    let to = if cased_like("ab", word) == "AB" {
        to.to_uppercase()
    } else {
        cased_like(to, original)
    };
    word.replace_range(*offset..*offset + from.len(), &to);
    varied
}

fn vary_transliteration(
    rng: &mut StdRng,
    person: &Person,
    entry: &Entry,
    parts: &Parts,
) -> Option<(Parts, String, Option<String>)> {
    if person.origin == Origin::Russian {
        if let Some(cyrillic) = person.cyrillic.filter(|_| rng.gen_bool(0.5)) {
            let system = *SYSTEMS.choose(rng)?;
            let name = &entry.names[cyrillic];
            let varied = each_word(&Parts::of(name), |w| romanised(w, system));
            return Some((
                varied,
                format!("from Cyrillic, {system}"),
                Some(name.clone()),
            ));
        }
        let varied = each_word(parts, to_cyrillic);
        return Some((varied, "to Cyrillic".to_owned(), None));
    }
    let (mut kind, table) = match person.origin {
        Origin::Chinese => ("Wade-Giles", WADE_GILES),
        Origin::Arabic if rng.gen_bool(0.5) => ("Arabic spelling", ARABIC),
        _ => ("variant", VARIANTS),
    };
    let mut options = replacements(parts, table);
    if options.is_empty() && person.origin != Origin::Chinese {
        // (A Chinese name no Wade-Giles letter changes is drawn again.)
        kind = "variant";
        options = replacements(parts, VARIANTS);
    }
    let chosen = options.choose(rng)?;
    Some((
        replace_at(parts, chosen),
        format!("{kind} {}/{}", chosen.2, chosen.3),
        None,
    ))
}

// 4. Name order.

fn vary_order(parts: &Parts) -> Option<(Parts, String)> {
    if parts.given.is_empty() || parts.family.is_empty() {
        return None;
    }
    let varied = Parts {
        given: parts.family.clone(),
        family: parts.given.clone(),
    };
    Some((varied, "fields swapped".to_owned()))
}

// 5. A missing middle name.

/// A Russian patronymic from a given name: "Ivan" gives "Ivanovich".
fn patronymic(given: &str) -> String {
    let stem = given.strip_suffix("iy").or_else(|| given.strip_suffix('y'));
    match stem {
        Some(stem) => format!("{stem}evich"),
        None if given.ends_with('a') => format!("{given}ich"),
        None => format!("{given}ovich"),
    }
}

fn vary_middle_name(
    rng: &mut StdRng,
    person: &Person,
    people: &[Person],
    entries: &[Entry],
    parts: &Parts,
) -> Option<(Parts, String)> {
    if parts.given.is_empty() || parts.family.is_empty() {
        return None;
    }
    let mut varied = parts.clone();
    if parts.count() >= 3 {
        // Keep both fields: a given name after the first, else a surname before the last.
        if parts.given.len() >= 2 {
            let i = rng.gen_range(1..parts.given.len());
            varied.given.remove(i);
        } else {
            let i = rng.gen_range(0..parts.family.len() - 1);
            varied.family.remove(i);
        }
        return Some((varied, "dropped".to_owned()));
    }
    // A given name of another person of the same origin, as a middle name.
    let same: Vec<&Person> = people
        .iter()
        .filter(|p| p.origin == person.origin && p.entry != person.entry)
        .collect();
    let other = same.choose(rng)?;
    let middle = Parts::of(&entries[other.entry].names[0])
        .given
        .first()?
        .clone();
    if middle.chars().filter(|c| c.is_alphabetic()).count() < 2 {
        return None;
    }
    let (middle, kind) = if person.origin == Origin::Russian {
        (patronymic(&middle), "added (patronymic)")
    } else {
        (middle, "added")
    };
    varied.given.push(cased_like(&middle, &parts.given[0]));
    Some((varied, kind.to_owned()))
}

// 6. Initials.

fn vary_initials(rng: &mut StdRng, parts: &Parts) -> Option<(Parts, String)> {
    let eligible: Vec<usize> = (0..parts.given.len())
        .filter(|i| {
            let w = &parts.given[*i];
            w.chars().filter(|c| c.is_alphabetic()).count() >= 2
                && w.chars().next().is_some_and(char::is_alphabetic)
        })
        .collect();
    let i = *eligible.choose(rng)?;
    let initial = parts.given[i].chars().next()?.to_uppercase().to_string();
    let dot = rng.gen_bool(0.7);
    let mut varied = parts.clone();
    varied.given[i] = if dot { format!("{initial}.") } else { initial };
    Some((varied, if dot { "J." } else { "J" }.to_owned()))
}

// 7 and 8. Hyphens and spaces.

/// Parts of compound names written joined or apart.
/// (Only those a word seldom starts with otherwise: not "van", "mac", "bin", which would
/// split "Vanessa", "Macarena", "Bingham".)
const PREFIXES: &[&str] = &["abdul", "abdel", "abu", "mc", "della", "ould"];
const SUFFIXES: &[&str] = &["ullah", "allah", "uddin", "eddine", "rahman"];

/// Whether `s` is one pinyin syllable.
fn pinyin_syllable(s: &str) -> bool {
    const INITIALS: &[&str] = &[
        "zh", "ch", "sh", "b", "p", "m", "f", "d", "t", "n", "l", "g", "k", "h", "j", "q", "x",
        "r", "z", "c", "s", "y", "w",
    ];
    const FINALS: &[&str] = &[
        "a", "o", "e", "ai", "ei", "ao", "ou", "an", "en", "ang", "eng", "ong", "i", "ia", "ie",
        "iao", "iu", "ian", "in", "iang", "ing", "iong", "u", "ua", "uo", "uai", "ui", "uan", "un",
        "uang", "ue",
    ];
    INITIALS
        .iter()
        .filter_map(|i| s.strip_prefix(i))
        .any(|rest| FINALS.contains(&rest))
}

/// Where a word splits into a compound's parts (char offsets).
fn split_points(word: &str, origin: Origin, given: bool) -> Vec<usize> {
    let lower = word.to_lowercase();
    if lower.len() != word.len() || !lower.chars().all(|c| c.is_ascii_alphabetic()) {
        return Vec::new();
    }
    let mut points = Vec::new();
    for prefix in PREFIXES {
        if lower.starts_with(prefix) && lower.len() >= prefix.len() + 4 {
            points.push(prefix.len());
        }
    }
    for suffix in SUFFIXES {
        if lower.ends_with(suffix) && lower.len() >= suffix.len() + 3 {
            points.push(lower.len() - suffix.len());
        }
    }
    if origin == Origin::Chinese && given {
        // Two syllables, the second starting with a consonant (else pinyin writes an
        // apostrophe).
        for p in 1..lower.len() {
            let (a, b) = lower.split_at(p);
            if pinyin_syllable(a) && pinyin_syllable(b) && !b.starts_with(['a', 'e', 'i', 'o', 'u'])
            {
                points.push(p);
            }
        }
    }
    points
}

fn vary_joins(
    rng: &mut StdRng,
    origin: Origin,
    parts: &Parts,
    separator: &str,
) -> Option<(Parts, String)> {
    // (kind, the varied name)
    let mut options: Vec<(&str, Parts)> = Vec::new();
    for (at, word) in words(parts) {
        if word.contains('-') {
            let mut varied = parts.clone();
            let replacement = if separator == "-" { " " } else { "" };
            let joined = word.replacen('-', replacement, 1);
            if separator == "-" {
                // "Al-Masri" as two words of its field.
                let (field, i) = at;
                let split: Vec<String> = joined.split(' ').map(str::to_owned).collect();
                let list = if field == 0 {
                    &mut varied.given
                } else {
                    &mut varied.family
                };
                list.splice(i..=i, split);
                options.push(("hyphen made a space", varied));
            } else {
                *word_mut(&mut varied, at) = joined;
                options.push(("hyphen removed", varied));
            }
        }
        for p in split_points(word, origin, at.0 == 0) {
            let mut varied = parts.clone();
            let (a, b) = word.split_at(p);
            let b = cased_like(b, a);
            if separator == "-" {
                *word_mut(&mut varied, at) = format!("{a}-{b}");
                options.push(("compound split by a hyphen", varied));
            } else {
                let (field, i) = at;
                let list = if field == 0 {
                    &mut varied.given
                } else {
                    &mut varied.family
                };
                list.splice(i..=i, [a.to_owned(), b]);
                options.push(("compound split by a space", varied));
            }
        }
    }
    for field in 0..2 {
        let list = if field == 0 {
            &parts.given
        } else {
            &parts.family
        };
        for i in 1..list.len() {
            if has_initial(&list[i - 1]) || has_initial(&list[i]) {
                continue;
            }
            let mut varied = parts.clone();
            let list = if field == 0 {
                &mut varied.given
            } else {
                &mut varied.family
            };
            let second = list.remove(i);
            let joined = format!("{}{separator}{second}", list[i - 1]);
            list[i - 1] = joined;
            options.push((
                if separator == "-" {
                    "words joined by a hyphen"
                } else {
                    "words joined"
                },
                varied,
            ));
        }
    }
    let (kind, varied) = options.choose(rng)?;
    Some((varied.clone(), (*kind).to_owned()))
}

// 9. Honorifics.

const TITLES: &[&str] = &[
    "Mr", "Mr.", "Mrs", "Ms", "Dr", "Dr.", "Prof.", "Sheikh", "Haji", "General", "Gen.", "Colonel",
    "Col.", "Major", "Captain", "Sir", "Madame", "Imam",
];

fn vary_honorifics(rng: &mut StdRng, parts: &Parts) -> Option<(Parts, String)> {
    let title = *TITLES.choose(rng)?;
    let mut varied = parts.clone();
    varied.given.insert(0, title.to_owned());
    Some((varied, title.to_owned()))
}

// 10. A small misspelling.

fn vary_misspelling(rng: &mut StdRng, parts: &Parts) -> Option<(Parts, String)> {
    let eligible: Vec<(At, Vec<char>)> = words(parts)
        .into_iter()
        .map(|(at, w)| (at, w.chars().collect::<Vec<char>>()))
        .filter(|(_, w)| w.len() >= 5 && w.iter().all(|c| c.is_alphabetic()))
        .collect();
    let (at, chars) = eligible.choose(rng)?;
    let mut chars = chars.clone();
    let ops = ["substituted", "dropped", "doubled", "swapped"];
    let op = *ops.choose(rng)?;
    match op {
        "substituted" => {
            let p = rng.gen_range(1..chars.len());
            let old = chars[p];
            let new = loop {
                let c = char::from(rng.gen_range(b'a'..=b'z'));
                if c != old.to_ascii_lowercase() {
                    break c;
                }
            };
            chars[p] = if old.is_uppercase() {
                new.to_ascii_uppercase()
            } else {
                new
            };
        }
        "dropped" => {
            let p = rng.gen_range(1..chars.len());
            chars.remove(p);
        }
        "doubled" => {
            let p = rng.gen_range(1..chars.len());
            chars.insert(p, chars[p]);
        }
        _ => {
            let spots: Vec<usize> = (1..chars.len() - 1)
                .filter(|p| chars[*p].to_lowercase().ne(chars[p + 1].to_lowercase()))
                .collect();
            let p = *spots.choose(rng)?;
            chars.swap(p, p + 1);
        }
    }
    let mut varied = parts.clone();
    *word_mut(&mut varied, *at) = chars.into_iter().collect();
    Some((varied, op.to_owned()))
}

/// Whether a name has a single letter for a word ("G. Garcia", "GARCIA, G").
fn has_initial(name: &str) -> bool {
    name.split(|c: char| !c.is_alphabetic())
        .any(|w| w.chars().count() == 1)
}

/// A listed probe of `way`, drawn until a name can be varied so; with `full_names`, of
/// the names with no initial only.
fn probe(
    rng: &mut StdRng,
    way: Way,
    people: &[Person],
    entries: &[Entry],
    full_names: bool,
) -> Option<Probe> {
    for _ in 0..10_000 {
        let person = people.choose(rng)?;
        let entry = &entries[person.entry];
        let bases: Vec<usize> = person
            .latin
            .iter()
            .copied()
            .filter(|n| !full_names || !has_initial(&entry.names[*n]))
            .collect();
        let Some(base) = bases.choose(rng) else {
            continue;
        };
        let base = entry.names[*base].clone();
        let parts = Parts::of(&base);
        if parts.family.is_empty() {
            continue;
        }
        let mut base_shown = base.clone();
        let varied = match way {
            Way::Case => vary_case(rng, &parts),
            Way::Accents => vary_accents(rng, &parts),
            Way::Transliteration => {
                vary_transliteration(rng, person, entry, &parts).map(|(p, kind, from)| {
                    if let Some(from) = from {
                        base_shown = from;
                    }
                    (p, kind)
                })
            }
            Way::Order => vary_order(&parts),
            Way::MiddleName => vary_middle_name(rng, person, people, entries, &parts),
            Way::Initials => vary_initials(rng, &parts),
            Way::Hyphens => vary_joins(rng, person.origin, &parts, "-"),
            Way::Spaces => vary_joins(rng, person.origin, &parts, ""),
            Way::Honorifics => vary_honorifics(rng, &parts),
            Way::Misspelling => vary_misspelling(rng, &parts),
        };
        let Some((varied, kind)) = varied else {
            continue;
        };
        let date_of_birth = if rng.gen_bool(WITH_DATE_OF_BIRTH) {
            entry.dates_of_birth.choose(rng).and_then(|b| {
                let (month, day) = b
                    .month_day
                    .unwrap_or_else(|| (rng.gen_range(1..=12), rng.gen_range(1..=28)));
                Date::from_calendar_date(b.year, Month::try_from(month).ok()?, day).ok()
            })
        } else {
            None
        };
        return Some(Probe {
            way,
            kind,
            entry: person.entry,
            base: base_shown,
            first: varied.first(),
            last: varied.last(),
            date_of_birth,
        });
    }
    None
}

/// A name made ASCII and lowercase, its words.
fn ascii_words(name: &str) -> Vec<String> {
    deunicode::deunicode(name)
        .to_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A name made ASCII and lowercase, its words sorted: namesakes compare equal.
fn name_key(name: &str) -> String {
    let mut words = ascii_words(name);
    words.sort_unstable();
    words.join(" ")
}

/// A name made ASCII and lowercase, its words in order joined with no space ("=" first,
/// never a [`name_key`]): "方秀兰" ("fang xiu lan") and "Fang Xiulan" compare equal.
fn joined_key(name: &str) -> String {
    format!("={}", ascii_words(name).concat())
}

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    // The smallest value at least q of the samples are at or below.
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn speed_line(label: &str, times: &[Duration]) {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    println!(
        "{label}: {} screenings, p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        sorted.len(),
        ms(percentile(&sorted, 0.50)),
        ms(percentile(&sorted, 0.95)),
        ms(percentile(&sorted, 0.99)),
        ms(sorted.last().copied().unwrap_or_default())
    );
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

struct Args {
    dir: String,
    seed: u64,
    listed: usize,
    unlisted: usize,
    show: usize,
    full_names: bool,
    print_probes: bool,
}

fn args() -> Result<Args, String> {
    let usage = "usage: screening_accuracy LIST_DIR PROBE_SEED [--listed 2000] \
                 [--unlisted 20000] [--show 8] [--full-names] [--print-probes]";
    let mut positional = Vec::new();
    let (mut listed, mut unlisted, mut show) = (2000, 20_000, 8);
    let (mut full_names, mut print_probes) = (false, false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |name: &str| -> Result<usize, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{name} needs a number\n{usage}"))
        };
        match arg.as_str() {
            "--listed" => listed = number("--listed")?,
            "--unlisted" => unlisted = number("--unlisted")?,
            "--show" => show = number("--show")?,
            "--full-names" => full_names = true,
            "--print-probes" => print_probes = true,
            _ => positional.push(arg),
        }
    }
    let [dir, seed] = <[String; 2]>::try_from(positional).map_err(|_| usage.to_owned())?;
    let seed = seed
        .parse()
        .map_err(|_| format!("PROBE_SEED is a number\n{usage}"))?;
    Ok(Args {
        dir,
        seed,
        listed,
        unlisted,
        show,
        full_names,
        print_probes,
    })
}

fn main() -> Result<(), Box<dyn Error>> {
    let args = args()?;
    let dir = Path::new(&args.dir);
    let names = ["sdn.csv", "alt.csv", "add.csv"];
    let mut contents = Vec::new();
    for name in names {
        let path = dir.join(name);
        contents.push(std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    let files: Vec<ListFile<'_>> = names
        .iter()
        .zip(&contents)
        .map(|(name, bytes)| ListFile { name, bytes })
        .collect();
    let entries = read(Format::OfacCsv, &files)?;
    let listed_names: HashSet<String> = entries
        .iter()
        .flat_map(|e| e.names.iter().flat_map(|n| [name_key(n), joined_key(n)]))
        .collect();
    let name_count: usize = entries.iter().map(|e| e.names.len()).sum();

    let started = Instant::now();
    let index = Index::new(entries);
    let build = started.elapsed();
    let entries = index.entries();
    let people = people(entries);
    println!(
        "list {}: {} entries ({} people), {} names; index built in {:.0} ms",
        dir.display(),
        entries.len(),
        people.len(),
        name_count,
        ms(build)
    );
    println!(
        "probe seed {}, threshold {THRESHOLD}, listed probes varying {}",
        args.seed,
        if args.full_names {
            "names with no initial only (--full-names)"
        } else {
            "any name in Latin letters"
        }
    );

    // Listed probes.
    let mut rng = StdRng::seed_from_u64(args.seed);
    let per_way = args.listed / Way::ALL.len();
    let mut probes = Vec::new();
    for way in Way::ALL {
        for _ in 0..per_way {
            let p = probe(&mut rng, way, &people, entries, args.full_names);
            probes.push(p.ok_or("no name to vary")?);
        }
    }
    let mut listed_times = Vec::with_capacity(probes.len());
    // way -> (probes, found); (way, kind) -> (probes, found)
    let mut by_way: BTreeMap<Way, (usize, usize)> = BTreeMap::new();
    let mut by_kind: BTreeMap<(Way, String), (usize, usize)> = BTreeMap::new();
    let mut with_date = (0, 0);
    // Probes whose date of birth lowered their entry's score (screened again without it,
    // untimed): none, if the date is read right.
    let mut lowered = 0;
    let mut misses = Vec::new();
    for p in &probes {
        let subject = Subject {
            first_name: &p.first,
            last_name: &p.last,
            date_of_birth: p.date_of_birth,
            country: None,
        };
        let started = Instant::now();
        let hits = index.screen(&subject, THRESHOLD);
        listed_times.push(started.elapsed());
        let id = &entries[p.entry].id;
        let found = hits.iter().any(|h| &h.entry.id == id);
        for counts in [
            by_way.entry(p.way).or_default(),
            by_kind.entry((p.way, p.kind.clone())).or_default(),
        ] {
            counts.0 += 1;
            counts.1 += usize::from(found);
        }
        if p.date_of_birth.is_some() {
            with_date.0 += 1;
            with_date.1 += usize::from(found);
            let score = |date_of_birth| {
                let subject = Subject {
                    date_of_birth,
                    ..subject.clone()
                };
                let hits = index.screen(&subject, 0);
                hits.iter().find(|h| &h.entry.id == id).map(|h| h.score)
            };
            lowered += usize::from(score(p.date_of_birth) < score(None));
        }
        if !found {
            misses.push(p);
        }
        if args.print_probes {
            println!(
                "probe {} ({}): first {:?} last {:?} from {:?}: {}",
                p.way.name(),
                p.kind,
                p.first,
                p.last,
                p.base,
                if found { "found" } else { "missed" }
            );
        }
    }

    println!();
    println!("| way | probes | found | rate |");
    println!("|---|---:|---:|---:|");
    let (mut total, mut found) = (0, 0);
    for (way, (n, f)) in &by_way {
        println!("| {} | {n} | {f} | {:.1} % |", way.name(), percent(*f, *n));
        total += n;
        found += f;
    }
    println!(
        "| **all** | {total} | {found} | **{:.2} %** |",
        percent(found, total)
    );
    println!(
        "(probes giving the entry's date of birth: {} of {}, found {:.1} %; the date lowered \
         the entry's score in {lowered})",
        with_date.1,
        with_date.0,
        percent(with_date.1, with_date.0)
    );
    println!();
    println!("by how the way was applied (probes, found, rate):");
    for ((way, kind), (n, f)) in &by_kind {
        println!(
            "  {:<20} {:<32} {n:>4} {f:>4} {:>6.1} %",
            way.name(),
            kind,
            percent(*f, *n)
        );
    }
    println!();
    println!(
        "misses ({} in all), up to {} per way:",
        misses.len(),
        args.show
    );
    for way in Way::ALL {
        for p in misses.iter().filter(|p| p.way == way).take(args.show) {
            let subject = Subject {
                first_name: &p.first,
                last_name: &p.last,
                date_of_birth: p.date_of_birth,
                country: None,
            };
            let id = &entries[p.entry].id;
            let all = index.screen(&subject, 0);
            let why = all.iter().find(|h| &h.entry.id == id).map_or_else(
                || "not a candidate".to_owned(),
                |h| format!("scored {} on {:?}", h.score, h.matched_name),
            );
            println!(
                "  {} ({}): first {:?} last {:?}{} from {:?} (entry {id}): {why}",
                way.name(),
                p.kind,
                p.first,
                p.last,
                p.date_of_birth
                    .map(|d| format!(" born {d}"))
                    .unwrap_or_default(),
                p.base,
            );
        }
    }

    // Unlisted probes.
    let path = dir.join("unlisted.csv");
    let mut reader =
        csv::Reader::from_path(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut unlisted: Vec<(String, String, String)> = Vec::new();
    let mut namesakes = 0;
    for row in reader.records() {
        let row = row?;
        let field = |i| row.get(i).unwrap_or("").to_owned();
        let (given, family, locale) = (field(0), field(1), field(2));
        let namesake = [
            name_key(&format!("{given} {family}")),
            joined_key(&format!("{given} {family}")),
            joined_key(&format!("{family} {given}")),
        ]
        .iter()
        .any(|key| listed_names.contains(key));
        if namesake {
            namesakes += 1;
            continue;
        }
        if unlisted.len() < args.unlisted {
            unlisted.push((given, family, locale));
        }
    }
    println!();
    println!(
        "unlisted: {} people of {} ({namesakes} namesakes of listed names dropped from the \
         file)",
        unlisted.len(),
        path.display()
    );
    let mut unlisted_times = Vec::with_capacity(unlisted.len());
    let mut flagged = Vec::new();
    // locale -> (people, flagged, flagged by a full name)
    let mut by_locale: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    for (given, family, locale) in &unlisted {
        let subject = Subject {
            first_name: given,
            last_name: family,
            date_of_birth: None,
            country: None,
        };
        let started = Instant::now();
        let hits = index.screen(&subject, THRESHOLD);
        unlisted_times.push(started.elapsed());
        // Why: a full name of the list, else a name in another script, else only names
        // with an initial ("G. Garcia").
        let full = hits
            .iter()
            .find(|h| is_latin(h.matched_name) && !has_initial(h.matched_name));
        let script = hits.iter().find(|h| !is_latin(h.matched_name));
        let (kind, hit) = match (full, script, hits.first()) {
            (Some(hit), _, _) => (0, hit),
            (None, Some(hit), _) => (1, hit),
            (None, None, Some(hit)) => (2, hit),
            (None, None, None) => {
                by_locale.entry(locale).or_default().0 += 1;
                continue;
            }
        };
        let counts = by_locale.entry(locale).or_default();
        counts.0 += 1;
        counts.1 += 1;
        counts.2 += usize::from(kind == 0);
        flagged.push((
            kind,
            given,
            family,
            hit.matched_name,
            hit.entry.id.clone(),
            hit.score,
        ));
    }
    println!(
        "flagged without a date of birth: {} of {} = {:.2} %",
        flagged.len(),
        unlisted.len(),
        percent(flagged.len(), unlisted.len())
    );
    let mut flagged_with_date = 0;
    for (given, family, _) in &unlisted {
        let date = Date::from_calendar_date(
            rng.gen_range(1940..=2000),
            Month::try_from(rng.gen_range(1..=12u8))?,
            rng.gen_range(1..=28),
        )?;
        let subject = Subject {
            first_name: given,
            last_name: family,
            date_of_birth: Some(date),
            country: None,
        };
        flagged_with_date += usize::from(!index.screen(&subject, THRESHOLD).is_empty());
    }
    println!(
        "flagged with a date of birth drawn at random: {} of {} = {:.2} %",
        flagged_with_date,
        unlisted.len(),
        percent(flagged_with_date, unlisted.len())
    );
    println!("  by the person's locale (people, flagged, flagged by a full name of the list):");
    for (locale, (n, any, full)) in &by_locale {
        println!(
            "    {locale:<6} {n:>6} {any:>6} {:>6.2} % {full:>6} {:>6.2} %",
            percent(*any, *n),
            percent(*full, *n)
        );
    }
    let kinds = [
        "by a full name of the list",
        "by a name in another script only",
        "only by names with an initial (\"G. Garcia\")",
    ];
    for (k, kind) in kinds.iter().enumerate() {
        let these: Vec<_> = flagged.iter().filter(|f| f.0 == k).collect();
        let mut scores = [0usize; 3];
        for f in &these {
            scores[match f.5 {
                0..=94 => 0,
                95..=99 => 1,
                _ => 2,
            }] += 1;
        }
        println!(
            "  {kind}: {} = {:.2} % (score 90-94: {}, 95-99: {}, 100: {}); the first {}:",
            these.len(),
            percent(these.len(), unlisted.len()),
            scores[0],
            scores[1],
            scores[2],
            args.show * 2
        );
        for (_, given, family, matched, id, score) in these.iter().take(args.show * 2) {
            println!("    {given} {family} -> {matched:?} (entry {id}, score {score})");
        }
    }

    println!();
    speed_line("listed probes", &listed_times);
    speed_line("unlisted probes", &unlisted_times);
    let all: Vec<Duration> = listed_times.into_iter().chain(unlisted_times).collect();
    speed_line("all", &all);
    Ok(())
}
