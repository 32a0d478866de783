//! How much of the generated corpus the reader reads, condition by condition, and how
//! long each photo takes: the figures of `docs/verification.md` (a benchmark, not a
//! test). A reading counts as read only when it says what the document says. One whose
//! number or date of birth differs with every check holding is wrong, the failure that
//! must never happen; one whose name alone differs is a misread name (no check digit
//! covers names: `name_match` fails and says so).
//!
//! `cargo run --release -p adapter-image --example reading_corpus -- [licences|passports|both] [SEED] [PER_CONDITION]`
//!
//! Passports need tesseract. With `CORPUS_MISSES=DIR`, each photo not
//! read is written there (made-up holders only) to look at; with `CORPUS_ONLY=Phone`
//! (a condition's name as in `Condition`), only that condition is taken.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use adapter_image::Analyser;
use domain::verification::{BarcodeReading, ImageReport, MrzReading, Wanted};
use fixtures::corpus::{self, Condition, Sample, Truth};

/// What became of one photo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Read,
    /// Read, with another number or date of birth than the document's and no failed
    /// check to say so.
    Wrong,
    /// Read, with the name misread: `name_match` says so.
    NameMisread,
    /// Found, but a check digit or the record's shape failed: the reader says so.
    Refused,
    Missed,
}

#[derive(Debug, Default)]
struct Tally {
    outcomes: Vec<Outcome>,
    times: Vec<Duration>,
}

impl Tally {
    fn count(&self, outcome: Outcome) -> usize {
        self.outcomes.iter().filter(|o| **o == outcome).count()
    }

    fn p95(&self) -> Duration {
        let mut times = self.times.clone();
        times.sort();
        times
            .get((times.len() * 95).div_ceil(100).saturating_sub(1))
            .copied()
            .unwrap_or_default()
    }

    fn line(&self, name: &str) -> String {
        let n = self.outcomes.len();
        let read = self.count(Outcome::Read);
        format!(
            "| {name} | {read}/{n} | {:.1} % | {} | {} | {} | {:.2} s |",
            100.0 * read as f64 / n.max(1) as f64,
            self.count(Outcome::Refused),
            self.count(Outcome::NameMisread),
            self.count(Outcome::Wrong),
            self.p95().as_secs_f64()
        )
    }
}

fn outcome(truth: &Truth, report: &ImageReport) -> Outcome {
    let read = match (truth, report) {
        (
            Truth::Licence(_),
            ImageReport {
                barcode: Some(reading),
                ..
            },
        ) => match reading {
            BarcodeReading::Read(read) => read,
            BarcodeReading::Invalid => return Outcome::Refused,
            BarcodeReading::NotFound => return Outcome::Missed,
        },
        (
            Truth::Passport(_),
            ImageReport {
                mrz: Some(reading), ..
            },
        ) => match reading {
            MrzReading::Read(read) => read,
            MrzReading::CheckDigitInvalid => return Outcome::Refused,
            MrzReading::NotFound | MrzReading::OcrUnavailable => return Outcome::Missed,
        },
        _ => return Outcome::Missed,
    };
    let (number, birth, family) = match truth {
        Truth::Licence(licence) => (&licence.number, licence.date_of_birth, &licence.last_name),
        Truth::Passport(passport) => (&passport.number, passport.birth, &passport.surname),
    };
    // The zone writes a space in a name as a filler, read back as a space.
    let family_read = read.last_name.as_deref().map(|n| n.replace(['<', ' '], ""));
    if read.document_number.as_deref() != Some(number.as_str()) || read.date_of_birth != Some(birth)
    {
        Outcome::Wrong
    } else if family_read.as_deref() != Some(&family.replace(' ', "")[..]) {
        Outcome::NameMisread
    } else {
        Outcome::Read
    }
}

fn run(name: &str, samples: impl Iterator<Item = Sample>, wanted: Wanted) {
    let analyser = Analyser::default();
    let mut tallies: BTreeMap<Condition, Tally> = BTreeMap::new();
    let mut all = Tally::default();
    for sample in samples {
        let started = Instant::now();
        let report = analyser.analyse(&sample.bytes, wanted);
        let took = started.elapsed();
        let outcome = outcome(&sample.truth, &report);
        if outcome != Outcome::Read {
            // The corpus's holders are made up: what was read may be printed.
            eprintln!(
                "{name} {:?}: {outcome:?} {:?}\n  truth: {:?}\n  read: {:?} {:?}",
                sample.condition, sample.shot, sample.truth, report.barcode, report.mrz
            );
            if let Ok(dir) = std::env::var("CORPUS_MISSES") {
                let file = format!(
                    "{dir}/{name}-{:?}-{}.jpg",
                    sample.condition,
                    all.outcomes.len()
                );
                let _ = std::fs::write(file, &sample.bytes);
            }
        }
        let tally = tallies.entry(sample.condition).or_default();
        for tally in [tally, &mut all] {
            tally.outcomes.push(outcome);
            tally.times.push(took);
        }
    }
    println!("\n{name}\n");
    println!("| condition | read | share | refused | name misread | wrong | p95 |");
    println!("|---|---|---|---|---|---|---|");
    for (condition, tally) in &tallies {
        println!("{}", tally.line(condition.name()));
    }
    println!("{}", all.line("**all**"));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("both", String::as_str);
    let seed = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let per = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(8);
    let only = std::env::var("CORPUS_ONLY").ok();
    let conditions: Vec<Condition> = Condition::ALL
        .into_iter()
        .filter(|c| only.as_deref().is_none_or(|only| format!("{c:?}") == only))
        .collect();
    println!("seed {seed}, {per} photos per condition");
    if matches!(what, "licences" | "both") {
        let wanted = Wanted {
            barcode: true,
            mrz: false,
            faces: false,
            text: false,
        };
        run("licences", corpus::licences(seed, per, &conditions), wanted);
    }
    if matches!(what, "passports" | "both") {
        let wanted = Wanted {
            barcode: false,
            mrz: true,
            faces: false,
            text: false,
        };
        match corpus::passports(seed, per, &conditions) {
            Ok(samples) => run("passports", samples, wanted),
            Err(missing) => eprintln!("passports skipped: {missing}"),
        }
    }
}
