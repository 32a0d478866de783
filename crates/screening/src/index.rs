//! An index of one list's entries by blocking keys, and the score of a name against them.

use crate::entry::Entry;
use crate::names::{self, Kind, Name};
use crate::score;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use time::Date;

/// The person screened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject<'a> {
    /// First (and middle) names, as typed or read.
    pub first_name: &'a str,
    /// Last name.
    pub last_name: &'a str,
    /// Date of birth, when known.
    pub date_of_birth: Option<Date>,
    /// Country (ISO 3166-1 alpha-2), when known.
    pub country: Option<&'a str>,
}

/// An entry a subject may be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit<'a> {
    /// The entry.
    pub entry: &'a Entry,
    /// Which of its names matched best, as the list writes it.
    pub matched_name: &'a str,
    /// 0-100: 100 is the same name once normalised.
    pub score: u8,
}

/// A key's list of names at most this long always gives candidates, from whichever of
/// the subject's words: a rare word (a given name few share) finds its entries even when
/// the surname is misspelled past what Double Metaphone forgives.
const RARE_KEY_NAMES: usize = 200;

/// A key of the subject's last name gives candidates when its list of names is at most
/// this long. Longer lists are the few codes that thousands of names share (Mohammed's
/// MHMT, Ali's AL on real lists): their names are candidates only when keys pair a
/// second word of theirs with a second word of the subject's (or they are one word).
/// What that loses is a name sharing only that very common word, whose other words
/// neither sound nor begin like any of the subject's: mostly different people, at times
/// a misspelling in the 80s or low 90s (see the benchmark example's notes).
const COMMON_KEY_NAMES: usize = 2000;

/// Ids and codes the index made itself, hashed by one multiplication (Fibonacci
/// hashing): SipHash's guard against chosen keys buys nothing for them, and it was a
/// tenth of a screening's time.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.write_u32(u32::from(*byte) ^ (self.0 as u32).rotate_left(8));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// A map from the index's own `u32`s.
pub(crate) type IdMap<V> = HashMap<u32, V, BuildHasherDefault<IdHasher>>;

/// One name of one entry, normalised.
#[derive(Debug)]
struct IndexedName {
    /// The entry's index in `entries`.
    entry: u32,
    /// The name's index in its entry's `names`.
    name: u32,
    normal: Name,
    /// How many words and initials it has: a name of one word is a candidate on its only
    /// key, however common.
    words: usize,
}

/// A name that has a key, and which of its tokens have it (a bit per token).
#[derive(Debug, Clone, Copy)]
struct Posting {
    name: u32,
    tokens: u32,
}

/// One list's entries, indexed.
#[derive(Debug, Default)]
pub struct Index {
    entries: Vec<Entry>,
    /// Every name of every entry, in order.
    names: Vec<IndexedName>,
    /// Blocking key to the names that have it, ascending.
    keys: IdMap<Vec<Posting>>,
    /// Each entry's countries as ISO codes, those that could be read.
    countries: Vec<Vec<[u8; 2]>>,
    /// Every word of the list's names, numbered from 1.
    words: HashMap<Box<str>, u32>,
}

impl Index {
    /// The index of `entries`.
    pub fn new(entries: Vec<Entry>) -> Self {
        let mut names = Vec::new();
        let mut keys: IdMap<Vec<Posting>> = IdMap::default();
        // Each word's text numbered from 1, for the screenings' memos.
        let mut numbers: HashMap<Box<str>, u32> = HashMap::new();
        for (e, entry) in entries.iter().enumerate() {
            for (n, text) in entry.names.iter().enumerate() {
                let mut normal = names::normalise(&[text]);
                for token in &mut normal.tokens {
                    let next = u32::try_from(numbers.len() + 1).unwrap_or(0);
                    token.word = *numbers.entry(token.text.clone()).or_insert(next);
                }
                let id = u32::try_from(names.len()).unwrap_or(u32::MAX);
                for key in names::keys(&normal) {
                    let posting = Posting {
                        name: id,
                        tokens: key.tokens,
                    };
                    keys.entry(key.code).or_default().push(posting);
                }
                let words = normal.tokens.iter().filter(|t| t.counts()).count();
                names.push(IndexedName {
                    entry: u32::try_from(e).unwrap_or(u32::MAX),
                    name: u32::try_from(n).unwrap_or(u32::MAX),
                    normal,
                    words,
                });
            }
        }
        let countries = entries
            .iter()
            .map(|e| {
                e.countries
                    .iter()
                    .filter_map(|c| score::country_code(c))
                    .collect()
            })
            .collect();
        Self {
            entries,
            names,
            keys,
            countries,
            words: numbers,
        }
    }

