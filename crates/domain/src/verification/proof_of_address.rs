//! `proof_of_address` (contract §18): a utility bill or bank statement names the client
//! at the address they gave, and was issued recently. The analysis gives each file's text
//! (a PDF's own, or what OCR read) and the signs a PDF was edited; this module finds the
//! client's name, address and the issue date in it, loosely as `name_match` and
//! `address_match` compare, and judges them.
//!
//! A bill is a letter: the addressee's name, then the street, then the city line with the
//! postal code, aligned on the left; the issuer's own address and other dates are around
//! it. So the client's postal code is looked for first, their street on the lines just
//! above it, and their name anywhere on one line.

mod dates;

use std::collections::BTreeSet;

use time::Date;

use super::check::{Check, CheckName, Detail, Reason};
use super::documents::{Claimed, Examined};
use super::matching::{self, AddressParts, first_word, fold, postal_key, squeezed};
use super::reading::{DocumentRead, DocumentText, PdfEdit, ReadSource, TextReading};
use crate::ids::DocumentId;
use crate::template::Feature;
use crate::validation::Invalid;

/// How old a proof of address may be, in days before the quiz's submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaxAge(u16);

impl MaxAge {
    /// The contract's default: 90 days.
    pub const DEFAULT: MaxAge = MaxAge(90);

    /// 1 to 365 days.
    pub fn new(days: i64) -> Result<Self, Invalid> {
        u16::try_from(days)
            .ok()
            .filter(|d| (1..=365).contains(d))
            .map(Self)
            .ok_or_else(|| Invalid::new("must be a whole number of days from 1 to 365"))
    }

    /// In days.
    pub fn days(&self) -> u16 {
        self.0
    }
}

impl Default for MaxAge {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The steps whose files prove an address, and the document type each is.
const STEPS: [(Feature, &str); 2] = [
    (Feature::UtilityBillUpload, "utility_bill"),
    (Feature::BankStatementUpload, "bank_statement"),
];

/// Courtesy titles before a name, folded.
const TITLES: [&str; 12] = [
    "mr", "mrs", "ms", "miss", "mx", "dr", "m", "mme", "mlle", "sr", "sra", "srta",
];

/// One proof of address: the text of its files together.
struct Proof<'a> {
    document_id: &'a DocumentId,
    document_type: &'static str,
    reading: Joined,
}

/// What reading a document's files came to.
enum Joined {
    Read {
        text: String,
        edits: BTreeSet<PdfEdit>,
    },
    OcrUnavailable,
    Unreadable,
}

/// The quiz's proofs of address, their files' texts joined, in the order they came.
fn proofs(images: &[Examined]) -> Vec<Proof<'_>> {
    let mut proofs: Vec<Proof<'_>> = Vec::new();
    for image in images {
        let Some((_, document_type)) = STEPS.iter().find(|(step, _)| *step == image.step) else {
            continue;
        };
        let Some(reading) = &image.report.text else {
            continue;
        };
        let index = match proofs
            .iter()
            .position(|p| *p.document_id == image.document_id)
        {
            Some(index) => index,
            None => {
                proofs.push(Proof {
                    document_id: &image.document_id,
                    document_type,
                    reading: Joined::Unreadable,
                });
                proofs.len() - 1
            }
        };
        let joined = &mut proofs[index].reading;
        match (reading, &mut *joined) {
            (
                TextReading::Read(DocumentText { text, edits }),
                Joined::Read {
                    text: all,
                    edits: seen,
                },
            ) => {
                all.push('\n');
                all.push_str(text);
                seen.extend(edits.iter().copied());
            }
            (TextReading::Read(read), _) => {
                *joined = Joined::Read {
                    text: read.text.clone(),
                    edits: read.edits.iter().copied().collect(),
                };
            }
            (TextReading::OcrUnavailable, Joined::Unreadable) => *joined = Joined::OcrUnavailable,
            _ => {}
        }
    }
    proofs
}

/// A piece of a line: a line of `pdftotext -layout` holds the page's columns side by
/// side, three spaces or more apart.
#[derive(Debug, Clone)]
struct Cell<'a> {
    text: &'a str,
    /// The column it starts at.
    column: usize,
}

fn cells(text: &str) -> Vec<Cell<'_>> {
    let mut cells = Vec::new();
    for line in text.lines() {
        let mut start = None;
        let mut spaces = 0;
        for (i, c) in line.char_indices() {
            if c.is_whitespace() {
                spaces += 1;
                if (spaces >= 3 || c == '\t')
                    && let Some(s) = start.take()
                {
                    cells.push(cell(line, s, i));
                }
                continue;
            }
            if start.is_none() {
                start = Some(i);
            }
            spaces = 0;
        }
        if let Some(s) = start {
            cells.push(cell(line, s, line.len()));
        }
    }
    cells.retain(|c| !c.text.is_empty());
    cells
}

