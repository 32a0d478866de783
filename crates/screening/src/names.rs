//! Names normalised for screening: ASCII, lowercase, tokens, honorifics and legal suffixes
//! dropped, particles marked, and each token's Double Metaphone codes.
//!
//! Lists and documents write the same person many ways: "KIM, Jong Un", "Kim Jong-un",
//! "Ким Чен Ын", "Dr. Abdul-Rahman AL-HAJ", "ACME TRADING CO., LTD.". What is left after
//! normalisation is only what tells people apart: the name's words, in no meaningful
//! order (the score is order-independent), with the particles ("al", "bin", "van") kept
//! aside so that they never make a match by themselves, yet still joined to their
//! neighbour when the other side writes them as one word ("Alrahman").

use rphonetic::DoubleMetaphone;

/// What a token is to the score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A word of the name.
    Word,
    /// A single letter ("J." for John): matches a word starting with it, for less.
    Initial,
    /// A particle ("al", "bin", "de", "van"): common to too many names to count alone.
    Particle,
}

/// One word of a normalised name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    /// ASCII, lowercase, letters and digits only.
    pub(crate) text: Box<str>,
    /// What it is to the score.
    pub(crate) kind: Kind,
    /// Which comma-separated part of which field it came from: only tokens of the same
    /// segment are joined ("KIM, Jong Un" joins "jong"+"un", never "kim"+"jong").
    pub(crate) segment: u8,
    /// Which field of the subject it came from (0 first names, 1 last name); 0 for a
    /// list's name, which is one field.
    pub(crate) field: u8,
    /// Its Double Metaphone codes (primary, alternate), packed; 0 for none.
    pub(crate) codes: [u32; 2],
    /// The index's number for its text: a screening remembers its similarities to the
    /// subject's words by it, and a subject's word the list also has is a name of its
    /// own, not a misspelling of another. 0 outside an index, and for a subject's word
    /// the list does not have.
    pub(crate) word: u32,
}

impl Token {
    /// Whether the token is a word or an initial, i.e. counts in the score.
    pub(crate) fn counts(&self) -> bool {
        self.kind != Kind::Particle
    }
}

/// A name normalised: its tokens in the order written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Name {
    pub(crate) tokens: Vec<Token>,
}

/// Honorifics and titles, dropped when they open a segment of a name ("Dr. John Smith",
/// "SMITH, Mr John", "Sheikh Abdullah"). Only in front: several are also surnames
/// ("John Major", "Ahmed Sheikh"), and a surname must never vanish.
const TITLES: &[&str] = &[
    "mr",
    "mrs",
    "ms",
    "miss",
    "mx",
    "dr",
    "doctor",
    "prof",
    "professor",
    "sir",
    "dame",
    "lord",
    "lady",
    "rev",
    "reverend",
    "fr",
    "father",
    "sheikh",
    "shaikh",
    "sheik",
    "shaykh",
    "cheikh",
    "haji",
    "hajji",
    "hadji",
    "hajj",
    "alhaji",
    "alhajji",
    "mullah",
    "mulla",
    "imam",
    "sayyid",
    "sheikha",
    "shaikha",
    "madame",
    "mme",
    "monsieur",
    "mademoiselle",
    "mlle",
    "maulana",
    "mawlana",
    "maulvi",
    "mawlawi",
    "mawlavi",
    "mufti",
    "ayatollah",
    "hojatoleslam",
    "general",
    "gen",
    "lieutenant",
    "lt",
    "colonel",
    "col",
    "major",
    "maj",
    "brigadier",
    "brig",
    "captain",
    "capt",
    "admiral",
    "adm",
    "commander",
    "cdr",
    "sergeant",
    "sgt",
    "marshal",
    "president",
    "minister",
    "senator",
    "sen",
    "hon",
    "honourable",
    "honorable",
    "excellency",
    "his",
    "her",
    "prince",
    "princess",
    "emir",
    "chief",
    "judge",
    "justice",
    "ambassador",
    "governor",
    "gov",
    "mayor",
    "eng",
    "engr",
    "engineer",
    "ustadz",
    "ustaz",
    "datuk",
    "dato",
    "datin",
];