    /// The entries indexed.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The names (indices into `names`) that may be `query`, from the keys they share.
    ///
    /// A name is a candidate when it shares with the subject a key of a rare word
    /// ([`RARE_KEY_NAMES`]), the sound of the last name when not too common
    /// ([`COMMON_KEY_NAMES`]), keys that pair two of the subject's words with two of the
    /// name's, or, for a subject or name of one word, a sound.
    fn candidates(&self, query: &Name) -> Vec<u32> {
        let bit = |i: usize| if i < 32 { 1u32 << i } else { 0 };
        let mut last_name = 0u32;
        for (i, token) in query.tokens.iter().enumerate() {
            if token.field == 1 {
                last_name |= bit(i);
            }
        }
        if query
            .tokens
            .iter()
            .enumerate()
            .all(|(i, t)| last_name & bit(i) == 0 || t.kind != Kind::Word)
        {
            // No last name given, or only initials ("Qiao", "X.": the fields swapped):
            // every word is the last name.
            last_name = u32::MAX;
        }
        let one_word = query.tokens.iter().filter(|t| t.counts()).count() < 2;
        // Name to (the subject's tokens it shares keys with, the name's tokens that have
        // them, whether it is a candidate).
        let mut found: IdMap<(u32, u32, bool)> = IdMap::default();
        for key in names::keys(query) {
            let Some(list) = self.keys.get(&key.code) else {
                continue;
            };
            let words = key.tokens;
            let on_last_name = words & last_name != 0;
            // First letters are never enough alone but when rare.
            let direct = list.len() <= RARE_KEY_NAMES
                || (key.sound && (one_word || (on_last_name && list.len() <= COMMON_KEY_NAMES)));
            for posting in list {
                let alone = on_last_name && self.names[posting.name as usize].words < 2;
                let (subject, listed, candidate) =
                    found.entry(posting.name).or_insert((0, 0, false));
                *subject |= words;
                *listed |= posting.tokens;
                // Two words of the subject sound like two words of the name (not both
                // like one: "Mirmunu Mirdane" and "Mirmunu X" share "mir" twice).
                *candidate |=
                    direct || alone || (subject.count_ones() >= 2 && listed.count_ones() >= 2);
            }
        }
        let mut candidates: Vec<u32> = found
            .into_iter()
            .filter(|(_, (_, _, candidate))| *candidate)
            .map(|(id, _)| id)
            .collect();
        candidates.sort_unstable();
        candidates
    }