fn cell(line: &str, start: usize, end: usize) -> Cell<'_> {
    Cell {
        text: line[start..end].trim(),
        column: line[..start].chars().count(),
    }
}

/// Whether a folded cell's words hold the postal code `key` (folded, as
/// [`postal_key`] makes it): a US zip as a word of its own (with or without its +4), any
/// other code anywhere once spaces are removed.
fn holds_postal(cell: &str, key: &str) -> bool {
    if key.len() < 3 {
        return false;
    }
    let key = unconfused(key);
    match key.chars().all(|c| c.is_ascii_digit()) {
        true => fold(cell)
            .split(' ')
            .map(unconfused)
            .any(|w| w == key || w.len() == 9 && w.starts_with(&key)),
        false => unconfused(&squeezed(cell)).contains(&key),
    }
}

/// Letters OCR reads for digits, made the digits: "M5V 2T6" read "MSV 2T6", "94105"
/// read "9410S" are the same code.
const CONFUSED: [(char, char); 7] = [
    ('o', '0'),
    ('i', '1'),
    ('l', '1'),
    ('s', '5'),
    ('b', '8'),
    ('z', '2'),
    ('g', '6'),
];

/// `folded` with each letter of [`CONFUSED`] taken as its digit.
fn unconfused(folded: &str) -> String {
    folded
        .chars()
        .map(|c| {
            CONFUSED
                .iter()
                .find(|(l, _)| *l == c)
                .map_or(c, |(_, d)| *d)
        })
        .collect()
}

/// Whether a bill's address, as read, is `typed`: the postal code (through OCR's
/// confusions) and the street with its house number, as the check judges them; `None`
/// when either was not read.
pub fn address_agrees(typed: &AddressParts, read: &DocumentRead) -> Option<bool> {
    let postal = holds_postal(read.postal.as_deref()?, &postal_key(&typed.postal));
    Some(postal && matching::streets_agree(&typed.street, read.address_line_1.as_deref()?))
}

/// The cells of an address block above the postal line `at`: its own start (a one-line
/// address, "12 Main St, Springfield, IL 62704") and the cells a few lines up in its
/// column.
fn above(cells: &[Cell<'_>], at: usize) -> Vec<String> {
    let here = &cells[at];
    let mut found = Vec::new();
    if let Some((street, _)) = here.text.split_once(',') {
        found.push(street.to_owned());
    }
    let aligned = cells[..at]
        .iter()
        .rev()
        .filter(|c| c.column.abs_diff(here.column) <= 4)
        .take(3);
    found.extend(aligned.map(|c| c.text.to_owned()));
    found
}

/// What a proof of address says, and whether it is the client's.
struct Statement {
    read: DocumentRead,
    names_client: bool,
    at_address: bool,
}

/// The words of a name cell as printed, courtesy titles and punctuation removed.
fn name_words(cell: &str) -> Vec<String> {
    cell.split(|c: char| c.is_whitespace() || c == ',')
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty() && !TITLES.contains(&fold(w).as_str()))
        .map(str::to_owned)
        .collect()
}

/// First and last name of a name cell: "SMITH, John" or "Mr John Q Smith".
fn names_of(cell: &str) -> (Option<String>, Option<String>) {
    let words = name_words(cell);
    match cell.split_once(',') {
        Some((last, first)) if !name_words(first).is_empty() => (
            name_words(first).into_iter().next(),
            Some(name_words(last).join(" ")).filter(|l| !l.is_empty()),
        ),
        _ => (
            words.first().cloned(),
            words.last().filter(|_| words.len() > 1).cloned(),
        ),
    }
}

/// Letters and digits OCR reads for one another in a printed name, made one: "0'BRIEN"
/// is "O'Brien", "LlLI" and "Lili" are one name.
fn name_key(folded: &str) -> String {
    folded
        .chars()
        .map(|c| match c {
            '0' => 'o',
            '1' | 'i' => 'l',
            '5' => 's',
            '8' => 'b',
            c => c,
        })
        .collect()
}

/// How many letters of `word` differ from `of`'s, place by place, when as long: OCR
/// misreads a letter in a name, a label or a month's name.
fn misses<T: PartialEq>(word: &[T], of: &[T]) -> Option<usize> {
    (word.len() == of.len()).then(|| word.iter().zip(of).filter(|(a, b)| a != b).count())
}