/// Generational suffixes, dropped wherever they stand but first ("John Smith Jr.").
const GENERATIONS: &[&str] = &["jr", "junior", "sr", "senior", "ii", "iii", "iv"];

/// Legal forms of organisations, dropped at the end of a name ("ACME TRADING CO., LTD.",
/// "Acme S.A.", "Acme Sp. z o.o."): lists and registries add or omit them at will.
const LEGAL_SUFFIXES: &[&str] = &[
    "ltd",
    "limited",
    "llc",
    "inc",
    "incorporated",
    "corp",
    "corporation",
    "co",
    "company",
    "plc",
    "lp",
    "llp",
    "sa",
    "sas",
    "sarl",
    "sl",
    "srl",
    "spa",
    "gmbh",
    "ag",
    "kg",
    "bv",
    "nv",
    "ab",
    "as",
    "asa",
    "oy",
    "oyj",
    "aps",
    "pte",
    "pty",
    "bhd",
    "sdn",
    "pvt",
    "fze",
    "fzco",
    "fzc",
    "fzllc",
    "jsc",
    "ojsc",
    "pjsc",
    "cjsc",
    "ooo",
    "zao",
    "oao",
    "pao",
    "tov",
    "kft",
    "doo",
    "sro",
    "sp",
    "zoo",
    "ltda",
    "cia",
    "sac",
    "eirl",
    "tbk",
    "cv",
    "pt",
];

/// Legal forms written in front of the name ("OOO Romashka", "PT Bank ...").
const LEGAL_PREFIXES: &[&str] = &[
    "ooo", "zao", "oao", "pao", "ojsc", "pjsc", "cjsc", "jsc", "tov", "pt", "cv",
];

/// Particles: articles and filiations that many names share ("al", "bin", "de", "van").
/// They never count alone (a shared "al" is no evidence), but are joined to their
/// neighbour when the other side writes them as one word ("Al Rahman" = "Alrahman").
const PARTICLES: &[&str] = &[
    "al", "el", "ul", "bin", "ibn", "bint", "binti", "bn", "ben", "ould", "de", "da", "di", "du",
    "del", "della", "dela", "der", "den", "des", "van", "von", "la", "le", "lo", "dos", "das",
    "do", "zu", "ter", "te",
];

/// Particles that are particles only between two words of one segment ("García y
/// López"): alone at an end, followed by a full stop ("Madame E. Renier") or ending their
/// segment (a subject's first names "Maria E") they are an initial ("Y. Kim").
const INNER_PARTICLES: &[&str] = &["y", "e"];

/// Abbreviations lists and documents write for whole names (Malaysian and South Asian
/// documents abbreviate Muhammad), spelt out so that Jaro-Winkler sees the same word.
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("mohd", "muhammad"),
    ("muhd", "muhammad"),
    ("md", "muhammad"),
];

/// Characters that join the letters around them rather than separate words: apostrophes
/// and the marks transliterations use for the ayn and hamza ("Sa'id", "Ma`ruf").
fn is_joiner(c: char) -> bool {
    matches!(
        c,
        '\'' | '`'
            | '\u{b4}'
            | '\u{2018}'
            | '\u{2019}'
            | '\u{2bc}'
            | '\u{2bb}'
            | '\u{2be}'
            | '\u{2bf}'
    )
}

/// A raw token before classification.
struct Raw {
    text: String,
    /// Whether a full stop follows it ("E." is an initial, "e" may be a conjunction).
    dotted: bool,
    segment: u8,
    field: u8,
}

