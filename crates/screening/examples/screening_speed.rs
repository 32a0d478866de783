//! How fast one screening is against a list the size of the contract's: 20 000 entries
//! with 60 000 aliases, made up from syllables (seeded, so every run screens the same).
//!
//! `cargo run --release -p screening --example screening_speed [seed]` prints the index's
//! build time and p50, p95, p99 and max of 10 000 screenings. Names are drawn with
//! Zipf's law from pools of given names (400, exponent 1) and surnames (20 000, exponent
//! 0.7), as real lists have a few very common names (the blocking keys' longest lists
//! are what costs); half the subjects are variants of listed names (so hits are scored
//! through), half other people. Then the
//! first 100 subjects are screened against every entry alone, to count the hits the
//! blocking keys lose: syllable names are short and alike, and the commonest given name
//! is one in seven, so this is harsher than a real list.

use screening::{BirthDate, Entry, Index, Subject};
use std::time::{Duration, Instant};
use time::{Date, Month};

const ENTRIES: usize = 20_000;
const ALIASES: usize = 60_000;
const SUBJECTS: usize = 10_000;
const THRESHOLD: u8 = 80;
/// Subjects also screened against every entry alone, to count the hits blocking loses.
const RECALL_SUBJECTS: usize = 100;

const SYLLABLES: &[&str] = &[
    "a", "ab", "al", "an", "ar", "ba", "be", "bi", "bo", "da", "de", "di", "do", "el", "fa", "fe",
    "ga", "go", "ha", "he", "hi", "ho", "hu", "ja", "je", "jo", "ka", "ke", "ki", "ko", "ku", "la",
    "le", "li", "lo", "ma", "me", "mi", "mo", "mu", "na", "ne", "ni", "no", "nu", "or", "pa", "pe",
    "ra", "re", "ri", "ro", "ru", "sa", "se", "shi", "si", "so", "su", "ta", "te", "ti", "to",
    "tu", "va", "ve", "vi", "vo", "ya", "yo", "za", "ze", "zo", "chen", "dra", "hov", "kar", "lev",
    "man", "mir", "nov", "rah", "sha", "tan", "vich", "yev", "zan",
];
const PARTICLES: &[&str] = &["al", "bin", "de", "van", "el"];
const TITLES: &[&str] = &["Dr.", "Sheikh", "Haji", "General", "Mr"];
const SUFFIXES: &[&str] = &["LLC", "Ltd", "S.A.", "GmbH", "Co., Ltd."];
const COUNTRIES: &[&str] = &[
    "RU", "IR", "KP", "SY", "IQ", "AF", "VE", "BY", "CU", "MM", "LY", "SD",
];

/// SplitMix64: small, seeded, good enough to draw test names.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn word(&mut self) -> String {
        let syllables = 2 + self.below(2);
        let mut word: String = (0..syllables).map(|_| self.pick(SYLLABLES)).collect();
        if let Some(first) = word.get_mut(..1) {
            first.make_ascii_uppercase();
        }
        word
    }
}

/// A pool of names drawn by Zipf's law (weight 1/rank^exponent).
struct Pool {
    names: Vec<String>,
    cumulative: Vec<f64>,
}

impl Pool {
    fn new(draw: &mut Draw, size: usize, exponent: f64) -> Self {
        let names = (0..size).map(|_| draw.word()).collect();
        let mut total = 0.0;
        let cumulative = (1..=size)
            .map(|rank| {
                total += 1.0 / (rank as f64).powf(exponent);
                total
            })
            .collect();
        Self { names, cumulative }
    }

    fn pick(&self, draw: &mut Draw) -> &str {
        let total = self.cumulative.last().copied().unwrap_or(1.0);
        let x = (draw.next() >> 11) as f64 / (1u64 << 53) as f64 * total;
        let i = self
            .cumulative
            .partition_point(|c| *c < x)
            .min(self.names.len() - 1);
        &self.names[i]
    }
}

/// A name written another way: one letter changed, words reordered, a word dropped,
/// an initial, a particle or title added, upper case, "SURNAME, Given".
fn variant(draw: &mut Draw, words: &[String]) -> String {
    let mut words = words.to_vec();
    match draw.below(8) {
        0 => {
            let i = draw.below(words.len());
            let w = &mut words[i];
            let at = 1 + draw.below(w.len().saturating_sub(1).max(1));
            if at < w.len() {
                w.replace_range(at..=at, draw.pick(&["a", "e", "i", "o", "u", "y"]));
            }
        }
        1 => words.reverse(),
        2 if words.len() > 2 => {
            words.remove(1);
        }
        3 => words[0].truncate(1),
        4 => words.insert(words.len() - 1, draw.pick(PARTICLES).to_owned()),
        5 => words.insert(0, draw.pick(TITLES).to_owned()),
        6 => {
            let last = words.pop().unwrap_or_default();
            return format!("{}, {}", last.to_uppercase(), words.join(" "));
        }
        _ => words.iter_mut().for_each(|w| *w = w.to_uppercase()),
    }
    words.join(" ")
}

fn person(draw: &mut Draw, given: &Pool, surnames: &Pool) -> Vec<String> {
    let mut words = vec![given.pick(draw).to_owned()];
    if draw.chance(40) {
        words.push(given.pick(draw).to_owned());
    }
    words.push(surnames.pick(draw).to_owned());
    words
}

fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut draw = Draw(seed);
    // The commonest given name is one in seven (Mohammed and its spellings on real
    // lists), the commonest surname one in sixty.
    let given = Pool::new(&mut draw, 400, 1.0);
    let surnames = Pool::new(&mut draw, 20_000, 0.7);

    // 20 000 entries, 60 000 aliases spread 0-6 per entry (3 on average).
    let mut entries = Vec::with_capacity(ENTRIES);
    let mut aliases_left = ALIASES;
    for i in 0..ENTRIES {
        let organisation = draw.chance(10);
        let words = if organisation {
            vec![draw.word(), draw.word(), "Trading".to_owned()]
        } else {
            person(&mut draw, &given, &surnames)
        };
        let mut names = vec![if organisation {
            format!("{} {}", words.join(" "), draw.pick(SUFFIXES))
        } else {
            words.join(" ")
        }];
        let remaining_entries = ENTRIES - i;
        let count = if remaining_entries == 1 {
            aliases_left
        } else {
            draw.below(7).min(aliases_left)
        };
        // Keep the total at 60 000 whatever the draws: top up the last entries.
        let count = count.max(aliases_left.saturating_sub(6 * (remaining_entries - 1)));
        aliases_left -= count;
        for _ in 0..count {
            names.push(if draw.chance(25) {
                person(&mut draw, &given, &surnames).join(" ")
            } else {
                variant(&mut draw, &words)
            });
        }
        let dates_of_birth = if organisation || draw.chance(30) {
            Vec::new()
        } else {
            let year = 1940 + draw.below(60) as i32;
            let month_day = draw
                .chance(60)
                .then(|| (1 + draw.below(12) as u8, 1 + draw.below(28) as u8));
            vec![BirthDate { year, month_day }]
        };
        let countries = if draw.chance(70) {
            vec![draw.pick(COUNTRIES).to_owned()]
        } else {
            Vec::new()
        };
        entries.push(Entry {
            id: format!("E{i:05}"),
            names,
            dates_of_birth,
            countries,
        });
    }
    let aliases: usize = entries.iter().map(|e| e.names.len() - 1).sum();

    // 10 000 subjects: half variants of a listed name, half people drawn afresh.
    let subjects: Vec<(String, String, Option<Date>)> = (0..SUBJECTS)
        .map(|_| {
            let words = if draw.chance(50) {
                let entry = &entries[draw.below(entries.len())];
                let name = &entry.names[draw.below(entry.names.len())];
                let words: Vec<String> = name.split(' ').map(str::to_owned).collect();
                variant(&mut draw, &words)
                    .split(' ')
                    .map(str::to_owned)
                    .collect()
            } else {
                person(&mut draw, &given, &surnames)
            };
            let (last, first) = words
                .split_last()
                .map_or((String::new(), &[][..]), |(l, f)| (l.clone(), f));
            let date = draw.chance(50).then(|| {
                Date::from_calendar_date(
                    1940 + draw.below(60) as i32,
                    Month::January,
                    1 + draw.below(28) as u8,
                )
                .unwrap_or(Date::MIN)
            });
            (first.join(" "), last, date)
        })
        .collect();

    let started = Instant::now();
    let index = Index::new(entries);
    let build = started.elapsed();

    let mut times: Vec<Duration> = Vec::with_capacity(SUBJECTS);
    let mut hits = 0usize;
    let mut with_hits = 0usize;
    for (first_name, last_name, date_of_birth) in &subjects {
        let subject = Subject {
            first_name,
            last_name,
            date_of_birth: *date_of_birth,
            country: Some("RU"),
        };
        let started = Instant::now();
        let found = index.screen(&subject, THRESHOLD);
        times.push(started.elapsed());
        hits += found.len();
        with_hits += usize::from(!found.is_empty());
    }
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "list: {} entries, {aliases} aliases; index built in {:.1} ms",
        index.entries().len(),
        build.as_secs_f64() * 1e3
    );
    println!(
        "{} screenings at threshold {THRESHOLD}: p50 {:.1} µs, p95 {:.1} µs, p99 {:.1} µs, max {:.1} µs",
        times.len(),
        at(0.50).as_secs_f64() * 1e6,
        at(0.95).as_secs_f64() * 1e6,
        at(0.99).as_secs_f64() * 1e6,
        at(1.0).as_secs_f64() * 1e6
    );
    println!("{with_hits} subjects with a hit, {hits} hits in all");

    // What the blocking keys cost in hits: the first subjects screened against every
    // entry alone (an index of one entry, where every key is rare, so every name that
    // shares any key with the subject is scored).
    let alone: Vec<Index> = index
        .entries()
        .iter()
        .map(|e| Index::new(vec![e.clone()]))
        .collect();
    let (mut kept, mut all, mut kept_90, mut all_90) = (0, 0, 0, 0);
    for (first_name, last_name, date_of_birth) in subjects.iter().take(RECALL_SUBJECTS) {
        let subject = Subject {
            first_name,
            last_name,
            date_of_birth: *date_of_birth,
            country: Some("RU"),
        };
        let found: Vec<(String, u8)> = index
            .screen(&subject, THRESHOLD)
            .iter()
            .map(|h| (h.entry.id.clone(), h.score))
            .collect();
        for one in &alone {
            for hit in one.screen(&subject, THRESHOLD) {
                let was_found = found.iter().any(|(id, _)| *id == hit.entry.id);
                all += 1;
                kept += usize::from(was_found);
                if hit.score >= 90 {
                    all_90 += 1;
                    kept_90 += usize::from(was_found);
                }
            }
        }
    }
    println!(
        "blocking kept {kept} of {all} hits at {THRESHOLD}+ and {kept_90} of {all_90} at 90+ \
         (first {RECALL_SUBJECTS} subjects, against every entry scored alone)"
    );
}
