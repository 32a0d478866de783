//! The date a bill or statement was issued, found in its text (contract §18). Bills write
//! dates in many ways ("Statement date", "Date of issue", "Billing period ... to ...",
//! "03/11/2026", "11 March 2026", "2026-03-11", in French and Spanish too), and print
//! other dates beside it (a due date, a period's start, transactions), so a date is
//! chosen by the label before it: an issue date first, else the end of a billing period,
//! else the latest unlabelled date before any due date. Dates after `latest` (the
//! submission) are no issue date.

use std::sync::LazyLock;

use regex::Regex;
use time::{Date, Month};
use unicode_normalization::UnicodeNormalization;

use super::misses;

/// Month names and their abbreviations in English, French and Spanish, accents removed,
/// each with its month number.
const MONTHS: [(&str, u8); 58] = [
    ("january", 1),
    ("janvier", 1),
    ("janv", 1),
    ("enero", 1),
    ("jan", 1),
    ("ene", 1),
    ("february", 2),
    ("fevrier", 2),
    ("febrero", 2),
    ("fevr", 2),
    ("feb", 2),
    ("fev", 2),
    ("march", 3),
    ("marzo", 3),
    ("mars", 3),
    ("mar", 3),
    ("april", 4),
    ("avril", 4),
    ("abril", 4),
    ("apr", 4),
    ("avr", 4),
    ("abr", 4),
    ("mayo", 5),
    ("may", 5),
    ("mai", 5),
    ("june", 6),
    ("juin", 6),
    ("junio", 6),
    ("jun", 6),
    ("july", 7),
    ("juillet", 7),
    ("julio", 7),
    ("juil", 7),
    ("jul", 7),
    ("august", 8),
    ("agosto", 8),
    ("aout", 8),
    ("aug", 8),
    ("ago", 8),
    ("septembre", 9),
    ("september", 9),
    ("septiembre", 9),
    ("setiembre", 9),
    ("sept", 9),
    ("sep", 9),
    ("october", 10),
    ("octobre", 10),
    ("octubre", 10),
    ("oct", 10),
    ("november", 11),
    ("novembre", 11),
    ("noviembre", 11),
    ("nov", 11),
    ("december", 12),
    ("decembre", 12),
    ("diciembre", 12),
    ("dec", 12),
    ("dic", 12),
];

/// How long a month's name must be for one misread letter in it to be forgiven ("3 de
/// sepuembre de 2026"): a shorter one would take in other words.
const LOOSE_MONTH: usize = 7;

/// A month's number by its name, or, for a name [`LOOSE_MONTH`] long or longer, by the
/// one month whose names of that length it misses by a letter.
fn month_number(name: &str) -> Option<u8> {
    if let Some((_, month)) = MONTHS.iter().find(|(n, _)| *n == name) {
        return Some(*month);
    }
    if name.len() < LOOSE_MONTH {
        return None;
    }
    let mut near = MONTHS
        .iter()
        .filter(|(n, _)| misses(n.as_bytes(), name.as_bytes()) == Some(1))
        .map(|(_, month)| *month);
    let first = near.next()?;
    near.all(|month| month == first).then_some(first)
}

/// A word where a month's name is written: the name itself is judged by [`month_number`].
const MONTH_WORD: &str = "[a-z]{3,10}";