/// The tokens of `fields` (a subject's first names then last name; a list's one name):
/// transliterated, lowercased, split at anything but letters and digits, commas opening
/// a new segment.
fn tokenise(fields: &[&str]) -> Vec<Raw> {
    let mut raws: Vec<Raw> = Vec::new();
    let mut segment: u8 = 0;
    for (field, text) in fields.iter().enumerate() {
        let field = u8::try_from(field).unwrap_or(u8::MAX);
        if field > 0 {
            segment = segment.saturating_add(1);
        }
        // Joiners first, before transliteration turns some of them into separators.
        let joined: String = text.chars().filter(|c| !is_joiner(*c)).collect();
        let ascii = deunicode::deunicode(&han_names(&joined));
        let mut current = String::new();
        let mut flush = |current: &mut String, segment: u8, dotted: bool| {
            if !current.is_empty() {
                raws.push(Raw {
                    text: std::mem::take(current),
                    dotted,
                    segment,
                    field,
                });
            }
        };
        for c in ascii.chars() {
            if c.is_ascii_alphanumeric() {
                current.push(c.to_ascii_lowercase());
            } else if is_joiner(c) {
                // deunicode writes some marks as apostrophes: still joiners.
            } else {
                flush(&mut current, segment, c == '.');
                if c == ',' {
                    segment = segment.saturating_add(1);
                }
            }
        }
        flush(&mut current, segment, false);
    }
    raws
}

/// Whether `c` is a Chinese character (CJK Unified Ideographs and Extension A).
fn is_han(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}')
}

/// The most characters a Chinese name written alone has: a surname of one and a given
/// name of one to three. A longer run is a company's or a phrase.
const HAN_NAME_CHARS: usize = 4;

/// `text` with each run of Chinese characters in pinyin as words are written in Latin
/// letters: a name (a run of two to [`HAN_NAME_CHARS`]) as its surname, then its given
/// name as one word ("蔡红霞" is "Cai Hongxia", not "Cai Hong Xia", whose "Xia" would be
/// anyone named Xia); a longer run, a company's name or a phrase, as one word (a
/// syllable of it is no name: "维旺明科技有限公司" is not "Ming Wang").
fn han_names(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_han) {
        return std::borrow::Cow::Borrowed(text);
    }
    let syllable = |c: &char| deunicode::deunicode_char(*c).unwrap_or("").trim();
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() * 3);
    let mut rest = chars.as_slice();
    while let Some(first) = rest.first() {
        let run = rest.iter().take_while(|c| is_han(**c)).count();
        if run == 0 {
            out.push(*first);
            rest = &rest[1..];
            continue;
        }
        let (han, after) = rest.split_at(run);
        let given = if (2..=HAN_NAME_CHARS).contains(&run) {
            out.push(' ');
            out.push_str(syllable(first));
            &han[1..]
        } else {
            han
        };
        out.push(' ');
        out.extend(given.iter().map(syllable));
        out.push(' ');
        rest = after;
    }
    std::borrow::Cow::Owned(out)
}

/// How many tokens at the end of `raws` spell a legal suffix, single letters joined
/// ("S.A." is "s" "a"), 0 when none does.
fn legal_suffix_len(raws: &[Raw]) -> usize {
    let n = raws.len();
    if let Some(last) = raws.last()
        && LEGAL_SUFFIXES.contains(&last.text.as_str())
    {
        return 1;
    }
    // A run of single letters at the end, joined: "l l c", "s p a", "z o o".
    let run = raws.iter().rev().take_while(|r| r.text.len() == 1).count();
    for k in (2..=run.min(4)).rev() {
        let joined: String = raws[n - k..].iter().map(|r| r.text.as_str()).collect();
        if LEGAL_SUFFIXES.contains(&joined.as_str()) {
            return k;
        }
    }
    0
}

