//! Lists written as the real files look (`fixtures::lists`), read back by the importers:
//! the same entries, whatever the format.

use adapter_lists::{Format, ListFile, read};
use fixtures::lists;
use screening::{BirthDate, Entry};

fn year(year: i32) -> BirthDate {
    BirthDate {
        year,
        month_day: None,
    }
}

fn date(year: i32, month: u8, day: u8) -> BirthDate {
    BirthDate {
        year,
        month_day: Some((month, day)),
    }
}

fn entry(id: &str, names: &[&str], dates_of_birth: Vec<BirthDate>, countries: &[&str]) -> Entry {
    Entry {
        id: id.to_owned(),
        names: names.iter().map(|n| (*n).to_owned()).collect(),
        dates_of_birth,
        countries: countries.iter().map(|c| (*c).to_owned()).collect(),
    }
}

/// Entries with what makes each format awkward: commas, quotes, `&` and `<` in names,
/// other scripts, a name of one word or of six, years in runs (written as ranges) and
/// alone, full dates, organisations without dates, several countries.
fn awkward() -> Vec<Entry> {
    vec![
        entry(
            "2676",
            &[
                "HAWATMA, Nayif",
                "HAWATMEH, \"Abu\" Nayif",
                "Наиф Хаватме",
                "نايف حواتمة",
            ],
            vec![
                date(1935, 11, 17),
                year(1937),
                year(1938),
                year(1939),
                year(1941),
            ],
            &["JO", "SY"],
        ),
        entry(
            "QDe.005",
            &[
                "AL-RASHID TRUST & Co. <Ltd>",
                "Al Rasheed Trust",
                "Aid Organization of the Ulema, Pakistan",
            ],
            Vec::new(),
            &["PK", "AF"],
        ),
        entry("7", &["Zhang Wei", "张伟"], vec![date(1972, 2, 29)], &[]),
        entry("8", &["MADONNA"], vec![year(1958)], &["US"]),
        entry(
            "9",
            &["Juan Carlos de la Cruz y Ortega Martínez"],
            (1940..=1970).map(year).collect(),
            &["ES"],
        ),
        entry("10", &["O'NEIL SHIPPING LTD"], Vec::new(), &[]),
    ]
}

/// A thousand entries drawn from a seed: names of two to four words, up to five aliases,
/// dates of every kind, up to three countries.
fn drawn(count: usize) -> Vec<Entry> {
    const WORDS: [&str; 16] = [
        "ALI",
        "Hassan",
        "de la",
        "Müller",
        "O'Brien",
        "Nguyễn",
        "Иванов",
        "محمد",
        "Smith-Jones",
        "Pérez",
        "KIM",
        "van der",
        "Łukasz",
        "Ahmed",
        "Chen",
        "Dubois",
    ];
    const COUNTRIES: [&str; 8] = ["IR", "RU", "KP", "SY", "CU", "VE", "FR", "CN"];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |bound: usize| {
        // xorshift64*: enough to vary the entries, the same on every run.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let drawn = state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33;
        usize::try_from(drawn).expect("33 bits fit") % bound
    };
    (0..count)
        .map(|i| {
            let names: Vec<String> = (0..1 + next(6))
                .map(|n| {
                    let words: Vec<&str> =
                        (0..2 + next(3)).map(|_| WORDS[next(WORDS.len())]).collect();
                    format!("{} {i}-{n}", words.join(" "))
                })
                .collect();
            let mut dates = Vec::new();
            match next(5) {
                0 => {}
                1 => dates.push(year(1940 + i32::try_from(next(60)).expect("small"))),
                2 => {
                    let from = 1940 + i32::try_from(next(60)).expect("small");
                    dates.extend(
                        (from..from + 2 + i32::try_from(next(4)).expect("small")).map(year),
                    );
                }
                _ => {
                    let (month, day) = (1 + next(12), 1 + next(28));
                    let (month, day) = (
                        u8::try_from(month).expect("small"),
                        u8::try_from(day).expect("small"),
                    );
                    dates.push(date(
                        1940 + i32::try_from(next(60)).expect("small"),
                        month,
                        day,
                    ));
                    if next(2) == 0 {
                        dates.push(year(2001));
                    }
                }
            }
            let first = next(COUNTRIES.len());
            let countries =
                (0..next(4)).map(|k| COUNTRIES[(first + k) % COUNTRIES.len()].to_owned());
            Entry {
                id: format!("{}", 10_000 + i),
                names,
                dates_of_birth: dates,
                countries: countries.collect(),
            }
        })
        .collect()
}

