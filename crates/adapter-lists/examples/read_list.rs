//! Reads a list's files as `idv screening import` would and says what it found, or why it
//! refused them, and how long the reading took:
//!
//!     cargo run --release -p adapter-lists --example read_list -- FORMAT FILE...
//!
//! FORMAT is `ofac-csv` (FILE: sdn.csv, optionally alt.csv and add.csv, in any order),
//! `un-xml`, `eu-xml` or `csv`.

use std::process::ExitCode;
use std::time::Instant;

use adapter_lists::{Format, ListFile, read};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((format, paths)) = args.split_first().filter(|(_, paths)| !paths.is_empty()) else {
        eprintln!("usage: read_list ofac-csv|un-xml|eu-xml|csv FILE...");
        return ExitCode::from(2);
    };
    let format = match Format::parse(format) {
        Ok(format) => format,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut contents = Vec::new();
    for path in paths {
        match std::fs::read(path) {
            Ok(bytes) => contents.push(bytes),
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let files: Vec<ListFile<'_>> = paths
        .iter()
        .zip(&contents)
        .map(|(name, bytes)| ListFile { name, bytes })
        .collect();
    let started = Instant::now();
    let result = read(format, &files);
    let took = started.elapsed();
    match result {
        Ok(entries) => {
            let count = |f: fn(&screening::Entry) -> usize| entries.iter().map(f).sum::<usize>();
            println!(
                "{format}: {} entries, {} names, {} dates of birth, {} countries in {:.1} ms",
                entries.len(),
                count(|e| e.names.len()),
                count(|e| e.dates_of_birth.len()),
                count(|e| e.countries.len()),
                took.as_secs_f64() * 1000.0
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("refused: {e}");
            ExitCode::FAILURE
        }
    }
}