/// The name `fields` make, normalised.
pub(crate) fn normalise(fields: &[&str]) -> Name {
    let mut raws = tokenise(fields);

    // Legal forms, at the end (repeatedly: "Co., Ltd.") and in front, as long as a word
    // is left: a name that is only "Co" stays "co".
    loop {
        let k = legal_suffix_len(&raws);
        if k == 0 || k >= raws.len() {
            break;
        }
        raws.truncate(raws.len() - k);
    }
    while raws.len() > 1 && LEGAL_PREFIXES.contains(&raws[0].text.as_str()) {
        raws.remove(0);
    }

    // Generations anywhere but first, titles at the head of each segment.
    let mut kept: Vec<Raw> = Vec::with_capacity(raws.len());
    let total = raws.len();
    let mut dropped = 0;
    let mut previous_segment = None;
    let mut at_head = true;
    for (i, raw) in raws.into_iter().enumerate() {
        if previous_segment != Some(raw.segment) {
            at_head = true;
            previous_segment = Some(raw.segment);
        }
        let remaining = total - dropped;
        let text = raw.text.as_str();
        let drop = remaining > 1
            && ((at_head && TITLES.contains(&text)) || (i > 0 && GENERATIONS.contains(&text)));
        if drop {
            dropped += 1;
        } else {
            at_head = false;
            kept.push(raw);
        }
    }

    // Whether a token is followed by another of its segment, and whether the one before
    // it is a particle.
    let followed: Vec<bool> = (0..kept.len())
        .map(|i| {
            kept.get(i + 1)
                .is_some_and(|n| n.segment == kept[i].segment)
        })
        .collect();
    // Whether a word may follow it: in its segment, or in the next field of a form (first
    // names "P. da", last name "Silva"), not after a comma ("DU, Jie").
    let before_word: Vec<bool> = (0..kept.len())
        .map(|i| {
            kept.get(i + 1)
                .is_some_and(|n| n.segment == kept[i].segment || n.field != kept[i].field)
        })
        .collect();
    let after_particle: Vec<bool> = (0..kept.len())
        .map(|i| {
            i.checked_sub(1)
                .is_some_and(|p| PARTICLES.contains(&kept[p].text.as_str()))
        })
        .collect();
    let mut tokens: Vec<Token> = kept
        .into_iter()
        .enumerate()
        .map(|(i, raw)| {
            let dotted = raw.dotted;
            let text = ABBREVIATIONS
                .iter()
                .find(|(short, _)| *short == raw.text)
                .map_or(raw.text, |(_, long)| (*long).to_owned());
            // A particle precedes a word ("al-Rahman", "de la Cruz"; a form's first
            // names "P. da", last name "Silva"): one ending the name or its segment before
            // a comma, not after another particle, is a word (a surname "Du": "Li", "Du";
            // "Wei Du"; "DU, Jie"), else a one-word name would match it alone.
            let particle =
                PARTICLES.contains(&text.as_str()) && (before_word[i] || after_particle[i]);
            let conjunction =
                i > 0 && followed[i] && !dotted && INNER_PARTICLES.contains(&text.as_str());
            let kind = if particle || conjunction {
                Kind::Particle
            } else if text.len() == 1 {
                Kind::Initial
            } else {
                Kind::Word
            };
            let codes = if kind == Kind::Word {
                codes(&text)
            } else {
                [0, 0]
            };
            Token {
                text: text.into_boxed_str(),
                kind,
                segment: raw.segment,
                field: raw.field,
                codes,
                word: 0,
            }
        })
        .collect();

    // A name made only of particles ("De La") is its particles.
    if tokens.iter().all(|t| t.kind == Kind::Particle) {
        for token in &mut tokens {
            token.kind = if token.text.len() == 1 {
                Kind::Initial
            } else {
                Kind::Word
            };
            token.codes = if token.kind == Kind::Word {
                codes(&token.text)
            } else {
                [0, 0]
            };
        }
    }
    Name { tokens }
}

/// A Double Metaphone code (at most 4 letters of its alphabet), or a word's first
/// letters, packed into a `u32`; 0 for an empty code (digits only).
fn pack(code: &str) -> u32 {
    let mut bytes = [0u8; 4];
    for (slot, byte) in bytes.iter_mut().zip(code.bytes()) {
        *slot = byte;
    }
    u32::from_le_bytes(bytes)
}

