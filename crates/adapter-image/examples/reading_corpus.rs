//! How much of the generated corpus the reader reads, condition by condition, and how
//! long each photo takes: the figures of `docs/verification.md` (a benchmark, not a
//! test). A reading counts as read only when it says what the document says. One whose
//! number or date of birth differs with every check holding is wrong, the failure that
//! must never happen; one whose name alone differs is a misread name (no check digit
//! covers names: `name_match` fails and says so).
//!
//! `cargo run --release -p adapter-image --example reading_corpus -- [licences|passports|both|cards|bills] [SEED] [PER_CONDITION]`
//!
//! A bill or statement counts as read when `proof_of_address` passes for its holder
//! with its own issue date (wrong: it passes with a later date, which makes an old bill
//! look recent; "name misread": only the name failed; refused: another reason, or it
//! passes with an earlier date).
//!
//! Passports need tesseract. With `CORPUS_MISSES=DIR`, each photo not
//! read is written there (made-up holders only) to look at; with `CORPUS_ONLY=Phone`
//! (a condition's name as in `Condition`), only that condition is taken; with
//! `CORPUS_TIMES=1`, each photo's time and outcome is printed on a line of its own
//! (`time <seconds> <outcome> <condition>`), to see what a shorter search would lose.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use adapter_image::Analyser;
use domain::template::Feature;
use domain::verification::matching::AddressParts;
use domain::verification::proof_of_address::{self, MaxAge};
use domain::verification::{
    BarcodeReading, CheckStatus, Claimed, Examined, ImageReport, MrzReading, Reason, Wanted,
};
use fixtures::bill::{Bill, Language};
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

/// The day the corpus's bills are judged on, as if the quiz were submitted then.
const SUBMITTED: time::Date = time::macros::date!(2026 - 11 - 20);

fn outcome(truth: &Truth, report: &ImageReport) -> Outcome {
    let read = match (truth, report) {
        (Truth::Bill(bill), report) => return bill_outcome(bill, report),
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
        Truth::Bill(_) => unreachable!("judged above"),
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

/// A bill is read when `proof_of_address` passes for its holder with its own issue
/// date; wrong when it passes with another date.
fn bill_outcome(bill: &Bill, report: &ImageReport) -> Outcome {
    let country = match bill.state.is_empty() {
        true => match bill.language {
            Language::Spanish => "ES",
            _ => "FR",
        },
        false => "US",
    };
    let region = match bill.state.is_empty() {
        true => bill.postal.clone(),
        false => format!("{} {}", bill.state, bill.postal),
    };
    let line = format!("{}, {}, {region}, {country}", bill.street, bill.city);
    let claimed = Claimed {
        first_name: bill.first_name.clone(),
        last_name: bill.last_name.clone(),
        licence_number: None,
        address: AddressParts::of_one_line(&line),
        country: Some(country.into()),
    };
    let images = [Examined {
        document_id: "d1".into(),
        step: Feature::UtilityBillUpload,
        side: None,
        report: report.clone(),
    }];
    let check = proof_of_address::proof_of_address(&images, &claimed, SUBMITTED, MaxAge::DEFAULT);
    if check.status != CheckStatus::Passed {
        eprintln!("  reasons: {:?}", check.reasons);
    }
    let issued = proof_of_address::reads(&images, &claimed, SUBMITTED)
        .first()
        .and_then(|(_, read)| read.issued_on);
    match (check.status, issued) {
        (CheckStatus::Passed, Some(day)) if day == bill.issued_on => Outcome::Read,
        // A later date than the bill's makes an old bill look recent.
        (CheckStatus::Passed, Some(day)) if day > bill.issued_on => Outcome::Wrong,
        // An earlier one (a period's end, a misread issue date) errs the safe way.
        (CheckStatus::Passed, _) => Outcome::Refused,
        _ if check.reasons == [Reason::PoaNameMismatch] => Outcome::NameMisread,
        _ if check.reasons == [Reason::PoaUnreadable] => Outcome::Missed,
        _ => Outcome::Refused,
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
        if std::env::var_os("CORPUS_TIMES").is_some() {
            let seconds = took.as_secs_f64();
            println!("time {seconds:.3} {outcome:?} {:?}", sample.condition);
        }
        if outcome != Outcome::Read {
            // The corpus's holders are made up: what was read may be printed.
            eprintln!(
                "{name} {:?}: {outcome:?} {:?}\n  truth: {:?}\n  read: {:?} {:?} {:?}\n",
                sample.condition,
                sample.shot,
                sample.truth,
                report.barcode,
                report.mrz,
                report.text
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

/// Typefaces of this machine a bill may be printed in, besides OCR-B (Debian's
/// `fonts-dejavu-core` and `fonts-liberation`, when installed).
fn machine_fonts() -> Vec<ab_glyph::FontVec> {
    [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
    ]
    .iter()
    .filter_map(|path| ab_glyph::FontVec::try_from_vec(std::fs::read(path).ok()?).ok())
    .collect()
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
    if what == "cards" {
        let wanted = Wanted {
            mrz: true,
            ..Wanted::default()
        };
        match corpus::cards(seed, per, &conditions) {
            Ok(samples) => run("ID cards", samples, wanted),
            Err(missing) => eprintln!("ID cards skipped: {missing}"),
        }
    }
    if what == "bills" {
        let wanted = Wanted {
            text: true,
            ..Wanted::default()
        };
        match corpus::bills(seed, per, &conditions, SUBMITTED, machine_fonts()) {
            Ok(samples) => {
                let samples: Vec<Sample> = samples.collect();
                // The same bills as their makers' PDFs, with their own text.
                let own = samples.iter().map(|s| match &s.truth {
                    Truth::Bill(bill) => Sample {
                        bytes: bill.pdf(),
                        condition: Condition::Straight,
                        ..s.clone()
                    },
                    _ => unreachable!("bills only"),
                });
                run(
                    "bills and statements, their own PDFs",
                    own.collect::<Vec<_>>().into_iter(),
                    wanted,
                );
                run(
                    "bills and statements, photographed or scanned",
                    samples.into_iter(),
                    wanted,
                );
            }
            Err(missing) => eprintln!("bills skipped: {missing}"),
        }
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