/// Whether a line of a bill names the client: their first given name as a word, their
/// whole last name within the line, through OCR's confusions in a name. A last name
/// of five letters or more may differ in one letter ("OKAPOR" for "Okafor"): another
/// person of the household shares it, so this lets no one else's bill pass; the first
/// name must agree, or Maria's bill would be Marie's.
pub fn names_on_line(typed_first: &str, typed_last: &str, line: &str) -> bool {
    let first: Vec<char> = name_key(&first_word(typed_first)).chars().collect();
    let last: Vec<char> = name_key(&squeezed(typed_last)).chars().collect();
    if first.is_empty() || last.is_empty() {
        return false;
    }
    let words: Vec<Vec<char>> = fold(line)
        .split(' ')
        .map(|w| name_key(w).chars().collect())
        .collect();
    let whole = words.concat();
    let allowed = usize::from(last.len() >= 5);
    words.iter().any(|w| misses(w, &first) == Some(0))
        && whole
            .windows(last.len())
            .any(|w| misses(w, &last).is_some_and(|m| m <= allowed))
}

/// The city, state and postal code of a postal line ("Springfield, IL 62704-1234",
/// "Toronto ON M5V 2T6", "75001 Paris").
fn postal_line(line: &str) -> (Option<String>, Option<String>, Option<String>) {
    let words: Vec<&str> = line.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    let is_code = |w: &str| w.chars().any(|c| c.is_ascii_digit());
    let Some(first_code) = words.iter().position(|w| is_code(w)) else {
        return (None, None, None);
    };
    let postal = words[first_code..].join(" ");
    let before = &words[..first_code];
    if before.is_empty() {
        // "75001 Paris": the code first.
        let (code, city) = (words[first_code], words[first_code + 1..].join(" "));
        return (
            Some(city).filter(|c| !c.is_empty()),
            None,
            Some(code.to_owned()),
        );
    }
    let state = before
        .last()
        .filter(|s| s.len() == 2 && s.chars().all(|c| c.is_ascii_uppercase()) && before.len() > 1)
        .map(|s| (*s).to_owned());
    let city_words = &before[..before.len() - usize::from(state.is_some())];
    (Some(city_words.join(" ")), state, Some(postal))
}