/// The Double Metaphone codes of `text` (primary, then alternate when it differs, else
/// 0), packed. The standard 4 letters: a blocking key is meant to be coarse.
pub(crate) fn codes(text: &str) -> [u32; 2] {
    let result = DoubleMetaphone::default().double_metaphone(text);
    let primary = pack(&result.primary());
    let alternate = pack(&result.alternate());
    [primary, if alternate == primary { 0 } else { alternate }]
}

/// Whether two tokens' codes share one.
pub(crate) fn sound_alike(a: &Token, b: &Token) -> bool {
    a.codes.iter().any(|x| *x != 0 && b.codes.contains(x))
}

/// How many letters of a word make its spelling key.
const PREFIX_KEY_LEN: usize = 3;

/// A blocking key of a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Key {
    /// A Double Metaphone code, or a word's first letters, packed; or a word one letter
    /// apart, hashed ([`one_letter_apart`]).
    pub(crate) code: u32,
    /// The tokens that have it, a bit per token index (at most 32).
    pub(crate) tokens: u32,
    /// Whether it is a sound (a code) rather than a spelling (first letters): only a
    /// sound is evidence enough alone; first letters count as a second word's.
    pub(crate) sound: bool,
}

/// The blocking keys of a name, one per code: every word's codes, its first three
/// letters (lowercase, so never a code, which is uppercase: a misspelling that changes the
/// sound past the third letter, "Prigozhin" and "Prigoshin", still meets), and the codes of every
/// two neighbouring tokens of a segment joined (particles included), so that "Abdul
/// Rahman" and "Abdulrahman", "Al-Rahman" and "Alrahman" meet. A joined code that is one
/// of its halves' (codes keep 4 letters: "mohammedali" is "mohammed"'s MHMT) is left out:
/// it would only pass one word's evidence off as two.
pub(crate) fn keys(name: &Name) -> Vec<Key> {
    let bit = |i: usize| if i < 32 { 1u32 << i } else { 0 };
    let mut keys: Vec<(u32, u32, bool)> = Vec::new();
    for (i, token) in name.tokens.iter().enumerate() {
        if token.kind == Kind::Word {
            keys.extend(
                token
                    .codes
                    .iter()
                    .filter(|c| **c != 0)
                    .map(|c| (*c, bit(i), true)),
            );
            if let Some(prefix) = token.text.get(..PREFIX_KEY_LEN) {
                keys.push((pack(prefix), bit(i), false));
            }
            keys.extend(one_letter_apart(&token.text).map(|k| (k, bit(i), false)));
        }
    }
    for (i, pair) in name.tokens.windows(2).enumerate() {
        if pair[0].segment == pair[1].segment && pair.iter().all(|t| t.kind != Kind::Initial) {
            let joined = format!("{}{}", pair[0].text, pair[1].text);
            let mask = bit(i) | bit(i + 1);
            keys.extend(
                codes(&joined)
                    .into_iter()
                    .filter(|c| *c != 0 && !pair.iter().any(|t| t.codes.contains(c)))
                    .map(|c| (c, mask, true)),
            );
        }
    }
    keys.sort_unstable();
    let mut merged: Vec<Key> = Vec::with_capacity(keys.len());
    for (code, tokens, sound) in keys {
        match merged.last_mut() {
            Some(last) if last.code == code => last.tokens |= tokens,
            _ => merged.push(Key {
                code,
                tokens,
                sound,
            }),
        }
    }
    merged
}

/// The fewest letters a word has for [`one_letter_apart`] keys: a shorter one would
/// meet half the names of its length.
const NEAR_KEY_LETTERS: usize = 4;