    /// Every entry whose score against `subject` is at least `threshold`, best first.
    ///
    /// The score of an entry is its best name's ([`Hit::matched_name`]), less 15 when
    /// both dates of birth are known and none of the entry's agrees, less 3 when both
    /// countries are known and none of the entry's is the subject's. Ties go by entry id.
    pub fn screen(&self, subject: &Subject<'_>, threshold: u8) -> Vec<Hit<'_>> {
        let mut query = names::normalise(&[subject.first_name, subject.last_name]);
        for token in &mut query.tokens {
            token.word = self.words.get(&token.text).copied().unwrap_or(0);
        }
        // The best name of each entry: (entry, score, name), names in order so that the
        // first of equal names wins.
        let mut best: Vec<(u32, f64, u32)> = Vec::new();
        let mut memo = score::Memo::default();
        for id in self.candidates(&query) {
            let name = &self.names[id as usize];
            let s = score::name_score(&query, &name.normal, &mut memo);
            // What the date and country take off only lowers: a name below the threshold
            // is done.
            if s.round() < f64::from(threshold) {
                continue;
            }
            match best.last_mut() {
                Some((entry, top, n)) if *entry == name.entry => {
                    if s > *top {
                        *top = s;
                        *n = name.name;
                    }
                }
                _ => best.push((name.entry, s, name.name)),
            }
        }
        let mut hits: Vec<Hit<'_>> = best
            .into_iter()
            .filter_map(|(e, s, n)| {
                let entry = &self.entries[e as usize];
                let s = s
                    - score::date_of_birth_penalty(subject.date_of_birth, &entry.dates_of_birth)
                    - score::country_penalty(subject.country, &self.countries[e as usize]);
                // Rounded, clamped to 0-100: the cast cannot truncate.
                let s = s.round().clamp(0.0, 100.0) as u8;
                (s >= threshold).then(|| Hit {
                    entry,
                    matched_name: &entry.names[n as usize],
                    score: s,
                })
            })
            .collect();
        hits.sort_by(|a, b| {
            b.score
                .cmp(&a.score)
                .then_with(|| a.entry.id.cmp(&b.entry.id))
        });
        hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::BirthDate;
    use time::Month;

    fn entry(id: &str, names: &[&str]) -> Entry {
        Entry {
            id: id.into(),
            names: names.iter().map(|n| (*n).to_owned()).collect(),
            ..Entry::default()
        }
    }

    fn subject<'a>(first_name: &'a str, last_name: &'a str) -> Subject<'a> {
        Subject {
            first_name,
            last_name,
            date_of_birth: None,
            country: None,
        }
    }

    /// A small list with namesakes and look-alikes of each other.
    fn list() -> Index {
        Index::new(vec![
            entry("1", &["SMITH, John", "Johnny Smith"]),
            entry("2", &["Mary Smith"]),
            entry("3", &["Muhammad Ali Khan"]),
            entry("4", &["Abdulrahman Al-Haj"]),
            entry("5", &["KIM, Jong Un", "Kim Chong-un"]),
            entry("6", &["Yevgeniy Viktorovich Prigozhin"]),
            entry("7", &["ACME TRADING CO., LTD.", "Acme Trading Limited"]),
            entry("8", &["José María García López"]),
            entry("9", &["Sergei Lavrov"]),
            entry("10", &["Petro Poroshenko"]),
        ])
    }

    fn top(index: &Index, s: &Subject<'_>) -> Option<(String, u8)> {
        index
            .screen(s, 80)
            .first()
            .map(|h| (h.entry.id.clone(), h.score))
    }

    #[test]
    fn the_contract_survives_table() {
        let index = list();
        // (first names, last name, expected entry): each row names the contract's case.
        let cases = [
            ("case", "john", "smith", "1"),
            ("accents", "Jose Maria", "Garcia Lopez", "8"),
            ("accents kept", "José María", "García López", "8"),
            ("transliteration", "Евгений Викторович", "Пригожин", "6"),
            ("transliteration variant", "Yevgeny", "Prigozhin", "6"),
            ("name order", "Smith", "John", "1"),
            ("list order", "Jong Un", "Kim", "5"),
            ("missing middle name", "Yevgeniy", "Prigozhin", "6"),
            (
                "missing middle name, subject's",
                "Sergei Viktorovich",
                "Lavrov",
                "9",
            ),
            ("initials", "J.", "Smith", "1"),
            ("hyphens", "Jong-Un", "Kim", "5"),
            ("spaces", "Abdul Rahman", "Al Haj", "4"),
            ("joined particle", "Abdulrahman", "Alhaj", "4"),
            ("honorifics", "Dr. Sergei", "Lavrov", "9"),
            (
                "honorifics in the list",
                "Sheikh Abdulrahman",
                "Al-Haj",
                "4",
            ),
            ("misspelling", "Mohammed Ali", "Khan", "3"),
            ("misspelled surname", "Sergei", "Lavrof", "9"),
            (
                "misspelled surname, sound changed",
                "Petro",
                "Poroschenko",
                "10",
            ),
            ("organisation", "", "Acme Trading Ltd", "7"),
            ("organisation, other form", "", "ACME TRADING S.A.", "7"),
        ];
        for (case, first, last, id) in cases {
            let hits = index.screen(&subject(first, last), 90);
            assert_eq!(
                hits.first().map(|h| h.entry.id.as_str()),
                Some(id),
                "{case}: {hits:?}"
            );
        }
    }

    #[test]
    fn different_people_do_not_match() {
        let index = list();
        let cases = [
            ("same surname, other given name", "Mary", "Smith", "1"),
            ("same surname, other given name", "John", "Smith", "2"),
            ("same given names", "Muhammad Ali", "Hassan", "3"),
            ("a particle in common", "Rahman", "Al-Masri", "4"),
            ("other company", "", "Acme Shipping Ltd", "7"),
            ("only the surname", "Vladimir", "Lavrov", "9"),
        ];
        for (case, first, last, not) in cases {
            let hits = index.screen(&subject(first, last), 80);
            assert!(!hits.iter().any(|h| h.entry.id == not), "{case}: {hits:?}");
        }
    }

    #[test]
    fn a_different_date_of_birth_lowers_the_score_below_a_hit() {
        let mut lavrov = entry("9", &["Sergei Lavrov"]);
        lavrov.dates_of_birth = vec![BirthDate {
            year: 1950,
            month_day: Some((3, 21)),
        }];
        let index = Index::new(vec![lavrov]);
        let born =
            |year, month, day| Date::from_calendar_date(year, month, day).expect("a valid date");
        let mut s = subject("Sergei", "Lavrov");
        assert_eq!(top(&index, &s), Some(("9".into(), 100)), "no date given");
        s.date_of_birth = Some(born(1950, Month::March, 21));
        assert_eq!(top(&index, &s), Some(("9".into(), 100)), "same date");
        s.date_of_birth = Some(born(1962, Month::March, 21));
        assert_eq!(top(&index, &s), Some(("9".into(), 85)), "another year");
        assert!(
            index.screen(&s, 90).is_empty(),
            "no hit at the default threshold"
        );
        s.date_of_birth = Some(born(1950, Month::March, 22));
        assert_eq!(top(&index, &s), Some(("9".into(), 85)), "another day");
    }

    #[test]
    fn a_list_giving_only_the_year_agrees_on_the_year() {
        let mut lavrov = entry("9", &["Sergei Lavrov"]);
        lavrov.dates_of_birth = vec![BirthDate {
            year: 1950,
            month_day: None,
        }];
        let index = Index::new(vec![lavrov]);
        let mut s = subject("Sergei", "Lavrov");
        s.date_of_birth =
            Some(Date::from_calendar_date(1950, Month::July, 1).expect("a valid date"));
        assert_eq!(top(&index, &s), Some(("9".into(), 100)));
    }

    #[test]
    fn the_country_is_a_tie_breaker() {
        let mut ru = entry("1", &["Sergei Lavrov"]);
        ru.countries = vec!["Russia".into()];
        let mut ua = entry("2", &["Sergei Lavrov"]);
        ua.countries = vec!["UA".into()];
        let index = Index::new(vec![ua, ru]);
        let mut s = subject("Sergei", "Lavrov");
        s.country = Some("RU");
        let hits = index.screen(&s, 80);
        let got: Vec<(&str, u8)> = hits
            .iter()
            .map(|h| (h.entry.id.as_str(), h.score))
            .collect();
        assert_eq!(got, [("1", 100), ("2", 97)]);
    }

    #[test]
    fn an_initial_for_a_last_name_and_a_slip_in_a_short_surname_still_find_their_entry() {
        let index = Index::new(vec![
            entry("1", &["X. Qiao"]),
            entry("2", &["T. Clayton"]),
            entry("3", &["Qiao Wu"]),
            entry("4", &["Clayton Anna"]),
        ]);
        // The fields swapped: "X." can be no surname, so every word is one.
        let hits = index.screen(&subject("Qiao", "X."), 90);
        assert_eq!(
            hits.first().map(|h| h.entry.id.as_str()),
            Some("1"),
            "{hits:?}"
        );
        // A letter dropped from a short surname beside an initial: its sound and first
        // letters changed, a key of the words one letter apart still meets.
        let hits = index.screen(&subject("T.", "Cayton"), 90);
        assert_eq!(
            hits.first().map(|h| h.entry.id.as_str()),
            Some("2"),
            "{hits:?}"
        );
    }

    #[test]
    fn the_threshold_is_honoured() {
        let index = list();
        let s = subject("J.", "Smith");
        let score = top(&index, &s).expect("a hit at 80").1;
        assert!(score < 100);
        assert_eq!(index.screen(&s, score).len(), 1);
        assert!(index.screen(&s, score + 1).is_empty());
    }

    #[test]
    fn best_first_then_by_id() {
        let index = Index::new(vec![
            entry("b", &["John Smith"]),
            entry("c", &["J. Smith"]),
            entry("d", &["Jon Smith"]),
            entry("a", &["John Smith"]),
        ]);
        let hits = index.screen(&subject("John", "Smith"), 80);
        let ids: Vec<&str> = hits.iter().map(|h| h.entry.id.as_str()).collect();
        // "John" is a word of this list besides "Jon": two names (80), below the
        // initial (85).
        assert_eq!(ids, ["a", "b", "c", "d"], "{hits:?}");
        assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
    }

    #[test]
    fn the_best_name_of_an_entry_is_the_hit() {
        let index = list();
        let hits = index.screen(&subject("Chong Un", "Kim"), 90);
        assert_eq!(hits.len(), 1);
        assert_eq!((hits[0].matched_name, hits[0].score), ("Kim Chong-un", 100));
    }

    #[test]
    fn no_candidate_without_a_shared_key() {
        let index = list();
        for (first, last) in [("Xavier", "Quinteros"), ("Bin", "De"), ("", ""), ("J.", "")] {
            let query = names::normalise(&[first, last]);
            assert!(index.candidates(&query).is_empty(), "{first} {last}");
            assert!(
                index.screen(&subject(first, last), 80).is_empty(),
                "{first} {last}"
            );
        }
    }

    /// Syllables for synthetic names: 30 of them make 27 000 names of three.
    const SYLLABLES: [&str; 30] = [
        "ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "da", "be", "go", "ha", "ji", "pe", "zu",
        "ta", "ri", "no", "mu", "fe", "wa", "ye", "shi", "cho", "dra", "kel", "mon", "tar", "vin",
        "zor",
    ];

    /// A name of `syllables` syllables from `seed` (a linear congruential generator).
    fn word(seed: &mut u64, syllables: usize) -> String {
        (0..syllables)
            .map(|_| {
                *seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                SYLLABLES[(*seed >> 33) as usize % SYLLABLES.len()]
            })
            .collect()
    }

    #[test]
    fn a_common_given_name_with_a_misspelled_surname_is_found_among_few() {
        // Given names and first letters common enough that neither is a candidate alone.
        let mut seed = 3;
        let mut entries: Vec<Entry> = (0..2 * RARE_KEY_NAMES)
            .map(|i| {
                let name = if i % 2 == 0 {
                    format!("Mohammed {}", word(&mut seed, 3))
                } else {
                    format!("Ahmed Pri{}", word(&mut seed, 2))
                };
                entry(&i.to_string(), &[&name])
            })
            .collect();
        entries.push(entry("target", &["Mohammed Prigozhin"]));
        let index = Index::new(entries);
        for (first, last) in [("Mohammed", "Prigozhin"), ("Muhammad", "Prigoshin")] {
            let candidates = index.candidates(&names::normalise(&[first, last]));
            assert!(
                candidates.len() < 10,
                "{first} {last}: {}",
                candidates.len()
            );
            let hits = index.screen(&subject(first, last), 90);
            assert_eq!(
                hits.first().map(|h| h.entry.id.as_str()),
                Some("target"),
                "{hits:?}"
            );
        }
    }

    #[test]
    fn the_memo_changes_no_score() {
        let mut seed = 11;
        let index = Index::new(
            (0..500)
                .map(|i| {
                    entry(
                        &i.to_string(),
                        &[&format!("Mohammed {} Khan", word(&mut seed, 1 + i % 3))],
                    )
                })
                .chain([entry(
                    "x",
                    &["Abdul Rahman Khan", "J. Khan", "Khan Mohamed"],
                )])
                .collect(),
        );
        for (first, last) in [
            ("Mohammed Abdulrahman", "Khan"),
            ("J", "Kahn"),
            ("Mohamed", "Khan"),
        ] {
            let query = names::normalise(&[first, last]);
            let mut memo = score::Memo::default();
            for id in index.candidates(&query) {
                let listed = &index.names[id as usize].normal;
                let remembered = score::name_score(&query, listed, &mut memo);
                let fresh = score::name_score(&query, listed, &mut score::Memo::default());
                assert_eq!(remembered, fresh, "{first} {last} / {listed:?}");
            }
        }
    }

    #[test]
    fn a_large_list_gives_few_candidates() {
        let mut seed = 7;
        let entries: Vec<Entry> = (0..20_000)
            .map(|i| {
                let names: Vec<String> = (0..4)
                    .map(|_| format!("{} {}", word(&mut seed, 2), word(&mut seed, 3)))
                    .collect();
                Entry {
                    id: i.to_string(),
                    names,
                    ..Entry::default()
                }
            })
            .collect();
        let probe = entries[123].names[0].clone();
        let index = Index::new(entries);
        let (first, last) = probe.split_once(' ').expect("two words");
        let candidates = index.candidates(&names::normalise(&[first, last]));
        assert!(
            !candidates.is_empty() && candidates.len() < 800,
            "{} of 80 000 names",
            candidates.len()
        );
        let hits = index.screen(&subject(first, last), 100);
        assert!(hits.iter().any(|h| h.entry.id == "123"), "{hits:?}");
    }
}