/// The first cell with a word of three letters or more that holds no digit: the
/// letterhead.
fn issuer(cells: &[Cell<'_>]) -> Option<String> {
    cells
        .iter()
        .find(|c| {
            !c.text.chars().any(|ch| ch.is_ascii_digit())
                && c.text
                    .split_whitespace()
                    .any(|w| w.chars().filter(|ch| ch.is_alphabetic()).count() >= 3)
        })
        .map(|c| c.text.to_owned())
}

/// Reads `text` for `claimed`'s name and address, and its issue date (none after
/// `latest`).
fn statement(text: &str, document_type: &str, claimed: &Claimed, latest: Date) -> Statement {
    let cells = cells(text);
    let name_cell = cells
        .iter()
        .find(|c| names_on_line(&claimed.first_name, &claimed.last_name, c.text));
    // The client's address: a line with their postal code, their street just above it.
    let mut street = None;
    let mut postal_at = None;
    if let Some(typed) = &claimed.address {
        let key = postal_key(&typed.postal);
        let holding = (0..cells.len()).filter(|at| holds_postal(cells[*at].text, &key));
        for at in holding {
            postal_at.get_or_insert(at);
            if let Some(agreeing) = above(&cells, at)
                .into_iter()
                .find(|s| matching::streets_agree(&typed.street, s))
            {
                street = Some(agreeing);
                postal_at = Some(at);
                break;
            }
        }
    }
    let at_address = street.is_some();
    // What is shown as read: the client's lines where found, else the first line that
    // looks like a postal line with a street above it.
    let postal_at = postal_at.or_else(|| {
        cells.iter().position(|c| {
            let (city, _, postal) = postal_line(c.text);
            city.is_some() && postal.is_some_and(|p| p.len() >= 4)
        })
    });
    let street = street.or_else(|| {
        let at = postal_at?;
        above(&cells, at)
            .into_iter()
            .find(|s| s.trim_start().starts_with(|c: char| c.is_ascii_digit()))
    });
    let (city, state, postal) = postal_at.map_or((None, None, None), |at| {
        // A one-line address ("12 Main St, Springfield, IL 62704") without its street.
        let line = cells[at].text;
        match line.matches(',').count() {
            0 | 1 => postal_line(line),
            _ => postal_line(line.split_once(',').map_or(line, |(_, rest)| rest)),
        }
    });
    let addressee = name_cell.map(|c| c.text.to_owned()).or_else(|| {
        let at = postal_at?;
        above(&cells, at)
            .into_iter()
            .find(|s| !s.chars().any(|c| c.is_ascii_digit()))
    });
    let (first_name, last_name) = addressee.as_deref().map_or((None, None), names_of);
    let month_first = claimed
        .country
        .as_deref()
        .is_none_or(|c| matches!(c.to_ascii_uppercase().as_str(), "US" | "USA"));
    Statement {
        read: DocumentRead {
            source: Some(ReadSource::Text),
            document_type: Some(document_type.to_owned()),
            issuer: issuer(&cells),
            first_name,
            last_name,
            issued_on: dates::issue_date(text, month_first, latest),
            address_line_1: street.map(|s| s.trim().to_owned()),
            city,
            state,
            postal,
            ..DocumentRead::default()
        },
        names_client: name_cell.is_some(),
        at_address,
    }
}

/// The day after `submitted_on`: a bill dated the day of submission anywhere on earth is
/// not in the future.
fn latest(submitted_on: Date) -> Date {
    submitted_on.next_day().unwrap_or(submitted_on)
}

/// What was read from each proof of address, to be kept with its document.
pub fn reads(
    images: &[Examined],
    claimed: &Claimed,
    submitted_on: Date,
) -> Vec<(DocumentId, DocumentRead)> {
    proofs(images)
        .into_iter()
        .filter_map(|proof| match &proof.reading {
            Joined::Read { text, .. } => Some((
                proof.document_id.clone(),
                statement(text, proof.document_type, claimed, latest(submitted_on)).read,
            )),
            _ => None,
        })
        .collect()
}

/// `proof_of_address`: every utility bill and bank statement names the client, carries
/// their address, was issued within `max_age` before `submitted_on`, and (a PDF) shows no
/// sign of editing. Failed on the first document that does not, with all its reasons.
pub fn proof_of_address(
    images: &[Examined],
    claimed: &Claimed,
    submitted_on: Date,
    max_age: MaxAge,
) -> Check {
    let proofs = proofs(images);
    let readable: Vec<&Proof<'_>> = proofs
        .iter()
        .filter(|p| !matches!(p.reading, Joined::OcrUnavailable))
        .collect();
    let Some(first) = readable.first() else {
        let reason = match proofs.is_empty() {
            true => Reason::NoDocument,
            false => Reason::OcrUnavailable,
        };
        return Check::not_applicable(CheckName::ProofOfAddress, reason);
    };
    let max_days = Detail::Number(i64::from(max_age.days()));
    let mut passed = None;
    for proof in &readable {
        let Joined::Read { text, edits } = &proof.reading else {
            return Check::failed(
                CheckName::ProofOfAddress,
                vec![Reason::PoaUnreadable],
                vec![("max_age_days".to_owned(), max_days)],
            )
            .on(proof.document_id.clone());
        };
        let found = statement(text, proof.document_type, claimed, latest(submitted_on));
        let mut reasons = Vec::new();
        if !found.names_client {
            reasons.push(Reason::PoaNameMismatch);
        }
        if !found.at_address {
            reasons.push(Reason::PoaAddressMismatch);
        }
        let age = found
            .read
            .issued_on
            .map(|issued| (submitted_on - issued).whole_days());
        match age {
            None => reasons.push(Reason::PoaDateNotFound),
            Some(days) if days > i64::from(max_age.days()) => reasons.push(Reason::PoaTooOld),
            Some(_) => {}
        }
        if !edits.is_empty() {
            reasons.push(Reason::PoaPdfModified);
        }
        let mut details = vec![
            ("max_age_days".to_owned(), max_days.clone()),
            ("name_matches".to_owned(), Detail::Flag(found.names_client)),
            ("address_matches".to_owned(), Detail::Flag(found.at_address)),
        ];
        if let Some(days) = age {
            details.push(("age_days".to_owned(), Detail::Number(days.max(0))));
        }
        if !reasons.is_empty() {
            return Check::failed(CheckName::ProofOfAddress, reasons, details)
                .on(proof.document_id.clone());
        }
        passed.get_or_insert((proof.document_id, details));
    }
    let (document, details) = passed.unwrap_or((first.document_id, Vec::new()));
    Check::passed(CheckName::ProofOfAddress, details).on(document.clone())
}

#[cfg(test)]
mod tests;