/// The keys of `word` and of `word` with each of its letters left out, for a word of
/// [`NEAR_KEY_LETTERS`] or more, hashed into the keys' upper half (a code's and a
/// prefix's top bit is 0: their bytes are ASCII). Two words one typing slip apart share
/// one (a letter dropped or doubled: one is the other less a letter; substituted or two
/// swapped: both less the same one), where the slip took a short word's sound and first
/// letters with it ("Wber" and "Weber", "Coloqa" and "Coloma", "Etras" and "Ertas").
fn one_letter_apart(word: &str) -> impl Iterator<Item = u32> + '_ {
    let bytes = word.as_bytes();
    let long = bytes.len() >= NEAR_KEY_LETTERS;
    let hash = |skip: Option<usize>| {
        // FNV-1a over the word's bytes but the one skipped.
        let mut h: u32 = 0x811c_9dc5;
        for (i, b) in bytes.iter().enumerate() {
            if Some(i) != skip {
                h = (h ^ u32::from(*b)).wrapping_mul(0x0100_0193);
            }
        }
        h | 0x8000_0000
    };
    std::iter::once(None)
        .chain((0..bytes.len()).map(Some))
        .filter(move |_| long)
        .map(hash)
}

/// Letters that spell one sound in different ways across languages and
/// transliterations, each with the one it is written as in a [`spelling`] (longest
/// first at each position).
const SPELLINGS: &[(&str, &str)] = &[
    ("tch", "ch"),
    ("sch", "sh"),
    ("ph", "f"),
    ("ck", "k"),
    ("kh", "h"),
    ("gh", "g"),
    ("dh", "d"),
    ("ou", "u"),
    ("oo", "u"),
    ("ee", "i"),
    ("ue", "u"),
    ("oe", "o"),
    ("ae", "a"),
    ("ks", "x"),
    ("ch", "ch"),
    ("sh", "sh"),
    ("c", "k"),
    ("q", "k"),
    ("w", "v"),
    ("y", "i"),
];