/// The ways a date is written, each with the order of its parts.
static PATTERNS: LazyLock<[(Regex, Order); 4]> = LazyLock::new(|| {
    let month = MONTH_WORD;
    let pattern = |p: &str| Regex::new(p).expect("a valid pattern");
    [
        // 2026-03-11, 2026/03/11
        (
            pattern(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b"),
            Order::YearMonthDay,
        ),
        // 11 March 2026, 11th Mar. 2026, 1er mars 2026, 11 de marzo de 2026, 11-Mar-2026
        (
            pattern(&format!(
                r"\b(\d{{1,2}})(?:st|nd|rd|th|er|o)?\.?[\s\-/]+(?:de\s+)?({month})\.?,?[\s\-/]+(?:de\s+)?(\d{{4}})\b"
            )),
            Order::DayNameYear,
        ),
        // March 11, 2026
        (
            pattern(&format!(
                r"\b({month})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b"
            )),
            Order::NameDayYear,
        ),
        // 03/11/2026, 11.03.2026, 03-11-26
        (
            pattern(r"\b(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{4}|\d{2})\b"),
            Order::Numeric,
        ),
    ]
});

/// How a pattern's three parts are ordered.
#[derive(Debug, Clone, Copy)]
enum Order {
    YearMonthDay,
    DayNameYear,
    NameDayYear,
    /// Day and month in the order the document's country writes them.
    Numeric,
}

/// What the words before a date say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Label {
    /// The day it was issued or the statement closed.
    Issue,
    /// A billing or statement period (its last date counts).
    Period,
    /// A payment's due date: never the issue date.
    Due,
    /// Nothing said.
    None,
}

/// Labels, accents removed: "payment due date" is a due date though it holds "date".
const DUE: [&str; 11] = [
    "due",
    "pay by",
    "payable",
    "echeance",
    "avant le",
    "date limite",
    "vencimiento",
    "fecha limite",
    "pagar",
    "limite de pago",
    // "Fecha límite de pago" with its "í" lost by OCR ("Fecha l mite de pago").
    "mite de pago",
];
const ISSUE: [&str; 29] = [
    "statement date",
    "date of statement",
    "statement closing",
    "closing date",
    "date of issue",
    "issue date",
    "issued",
    // "issue:" alone where OCR read a column's "Date of" a line above it. With its colon
    // only: "issue" alone is in prose ("Any issues?") and in "issuer".
    "issue:",
    "bill date",
    "billing date",
    "invoice date",
    "date of bill",
    "document date",
    // French and Spanish stems: OCR without those languages garbles their accents
    // ("Fecha de emisiin").
    "date d'emi",
    "date d' mi",
    // "Date d'émission" with its first letter lost ("ate d'émission"); never
    // "émission" alone, which an energy bill's CO2 "émissions" hold.
    "d'emission",
    // The same with its "é" lost too ("pate d' mission", its "D" read as a "p").
    "d' mission",
    // "Date d'émission" with its apostrophe lost ("Date démission") or read as a space.
    "date demi",
    "date d emi",
    "date de facture",
    "date de la facture",
    "date du rel",
    "emis le",
    "emise le",
    "fecha de emi",
    "fecha de factura",
    "fecha de la factura",
    "fecha de exp",
    "fecha del extracto",
];
const PERIOD: [&str; 4] = ["perio", "riode", "per odo", "from"];
/// A lone "Date:" (or "Fecha:") is an issue date when nothing else is labelled.
const PLAIN_DATE: [&str; 2] = ["date", "fecha"];

/// Whether `context` ends with a plain "Date:" right before its date: "Fecha l mite de
/// pago:" (a due date's label that OCR garbled) holds "fecha" and is no plain date.
fn is_plain_date(context: &str) -> bool {
    let words = context.trim_end().trim_end_matches(':').trim_end();
    PLAIN_DATE.iter().any(|d| {
        words
            .strip_suffix(d)
            .is_some_and(|rest| rest.is_empty() || rest.ends_with(' '))
    })
}

/// How long a label must be for one misread letter in it to be forgiven: "date af issue"
/// is "date of issue", while a shorter one would take in other words ("l'emission" is
/// no "d'emission").
const LOOSE_STEM: usize = 12;

/// Where `stem` first stands in `text`: as written, or, when it is [`LOOSE_STEM`] long
/// or longer, with one letter read as another.
fn find_stem(text: &str, stem: &str) -> Option<usize> {
    if let Some(at) = text.find(stem) {
        return Some(at);
    }
    let stem: Vec<char> = stem.chars().collect();
    if stem.len() < LOOSE_STEM {
        return None;
    }
    let (starts, chars): (Vec<usize>, Vec<char>) = text.char_indices().unzip();
    chars
        .windows(stem.len())
        .position(|w| misses(w, &stem).is_some_and(|m| m <= 1))
        .map(|at| starts[at])
}