fn sorted(mut entries: Vec<Entry>) -> Vec<Entry> {
    entries.sort_by(|a, b| a.id.cmp(&b.id));
    entries
}

fn read_one(format: Format, name: &str, text: &str) -> Vec<Entry> {
    let file = ListFile {
        name,
        bytes: text.as_bytes(),
    };
    read(format, &[file]).unwrap_or_else(|e| panic!("{e}"))
}

fn round_trips(entries: &[Entry]) {
    let expected = sorted(entries.to_vec());
    let ofac = lists::ofac(entries);
    // The files in any order, under any name: their columns say which is which.
    let files = [
        ListFile {
            name: "cons_add.csv",
            bytes: ofac.add.as_bytes(),
        },
        ListFile {
            name: "cons_alt.csv",
            bytes: ofac.alt.as_bytes(),
        },
        ListFile {
            name: "cons_prim.csv",
            bytes: ofac.sdn.as_bytes(),
        },
    ];
    let from_ofac = read(Format::OfacCsv, &files).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(sorted(from_ofac), expected, "ofac-csv");
    let un = read_one(Format::UnXml, "un.xml", &lists::un_xml(entries));
    assert_eq!(sorted(un), expected, "un-xml");
    let eu = read_one(Format::EuXml, "eu.xml", &lists::eu_xml(entries));
    assert_eq!(sorted(eu), expected, "eu-xml");
    let csv = read_one(Format::Csv, "list.csv", &lists::csv(entries));
    assert_eq!(sorted(csv), expected, "csv");
}

#[test]
fn awkward_entries_round_trip_through_every_format() {
    round_trips(&awkward());
}

#[test]
fn drawn_entries_round_trip_through_every_format() {
    round_trips(&drawn(1000));
}

#[test]
fn the_files_in_the_order_written() {
    let entries = awkward();
    let ofac = lists::ofac(&entries);
    let files = [ofac.sdn.as_str(), ofac.alt.as_str(), ofac.add.as_str()].map(|text| ListFile {
        name: "x",
        bytes: text.as_bytes(),
    });
    assert_eq!(read(Format::OfacCsv, &files), Ok(entries.clone()));
    assert_eq!(
        read_one(Format::EuXml, "eu.xml", &lists::eu_xml(&entries)),
        entries
    );
    assert_eq!(
        read_one(Format::Csv, "list.csv", &lists::csv(&entries)),
        entries
    );
}

#[test]
fn a_written_list_cut_anywhere_is_refused() {
    let entries = awkward();
    // The generic CSV is left out: its last row may lack a line break (RFC 4180), so a
    // cut inside its last field reads as a shorter value (its unit tests cut elsewhere).
    let texts = [
        (Format::UnXml, lists::un_xml(&entries)),
        (Format::EuXml, lists::eu_xml(&entries)),
        (Format::OfacCsv, lists::ofac(&entries).sdn),
    ];
    for (format, text) in texts {
        for cut in text.char_indices().map(|(i, _)| i).step_by(3) {
            let kept = &text[..cut];
            let file = ListFile {
                name: "cut",
                bytes: kept.as_bytes(),
            };
            let Ok(read) = read(format, &[file]) else {
                continue;
            };
            // What may be read: the whole XML (cut in its trailing line break), OFAC's
            // rows up to a line break (which nothing tells from a shorter list).
            let allowed = match format {
                Format::OfacCsv => {
                    let rows = kept.trim_end_matches(['\r', '\n', '\u{1a}']);
                    text[rows.len()..].starts_with("\r\n") && read.len() <= entries.len()
                }
                _ => kept.trim_end() == text.trim_end(),
            };
            assert!(allowed, "{format} cut at {cut} of {} was read", text.len());
        }
    }
}