/// A word's spelling with its letters' usual variants made one ([`SPELLINGS`]) and
/// doubled letters written once: "Ralph" and "Ralf", "Bourke" and "Burke", "Hellwyg"
/// and "Hellwig" are one spelling; "Meng" and "Ming", "Baron" and "Paron", "Tang" and
/// "Tan" are not. Unlike a sound (Double Metaphone drops the vowels), it keeps every
/// vowel and the first letter.
pub(crate) fn spelling(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let (len, to) = match SPELLINGS.iter().find(|(from, _)| rest.starts_with(from)) {
            Some((from, to)) => (from.len(), *to),
            None => {
                let len = rest.chars().next().map_or(1, char::len_utf8);
                (len, &rest[..len])
            }
        };
        rest = &rest[len..];
        for c in to.chars() {
            if !out.ends_with(c) {
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(fields: &[&str]) -> Vec<String> {
        normalise(fields)
            .tokens
            .iter()
            .map(|t| t.text.to_string())
            .collect()
    }

    fn kinds(fields: &[&str]) -> Vec<Kind> {
        normalise(fields).tokens.iter().map(|t| t.kind).collect()
    }

    #[test]
    fn normalisation_table() {
        let cases: &[(&[&str], &[&str])] = &[
            (&["José Müller"], &["jose", "muller"]),
            (&["KIM, Jong Un"], &["kim", "jong", "un"]),
            (&["Ким Чен Ын"], &["kim", "chen", "yn"]),
            (&["Abdul-Rahman"], &["abdul", "rahman"]),
            (&["Sa'id O\u{2019}Brien"], &["said", "obrien"]),
            (&["Dr. John Smith"], &["john", "smith"]),
            (&["SMITH, Mr John"], &["smith", "john"]),
            (&["Sheikh Haji Abdullah"], &["abdullah"]),
            (&["John Major"], &["john", "major"]),
            (&["Ahmed Sheikh"], &["ahmed", "sheikh"]),
            (&["General"], &["general"]),
            (&["John Smith Jr."], &["john", "smith"]),
            (&["ACME TRADING CO., LTD."], &["acme", "trading"]),
            (&["Acme S.A."], &["acme"]),
            (&["Acme Sp. z o.o."], &["acme"]),
            (&["OOO Romashka"], &["romashka"]),
            (&["Acme Holdings L.L.C."], &["acme", "holdings"]),
            (&["Co"], &["co"]),
            (&["Mohd Najib"], &["muhammad", "najib"]),
            (&["Dr", "Smith"], &["smith"]),
        ];
        for (fields, expected) in cases {
            assert_eq!(texts(fields), *expected, "{fields:?}");
        }
    }

    #[test]
    fn chinese_names_in_characters_are_a_surname_and_a_given_name() {
        assert_eq!(texts(&["蔡红霞"]), ["cai", "hongxia"]);
        assert_eq!(texts(&["王芳"]), ["wang", "fang"]);
        assert_eq!(texts(&["WANG, 红霞"]), ["wang", "hong", "xia"]);
        // A company's name is one word: none of its syllables is a name.
        assert_eq!(texts(&["维旺明科技有限公司"]).len(), 1);
        assert_eq!(texts(&["Acme 维旺明科技有限公司"])[0], "acme");
    }

    #[test]
    fn spellings_table() {
        for (a, b) in [
            ("ralph", "ralf"),
            ("bourke", "burke"),
            ("hellwyg", "hellwig"),
            ("batchmann", "bachmann"),
            ("mueller", "muller"),
            ("alhacim", "alhakim"),
        ] {
            assert_eq!(spelling(a), spelling(b), "{a} / {b}");
        }
        for (a, b) in [("meng", "ming"), ("baron", "paron"), ("tang", "tan")] {
            assert_ne!(spelling(a), spelling(b), "{a} / {b}");
        }
    }

    #[test]
    fn a_typing_slip_shares_a_key() {
        let keys = |word: &str| one_letter_apart(word).collect::<Vec<u32>>();
        let shares = |a: &str, b: &str| keys(a).iter().any(|k| keys(b).contains(k));
        for (a, b) in [
            ("weber", "wber"),
            ("weber", "webber"),
            ("coloma", "coloqa"),
            ("ertas", "etras"),
        ] {
            assert!(shares(a, b), "{a} / {b}");
        }
        assert!(!shares("weber", "wagner"));
        assert!(keys("li").is_empty(), "too short to have any");
        // In the keys' upper half, apart from codes and prefixes.
        assert!(keys("weber").iter().all(|k| k & 0x8000_0000 != 0));
    }

    #[test]
    fn particles_initials_and_segments() {
        assert_eq!(
            kinds(&["Abd al-Rahman bin Ali"]),
            [
                Kind::Word,
                Kind::Particle,
                Kind::Word,
                Kind::Particle,
                Kind::Word
            ]
        );
        assert_eq!(
            kinds(&["J. F. Kennedy"]),
            [Kind::Initial, Kind::Initial, Kind::Word]
        );
        assert_eq!(
            kinds(&["Garcia y Lopez"]),
            [Kind::Word, Kind::Particle, Kind::Word]
        );
        assert_eq!(kinds(&["Y. Kim"]), [Kind::Initial, Kind::Word]);
        assert_eq!(kinds(&["De La"]), [Kind::Word, Kind::Word]);
        let name = normalise(&["KIM, Jong Un"]);
        let segments: Vec<u8> = name.tokens.iter().map(|t| t.segment).collect();
        assert_eq!(segments, [0, 1, 1]);
        let subject = normalise(&["Jong Un", "Kim"]);
        let fields: Vec<u8> = subject.tokens.iter().map(|t| t.field).collect();
        assert_eq!(fields, [0, 0, 1]);
    }

    #[test]
    fn more_titles_are_dropped() {
        let cases: &[(&[&str], &[&str])] = &[
            (&["Madame Elise Renier"], &["elise", "renier"]),
            (&["Mme Elise", "Renier"], &["elise", "renier"]),
            (&["Monsieur Paul Renier"], &["paul", "renier"]),
            (&["Imam Ali Hassan"], &["ali", "hassan"]),
            (&["Mullah Omar"], &["omar"]),
            (&["Sayyid Ali Khamenei"], &["ali", "khamenei"]),
            (&["Sheikha Moza"], &["moza"]),
            // Only in front: a surname stays.
            (&["Ahmed Imam"], &["ahmed", "imam"]),
        ];
        for (fields, expected) in cases {
            assert_eq!(texts(fields), *expected, "{fields:?}");
        }
    }

    #[test]
    fn an_e_with_a_full_stop_or_ending_its_segment_is_an_initial() {
        use Kind::{Initial, Particle, Word};
        assert_eq!(kinds(&["Madame E. Renier"]), [Initial, Word]);
        assert_eq!(kinds(&["Maria E. Renier"]), [Word, Initial, Word]);
        assert_eq!(kinds(&["Maria E", "Renier"]), [Word, Initial, Word]);
        assert_eq!(kinds(&["Anna Y. Kim"]), [Word, Initial, Word]);
        // The conjunction between two words of one segment.
        assert_eq!(kinds(&["Silva e Costa"]), [Word, Particle, Word]);
        assert_eq!(kinds(&["Garcia y Lopez"]), [Word, Particle, Word]);
    }

    #[test]
    fn a_particle_ending_the_name_is_a_word() {
        use Kind::{Particle, Word};
        assert_eq!(kinds(&["Li", "Du"]), [Word, Word]);
        assert_eq!(kinds(&["Wei Du"]), [Word, Word]);
        assert_eq!(kinds(&["Van", "Le"]), [Word, Word]);
        // Before a word, or after another particle, still a particle.
        assert_eq!(
            kinds(&["Juan de la Cruz"]),
            [Word, Particle, Particle, Word]
        );
        assert_eq!(
            kinds(&["CRUZ, Juan de la"]),
            [Word, Word, Particle, Particle]
        );
        assert_eq!(kinds(&["Rahman", "Al-Masri"]), [Word, Particle, Word]);
        assert_eq!(kinds(&["P. da", "Silva"]), [Kind::Initial, Particle, Word]);
        assert_eq!(kinds(&["DU, Jie"]), [Word, Word]);
        assert_eq!(kinds(&["Jie", "DU"]), [Word, Word]);
    }

    #[test]
    fn keys_join_neighbours_within_a_segment() {
        let meet = |a: &[Key], b: &[Key]| {
            a.iter()
                .any(|k| k.sound && b.iter().any(|j| j.code == k.code))
        };
        let joined = keys(&normalise(&["Abdulrahman"]));
        let apart = keys(&normalise(&["Abdul Rahman"]));
        let with_particle = keys(&normalise(&["Al-Rahman"]));
        let alone = keys(&normalise(&["Alrahman"]));
        assert!(meet(&joined, &apart));
        assert!(meet(&alone, &with_particle));
        // A particle is never a key alone.
        let al = codes("al");
        assert!(
            !with_particle
                .iter()
                .any(|k| al.contains(&k.code) && k.tokens == 1)
        );
        // A joined code that is a half's is no second key: "mohammedali" is MHMT.
        let mohammed = keys(&normalise(&["Mohammed Ali"]));
        assert!(
            mohammed.iter().all(|k| k.tokens.count_ones() == 1),
            "{mohammed:?}"
        );
        // Nothing joins across the comma: "kim"+"jong".
        let kim = keys(&normalise(&["KIM, Jong Un"]));
        assert!(!kim.iter().any(|k| k.tokens == 0b011));
        // First letters are a key, but not a sound.
        let typo = keys(&normalise(&["Prigoshin"]));
        let spelt = keys(&normalise(&["Prigozhin"]));
        assert!(!meet(&typo, &spelt));
        assert!(typo.iter().any(|k| !k.sound && spelt.contains(k)));
    }

    #[test]
    fn misspellings_sound_alike() {
        let pairs = [
            ("mohammed", "muhammad"),
            ("smith", "smyth"),
            ("yevgeny", "evgeny"),
            ("gaddafi", "qaddafi"),
            ("catherine", "katharine"),
        ];
        for (a, b) in pairs {
            let a = &normalise(&[a]).tokens[0];
            let b = &normalise(&[b]).tokens[0];
            assert!(sound_alike(a, b), "{} {}", a.text, b.text);
        }
    }
}