/// Where each kind of label stands in `text`, left to right.
fn labels_in(text: &str) -> Vec<Label> {
    let kinds = [
        (Label::Due, &DUE[..]),
        (Label::Issue, &ISSUE[..]),
        (Label::Period, &PERIOD[..]),
    ];
    let mut found: Vec<(usize, Label)> = kinds
        .into_iter()
        .filter_map(|(label, stems)| {
            let at = stems
                .iter()
                .filter_map(|stem| find_stem(text, stem))
                .min()?;
            Some((at, label))
        })
        .collect();
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().map(|(_, label)| label).collect()
}

/// What `context` says the date after it is; nothing when it says two things (a
/// table's headings read by OCR on one line, "Date of issue Minimum payment due", over
/// its values on the next, are matched to them in order instead).
fn label_of(context: &str) -> Label {
    match labels_in(context)[..] {
        [one] => one,
        _ => Label::None,
    }
}

/// The widest a date is written, in characters ("11 de septiembre de 2026").
const DATE_WIDTH: usize = 24;

/// What `above` holds over a date starting where `before` ends, when `above` is laid out
/// in columns (three spaces or more apart, as `pdftotext -layout` keeps them); nothing
/// otherwise (OCR runs a table's headings together, and a span of them would name the
/// wrong one).
fn over(above: &str, before: &str) -> String {
    match above.contains("   ") {
        true => above
            .chars()
            .skip(before.chars().count())
            .take(DATE_WIDTH)
            .collect(),
        false => String::new(),
    }
}

/// OCR's zero for the "o" of October's names ("12-0ct-2026", "3 0ctubre 2026"), where no
/// digit comes before it.
static ZERO_FOR_O: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(^|[^0-9])0ct").expect("a valid pattern"));

/// `text` lowercased, accents removed, typographic apostrophes and OCR's marks for them
/// made plain and one ("Date d’émission", "Date d* mission", "Date d'’émission"),
/// October's zero made an "o" again.
fn normalised(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let marks = text
        .nfd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            // OCR reads a small apostrophe as any small mark ("Date d* mission").
            '\u{2018}' | '\u{2019}' | '\u{02bc}' | '*' | '`' | '\u{b4}' => '\'',
            other => other,
        });
    for c in marks {
        // OCR reads a typographic apostrophe as two at times ("Date d'’émission").
        if !(c == '\'' && plain.ends_with('\'')) {
            plain.push(c);
        }
    }
    ZERO_FOR_O.replace_all(&plain, "${1}oct").into_owned()
}

/// One date found on a line.
#[derive(Debug, Clone, Copy)]
struct Found {
    date: Date,
    start: usize,
    end: usize,
}

fn year_of(text: &str) -> Option<i32> {
    let year: i32 = text.parse().ok()?;
    Some(if text.len() == 2 { 2000 + year } else { year })
}

fn date_of(year: i32, month: u8, day: u8) -> Option<Date> {
    Date::from_calendar_date(year, Month::try_from(month).ok()?, day).ok()
}

/// The date a pattern's capture means, if it is one.
fn parse(order: Order, parts: [&str; 3], month_first: bool) -> Option<Date> {
    let number = |s: &str| s.parse::<u8>().ok();
    match order {
        Order::YearMonthDay => date_of(year_of(parts[0])?, number(parts[1])?, number(parts[2])?),
        Order::DayNameYear => date_of(
            year_of(parts[2])?,
            month_number(parts[1])?,
            number(parts[0])?,
        ),
        Order::NameDayYear => date_of(
            year_of(parts[2])?,
            month_number(parts[0])?,
            number(parts[1])?,
        ),
        Order::Numeric => {
            let (a, b) = (number(parts[0])?, number(parts[1])?);
            // A part over 12 can only be the day; otherwise the country's order.
            let (month, day) = match (a > 12, b > 12, month_first) {
                (true, _, _) => (b, a),
                (_, true, _) => (a, b),
                (_, _, true) => (a, b),
                (_, _, false) => (b, a),
            };
            date_of(year_of(parts[2])?, month, day)
        }
    }
}

/// Every date on `line` (normalised), left to right, none overlapping.
fn dates_on(line: &str, month_first: bool) -> Vec<Found> {
    let mut found: Vec<Found> = Vec::new();
    for (pattern, order) in PATTERNS.iter() {
        for captures in pattern.captures_iter(line) {
            let whole = captures.get(0).expect("the whole match");
            let part = |i| captures.get(i).map_or("", |m| m.as_str());
            let Some(date) = parse(*order, [part(1), part(2), part(3)], month_first) else {
                continue;
            };
            let overlaps = found
                .iter()
                .any(|f| whole.start() < f.end && f.start < whole.end());
            if !overlaps {
                found.push(Found {
                    date,
                    start: whole.start(),
                    end: whole.end(),
                });
            }
        }
    }
    found.sort_by_key(|f| f.start);
    found
}

/// Headings OCR stacked on lines of their own over their values, where each column of a
/// table came as a block ("Statement date", "Payment due", then "2026-09-02",
/// "2026-09-27"), or a row of headings split over two lines above its line of values:
/// for each line of `lines`, the label of each of its dates (`found`), when two lines of
/// headings or more, with nothing dated between them, hold as many labels as the dates
/// of the lines below them (none labelled on its own line) and, matched in order, none
/// is an issue date after a due date; else nothing. A bill is issued before it is due:
/// a match out of order would take the due date for the issue date, and an old bill
/// for a recent one.
fn stacked_headings(lines: &[String], found: &[Vec<Found>]) -> Vec<Vec<Label>> {
    let mut stacked = vec![Vec::new(); lines.len()];
    let mut headings: Vec<Vec<Label>> = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        if found[at].is_empty() {
            let labels = labels_in(&lines[at]);
            if !labels.is_empty() {
                headings.push(labels);
            }
            at += 1;
            continue;
        }
        let end = (at..lines.len())
            .find(|&n| found[n].is_empty())
            .unwrap_or(lines.len());
        let labels = headings.concat();
        let dates: Vec<Date> = found[at..end].iter().flatten().map(|f| f.date).collect();
        let labelled = |wanted: Label| {
            labels
                .iter()
                .zip(&dates)
                .filter(move |(l, _)| **l == wanted)
                .map(|(_, d)| *d)
        };
        let in_order = match labelled(Label::Issue).max() {
            Some(issue) => labelled(Label::Due).all(|due| issue <= due),
            None => true,
        };
        let unlabelled = || lines[at..end].iter().all(|l| labels_in(l).is_empty());
        if headings.len() >= 2 && labels.len() == dates.len() && in_order && unlabelled() {
            let mut labels = labels.iter().copied();
            for n in at..end {
                stacked[n] = labels.by_ref().take(found[n].len()).collect();
            }
        }
        headings.clear();
        at = end;
    }
    stacked
}

/// The issue date of a bill or statement whose text is `text`: the first date labelled
/// as issued, else the last day of a labelled period, else the latest unlabelled date
/// before any due date; none after `latest`. `month_first`: "03/11/2026" is 11 March where the document's
/// country writes the month first (the US), else 3 November.
pub fn issue_date(text: &str, month_first: bool, latest: Date) -> Option<Date> {
    // A blank line keeps the label above it (OCR sets a table's rows apart).
    let lines: Vec<String> = text
        .lines()
        .map(normalised)
        .filter(|line| !line.trim().is_empty())
        .collect();
    let found: Vec<Vec<Found>> = lines.iter().map(|l| dates_on(l, month_first)).collect();
    let stacked = stacked_headings(&lines, &found);
    let mut dated: Vec<(Date, Label)> = Vec::new();
    let mut previous_line = "";
    let mut names_due = false;
    for ((line, found), stacked) in lines.iter().zip(&found).zip(&stacked) {
        names_due |= labels_in(line).contains(&Label::Due);
        let headings = labels_in(previous_line);
        let mut label = Label::None;
        let mut from = 0;
        for (i, f) in found.iter().enumerate() {
            let context = &line[from..f.start];
            label = match label_of(context) {
                // "01/02/2026 to 28/02/2026": the second of a period is the period's.
                Label::None if label == Label::Period => Label::Period,
                // The label above a value (a table's heading, an OCR'd column): in a
                // layout of columns the words over it, else the headings OCR stacked
                // over it, else the line above.
                Label::None => match label_of(&over(previous_line, &line[..f.start])) {
                    Label::None => match stacked.get(i) {
                        Some(heading) => *heading,
                        // Headings run together over as many values: each its own, in order.
                        None if headings.len() == found.len() => headings[i],
                        None if i == 0 => label_of(previous_line),
                        None => Label::None,
                    },
                    said => said,
                },
                said => said,
            };
            if label == Label::None && i == 0 && is_plain_date(context) {
                label = Label::Issue;
            }
            dated.push((f.date, label));
            from = f.end;
        }
        previous_line = if found.is_empty() { line } else { "" };
    }
    dated.retain(|(date, _)| *date <= latest);
    let labelled = |wanted: Label| dated.iter().filter(move |(_, l)| *l == wanted);
    // An unlabelled date after a due date is no issue date (a due date whose label OCR
    // cut off): an old bill must not pass for a recent one.
    let first_due = labelled(Label::Due).map(|(d, _)| *d).min();
    // A due date's label that OCR set apart from every date: its date is among the
    // unlabelled ones and, being the latest, would pass for the issue date. The
    // earliest is taken instead: at worst the bill looks older than it is.
    let due_unplaced = first_due.is_none() && names_due;
    let unlabelled = labelled(Label::None)
        .map(|(d, _)| *d)
        .filter(|d| first_due.is_none_or(|due| *d < due));
    labelled(Label::Issue)
        .map(|(d, _)| *d)
        .next()
        .or_else(|| labelled(Label::Period).map(|(d, _)| *d).max())
        .or_else(|| match due_unplaced {
            true => unlabelled.min(),
            false => unlabelled.max(),
        })
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    const LATEST: Date = date!(2026 - 11 - 27);

    #[test]
    fn each_way_of_writing_a_date_is_read() {
        let cases = [
            ("Statement date: 2026-03-11", true, date!(2026 - 03 - 11)),
            ("Date of issue 11 March 2026", true, date!(2026 - 03 - 11)),
            ("Issued: March 11, 2026", true, date!(2026 - 03 - 11)),
            ("Invoice date 11th Mar. 2026", true, date!(2026 - 03 - 11)),
            ("Bill date 11-Mar-2026", true, date!(2026 - 03 - 11)),
            ("Statement date 03/11/2026", true, date!(2026 - 03 - 11)),
            ("Statement date 03/11/2026", false, date!(2026 - 11 - 03)),
            ("Statement date 25/03/2026", true, date!(2026 - 03 - 25)),
            ("Statement date 03.25.26", false, date!(2026 - 03 - 25)),
            (
                "Date d'émission : 11 mars 2026",
                false,
                date!(2026 - 03 - 11),
            ),
            ("Émis le 1er février 2026", false, date!(2026 - 02 - 01)),
            (
                "Fecha de emisión: 11 de marzo de 2026",
                false,
                date!(2026 - 03 - 11),
            ),
            ("FECHA DE FACTURA 3 DIC. 2025", false, date!(2025 - 12 - 03)),
        ];
        for (text, month_first, expected) in cases {
            assert_eq!(
                issue_date(text, month_first, LATEST),
                Some(expected),
                "{text}"
            );
        }
    }

    #[test]
    fn a_long_month_name_with_one_letter_misread_is_still_its_month() {
        let cases = [
            (
                "Date d'émission: 10 sepeembre 2026",
                Some(date!(2026 - 09 - 10)),
            ),
            (
                "Fecha de emisión: 3 de sepuembre de 2026",
                Some(date!(2026 - 09 - 03)),
            ),
            (
                "Statement date: Octobar 5, 2026",
                Some(date!(2026 - 10 - 05)),
            ),
            // A short name is never guessed at, nor a word two letters from any month.
            ("Statement date: 11 Jane 2026", None),
            ("Statement date: 11 settlement 2026", None),
        ];
        for (text, expected) in cases {
            assert_eq!(issue_date(text, false, LATEST), expected, "{text}");
        }
    }

    #[test]
    fn a_long_label_with_one_letter_misread_still_labels_its_date() {
        let bill = "Billing period: 1 Feb 2026 - 28 Feb 2026\n\
                    Date af issue 2 March 2026\n\
                    Payment due: 20 March 2026";
        assert_eq!(issue_date(bill, false, LATEST), Some(date!(2026 - 03 - 02)));
        // A short label is never guessed at: "l'émission" is no "d'émission".
        let prose = "Billing period: 1 Feb 2026 - 28 Feb 2026\n\
                     Réduire l'émission 2 March 2026";
        assert_eq!(
            issue_date(prose, false, LATEST),
            Some(date!(2026 - 02 - 28))
        );
    }

    #[test]
    fn the_issue_date_wins_over_due_dates_periods_and_transactions() {
        let bill = "ACME POWER            Payment due 2 April 2026\n\
                    Statement date 11 March 2026\n\
                    Billing period 01/02/2026 to 28/02/2026";
        assert_eq!(issue_date(bill, false, LATEST), Some(date!(2026 - 03 - 11)));
        let period_only = "Billing period: 1 Feb 2026 - 28 Feb 2026\nDue date: 20 Mar 2026";
        assert_eq!(
            issue_date(period_only, true, LATEST),
            Some(date!(2026 - 02 - 28))
        );
        let du_au = "Période de facturation du 01/02/2026 au 28/02/2026";
        assert_eq!(
            issue_date(du_au, false, LATEST),
            Some(date!(2026 - 02 - 28))
        );
        let transactions = "03/02/2026 GROCERIES 12.00\n03/09/2026 RENT 900.00\nDue 04/01/2026";
        assert_eq!(
            issue_date(transactions, true, LATEST),
            Some(date!(2026 - 03 - 09))
        );
    }

    #[test]
    fn a_label_above_its_value_and_a_plain_date_count() {
        let table = "Account number     Statement date\n12345678           11/03/2026";
        assert_eq!(
            issue_date(table, false, LATEST),
            Some(date!(2026 - 03 - 11))
        );
        let ocr = "Numero de cuenta Fecha de emisiin\n\n4410-2231.09 2026-09-13\nFecha limite de pag\n2026-10-08";
        assert_eq!(issue_date(ocr, false, LATEST), Some(date!(2026 - 09 - 13)));
        // Read by OCR from photos: labels cut, table headings run together.
        let cut = "émission: 2110912026\nuration du 19/08/2026 au 18/09)\n\nPériode de fact\n\
                   er avant le: 16/10/2026";
        assert_eq!(issue_date(cut, false, LATEST), Some(date!(2026 - 08 - 19)));
        let headings = "Statement period 2026-09-18 to 2026-10-18\n\n\
                        Date of issue Minimum payment due\n2026-11-15\n\nAccount\n\
                        4410-2231-09 2026-10-21";
        assert_eq!(
            issue_date(headings, true, LATEST),
            Some(date!(2026 - 10 - 18))
        );
        let run_together = "Account Date of issue Minimum payment due\n\
                            4410-2231-09 22 October 2026 16 November 2026";
        assert_eq!(
            issue_date(run_together, true, LATEST),
            Some(date!(2026 - 10 - 22))
        );
        let accents_lost = "P riode de facturation du 31 ao t 2026 au 30 septembre 2026\n\
                            Num ro de compte Date d' mission payer avant le\n\n\
                            4410-2231-09 3 octobre 2026 28 octobre 2026";
        assert_eq!(
            issue_date(accents_lost, false, LATEST),
            Some(date!(2026 - 10 - 03))
        );
        let due_cut = "Statement\n2026-10-01\nPayment due 2026-10-20\n2026-11-02";
        assert_eq!(
            issue_date(due_cut, true, LATEST),
            Some(date!(2026 - 10 - 01))
        );
        let plain = "Date: 2026-03-11\n2026-05-01";
        assert_eq!(issue_date(plain, true, LATEST), Some(date!(2026 - 03 - 11)));
    }

    #[test]
    fn headings_stacked_by_ocr_label_their_values_in_order() {
        // Read from photos: a table's columns as blocks, a heading over each value; and
        // a row of headings split over two lines above its row of values.
        let columns = "Billing period 2026-07-31 to 2026-08-30\n\nAccount number\n\n\
                       4410-2231-09\n\nStatement date\n\nPayment due\n2026-09-02\n\n\
                       2026-09-27\n\n98.20";
        assert_eq!(
            issue_date(columns, true, LATEST),
            Some(date!(2026 - 09 - 02))
        );
        let split_row = "Periodo de facturacién de! 28 de agosto de 2026 al 27 de septiembre de 2026\n\n\
                         Numero de cuenta Fecha de emisién\n\nFecha limite de pago\n\
                         4410-2231-09 30 de septiembre de 2026 25 de octubre de 2026";
        assert_eq!(
            issue_date(split_row, false, LATEST),
            Some(date!(2026 - 09 - 30))
        );
        // Values out of the headings' order would make the due date the issue date: the
        // period's end is taken instead.
        let out_of_order = "Billing period 2026-07-31 to 2026-08-30\nStatement date\n\
                            Payment due\n2026-09-27\n2026-09-02";
        assert_eq!(
            issue_date(out_of_order, true, LATEST),
            Some(date!(2026 - 08 - 30))
        );
        // As many headings as values, or nothing: here a third date has no heading.
        let more_values = "Billing period 2026-07-31 to 2026-08-30\nStatement date\n\
                           Payment due\n2026-09-02\n2026-09-27\n2026-10-01";
        assert_eq!(
            issue_date(more_values, true, LATEST),
            Some(date!(2026 - 08 - 30))
        );
    }

    #[test]
    fn a_due_date_whose_label_ocr_garbled_is_no_plain_date() {
        // Read from a photo of a bill issued on 25 September: the issue date's label
        // stands below its value, and the due date's lost its "í".
        let photo = "Eleanor DUBOIS\n30 CALLE SIERPES\n41001 SEVILLA\n\n\
                     25 de septiembre de 2026\n4 n del 23 de agosto de 202\n\n\
                     Fecha de emisi n:\n\nPeriodo de facturac\n\n\
                     6 al 22 de septiembre de 2026\n\n\
                     Fecha l mite de pago: 20 de octubre de 2026";
        assert_eq!(
            issue_date(photo, false, LATEST),
            Some(date!(2026 - 09 - 22)),
            "the period's end, never the due date"
        );
        let zero_for_o = "Fecha de emisi n: 12-0ct-2026\n\
                          Periodo de facturaci n del 09-Sep-2026 al 09-Oct-2026\n\
                          Fecha l mite de pago: 06-Nov-2026";
        assert_eq!(
            issue_date(zero_for_o, false, LATEST),
            Some(date!(2026 - 10 - 12))
        );
        assert_eq!(
            issue_date("Fecha de factura 3 0ctubre 2026", false, LATEST),
            Some(date!(2026 - 10 - 03))
        );
        let curly = "Période de facturation du 28-Sep-2026 au 28-Oct-2026\n\
                     Date d\u{2019}émission: 31-Oct-2026\nA payer avant le: 25-Nov-2026";
        assert_eq!(
            issue_date(curly, false, LATEST),
            Some(date!(2026 - 10 - 31))
        );
        // Read from a keystoned photo of a statement issued on 10 September: both dates
        // came first, their labels far below, the due date's garbled.
        let labels_apart = ": 10 de septiembre de 2026\n\n+ 4410-2231-09\n\
                            5 de octubre de 2026\n\nFecha de emisi n\n\nBANCO DEL NORTE\n\
                            N mero de cuenta\n\nFecha lL mite de pago:\n\nPIERRE ABDULLAH";
        assert_eq!(
            issue_date(labels_apart, false, LATEST),
            Some(date!(2026 - 09 - 10)),
            "the earliest, never the due date"
        );
        assert_eq!(
            issue_date(
                "P riode de facturation du 2026-08-22 au 2026-09-21\n\
                 Date d* mission: 2026-09-24",
                false,
                LATEST
            ),
            Some(date!(2026 - 09 - 24)),
            "an apostrophe read as a star"
        );
        assert_eq!(
            issue_date(
                "Période de facturation du 2026-10-03 au 2026-11-02\n\
                 Date d'\u{2019}émission: 2026-11-05",
                false,
                LATEST
            ),
            Some(date!(2026 - 11 - 05)),
            "an apostrophe read as two"
        );
        // Read from photos: a column's "Date of" a line above its "issue:", and a
        // label whose first letter was lost.
        let split = "Pioneer Savings Date of\n\nPO Box 4400, Dallas, TX 75201\n\n\
                     issue: 12 October 2026\n\nMinimum payment due: 6 November 2026\n\n\
                     Statement period 9 September 2026 to 9 October 2026";
        assert_eq!(
            issue_date(split, false, LATEST),
            Some(date!(2026 - 10 - 12))
        );
        let lost = "Période de facturation du 8 septembre 2026 au 8 octobre 2026\n\n\
                    Date démission: 11 octobre 2026\nA payer avant le: 5 novembre 2026";
        assert_eq!(
            issue_date(lost, false, LATEST),
            Some(date!(2026 - 10 - 11)),
            "an apostrophe lost"
        );
        let both_lost = "BANQUE DES ALPES pate d' mission: 28 septembre 2026\n\
                         payer avant le: 23 octobre 2026\n\
                         P riode de facturation du 26 ao t 2026 au 25 septembre 2026";
        assert_eq!(
            issue_date(both_lost, false, LATEST),
            Some(date!(2026 - 09 - 28)),
            "its first letter and its accent lost"
        );
        let cut = "Eaux de Provence ate d'émission: 2 octobre 2026\n\
                   A payer avant le: 27 octobre 2026\n\n\
                   Période de facturation du 30 aodt 2026 au 29 septembre 2026";
        assert_eq!(issue_date(cut, false, LATEST), Some(date!(2026 - 10 - 02)));
        // Prose about issues, or the CO2 an energy bill's power emitted, labels no date.
        let prose = "Any issues? Call us.\nYour next bill: 15 April 2026\n\
                     Statement period 1 January 2026 to 31 January 2026";
        assert_eq!(
            issue_date(prose, false, LATEST),
            Some(date!(2026 - 01 - 31))
        );
        let emissions = "Vos émissions de CO2\n15 avril 2026\n\
                         Période de facturation du 1 janvier 2026 au 31 janvier 2026";
        assert_eq!(
            issue_date(emissions, false, LATEST),
            Some(date!(2026 - 01 - 31))
        );
        assert!(!is_plain_date("fecha l mite de pago: "));
        assert!(!is_plain_date("update: "));
        assert!(is_plain_date("invoice no 12 date: "));
        assert!(is_plain_date("fecha "));
    }

    #[test]
    fn no_date_impossible_dates_and_future_dates_are_not_issue_dates() {
        assert_eq!(issue_date("Account 1234-5678-90", true, LATEST), None);
        assert_eq!(issue_date("Statement date 31/02/2026", false, LATEST), None);
        assert_eq!(issue_date("Statement date 2027-01-05", true, LATEST), None);
        assert_eq!(
            issue_date(
                "Statement date 2027-01-05\nPrinted 2026-10-01",
                true,
                LATEST
            ),
            Some(date!(2026 - 10 - 01))
        );
    }
}
