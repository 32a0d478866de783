//! OFAC's legacy CSV files (`ofac-csv`): see [`crate::Format::OfacCsv`].

use csv::StringRecord;
use screening::Entry;

use crate::dates;
use crate::entries::{Draft, List};
use crate::rows::Rows;
use crate::{ImportError, ListFile, Location, Problem};

/// OFAC's null.
const NULL: &str = "-0-";

/// The fields of each kind of file that are read (OFAC's columns, from 0).
mod column {
    /// Every file: the entry's number.
    pub(super) const ENT_NUM: usize = 0;
    /// The primary file (`sdn.csv`, 12 columns).
    pub(super) const SDN_NAME: usize = 1;
    pub(super) const SDN_REMARKS: usize = 11;
    /// The aliases (`alt.csv`, 5 columns).
    pub(super) const ALT_NAME: usize = 3;
    /// The addresses (`add.csv`, 6 columns).
    pub(super) const ADD_COUNTRY: usize = 4;
}

/// Which of OFAC's files a file is, by its number of columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Sdn,
    Alt,
    Add,
}

impl Kind {
    fn of(columns: usize) -> Option<Self> {
        match columns {
            12 => Some(Self::Sdn),
            5 => Some(Self::Alt),
            6 => Some(Self::Add),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Sdn => "sdn",
            Self::Alt => "alt",
            Self::Add => "add",
        }
    }
}

pub(crate) fn read(files: &[ListFile<'_>]) -> Result<Vec<Entry>, ImportError> {
    let mut kinds: [Option<(&ListFile<'_>, &str)>; 3] = [None; 3];
    let mut empty = None;
    for file in files {
        let text = without_sub(crate::text(file)?);
        // OFAC ends every row with a line break: a file that does not was cut short, maybe
        // inside its last field, which would otherwise read as a shorter value.
        if !text.is_empty() && !text.ends_with('\n') {
            let at = Location::Line(crate::lines_before(text.as_bytes()));
            return Err(ImportError::new(file.name, at, Problem::Unterminated));
        }
        let Some(first) = Rows::new(file, text).next() else {
            empty = Some(file);
            continue;
        };
        let first = first?;
        let kind = Kind::of(first.len()).ok_or_else(|| {
            Rows::new(file, text).error(&first, Problem::OfacColumns(first.len()))
        })?;
        let slot = &mut kinds[kind as usize];
        if slot.is_some() {
            return Err(ImportError::new(
                file.name,
                Location::File,
                Problem::OfacTwice(kind.name()),
            ));
        }
        *slot = Some((file, text));
    }
    let [sdn, alt, add] = kinds;
    let Some((sdn_file, sdn_text)) = sdn else {
        return Err(match (empty, files) {
            (Some(file), _) => ImportError::new(file.name, Location::File, Problem::NoEntries),
            (None, []) => ImportError::new("", Location::File, Problem::NoFiles),
            (None, _) => ImportError::new("", Location::File, Problem::OfacNoSdn),
        });
    };
    let mut list = List::default();
    each_row(sdn_file, sdn_text, |record| {
        let mut draft = Draft::new(value(&record[column::ENT_NUM]));
        draft.name(value(&record[column::SDN_NAME]))?;
        remarks(&mut draft, value(&record[column::SDN_REMARKS]))?;
        list.add(draft)
    })?;
    if let Some((file, text)) = alt {
        each_row(file, text, |record| {
            entry(&mut list, record)?.name(value(&record[column::ALT_NAME]))
        })?;
    }
    if let Some((file, text)) = add {
        each_row(file, text, |record| {
            entry(&mut list, record)?.country(value(&record[column::ADD_COUNTRY]))
        })?;
    }
    Ok(list.finish())
}

/// Runs `row` on each record of the file, placing its problem at the record's line.
fn each_row(
    file: &ListFile<'_>,
    text: &str,
    mut row: impl FnMut(&StringRecord) -> Result<(), Problem>,
) -> Result<(), ImportError> {
    let mut rows = Rows::new(file, text);
    while let Some(record) = rows.next() {
        let record = record?;
        row(&record).map_err(|problem| rows.error(&record, problem))?;
    }
    Ok(())
}

/// The entry an alias or address is of.
fn entry<'l>(list: &'l mut List, record: &StringRecord) -> Result<&'l mut Draft, Problem> {
    let ent_num = value(&record[column::ENT_NUM]);
    list.get_mut(ent_num)
        .ok_or_else(|| Problem::OfacUnknownEntNum(ent_num.to_owned()))
}

/// A field, trimmed, with OFAC's null (`-0-`, spaces around it or not) as "".
fn value(field: &str) -> &str {
    match field.trim() {
        NULL => "",
        value => value,
    }
}

/// The text without the final line holding only SUB (0x1A, DOS's end of file) that some
/// of OFAC's exports end with. A SUB anywhere else stays, and makes a row of one field.
fn without_sub(text: &str) -> &str {
    let trimmed = text.trim_end_matches(['\r', '\n']);
    match trimmed.strip_suffix('\u{1a}') {
        Some(before) if before.is_empty() || before.ends_with('\n') => before,
        _ => text,
    }
}

/// What the remarks say of the dates of birth and nationalities: "DOB 12 Jan 1960; alt.
/// DOB 1962; POB Tehran, Iran; nationality Iran; citizen Iran; Gender Male.".
fn remarks(draft: &mut Draft, remarks: &str) -> Result<(), Problem> {
    for part in remarks.split(';') {
        let part = part.trim().trim_end_matches('.').trim_end();
        let part = part.strip_prefix("alt. ").unwrap_or(part);
        if let Some(dob) = part.strip_prefix("DOB ") {
            draft.dates(dates::ofac(dob))?;
        } else if let Some(country) = part
            .strip_prefix("nationality ")
            .or_else(|| part.strip_prefix("citizen "))
        {
            draft.country(country)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use screening::BirthDate;

    use super::*;
    use crate::{Format, read};

    const SDN: &str = "36,\"AEROCARIBBEAN AIRLINES\",\"-0- \",\"CUBA\",\"-0- \",\"-0- \",\"-0- \",\"-0- \",\"-0- \",\"-0- \",\"-0- \",\"-0- \"\r\n\
        173,\"ANGLO-CARIBBEAN CO., LTD.\",\"-0- \",\"CUBA\",\"-0- \",\"-0- \",\"-0- \",\"-0- \",\"-0- \",\"-0- \",\"-0- \",\"a.k.a. \"\"AFRICAN LINE\"\"; nationality Cuba.\"\r\n\
        2676,\"HAWATMA, Nayif\",\"individual\",\"SDT\",\"-0- \",\"-0- \",\"-0- \",\"-0- \",\"-0- \",\"-0- \",\"-0- \",\"DOB 12 Jan 1960; alt. DOB 1962; alt. DOB circa 1955; alt. DOB 1964 to 1966; alt. DOB Aug 1970; POB Salt, Jordan; nationality Jordan; citizen Syria; Gender Male.\"\r\n\
        \u{1a}\r\n";
    const ALT: &str = "36,12,\"aka\",\"AERO-CARIBBEAN\",\"-0- \"\r\n\
        2676,220,\"aka\",\"HAWATMEH, Nayif\",\"-0- \"\r\n\
        2676,221,\"fka\",\"-0- \",\"-0- \"\r\n";
    const ADD: &str = "36,25,\"-0- \",\"Havana\",\"Cuba\",\"-0- \"\r\n\
        173,129,\"Ibex House, The Minories\",\"London EC3N 1DY\",\"United Kingdom\",\"-0- \"\r\n";

    fn ofac(files: &[(&str, &str)]) -> Result<Vec<Entry>, ImportError> {
        let files: Vec<_> = files
            .iter()
            .map(|(name, text)| ListFile {
                name,
                bytes: text.as_bytes(),
            })
            .collect();
        read(Format::OfacCsv, &files)
    }

    fn year(year: i32) -> BirthDate {
        dates::year_only(year)
    }

    #[test]
    fn the_three_files_in_any_order_with_their_quirks() {
        let entries = ofac(&[("add.csv", ADD), ("sdn.csv", SDN), ("alt.csv", ALT)])
            .expect("well-formed files");
        assert_eq!(entries.len(), 3);
        let airline = &entries[0];
        assert_eq!(airline.id, "36");
        assert_eq!(airline.names, ["AEROCARIBBEAN AIRLINES", "AERO-CARIBBEAN"]);
        assert_eq!(airline.countries, ["Cuba"]);
        let anglo = &entries[1];
        assert_eq!(anglo.names, ["ANGLO-CARIBBEAN CO., LTD."], "a quoted comma");
        assert_eq!(anglo.countries, ["Cuba", "United Kingdom"]);
        let hawatma = &entries[2];
        assert_eq!(hawatma.names, ["HAWATMA, Nayif", "HAWATMEH, Nayif"]);
        let expected = vec![
            BirthDate {
                year: 1960,
                month_day: Some((1, 12)),
            },
            year(1962),
            year(1955),
            year(1964),
            year(1965),
            year(1966),
            year(1970),
        ];
        assert_eq!(hawatma.dates_of_birth, expected);
        assert_eq!(hawatma.countries, ["Jordan", "Syria"]);
    }

    #[test]
    fn the_primary_file_alone_and_without_its_sub_line() {
        let without_sub = SDN.replace("\u{1a}\r\n", "");
        let alone = ofac(&[("cons_prim.csv", &without_sub)]).expect("one file");
        assert_eq!(alone.len(), 3);
        assert_eq!(alone[0].names, ["AEROCARIBBEAN AIRLINES"]);
        let sub_without_newline = SDN.trim_end();
        assert_eq!(ofac(&[("sdn.csv", sub_without_newline)]), Ok(alone));
    }

    #[test]
    fn refusals_name_the_file_and_line() {
        let in_a_field = &SDN[..SDN.find("Gender").expect("a remark")];
        let in_a_row = &SDN[..SDN.find("\"SDT").expect("a program")];
        let (field_ended, row_ended) = (format!("{in_a_field}\r\n"), format!("{in_a_row}\r\n"));
        let cases: [(&[(&str, &str)], &str); 12] = [
            (
                &[("sdn.csv", in_a_field)],
                "sdn.csv: line 3: the last row does not end with a line break (truncated)",
            ),
            (
                &[("sdn.csv", SDN), ("add.csv", ADD.trim_end())],
                "add.csv: line 2: the last row does not end",
            ),
            (
                &[("sdn.csv", &field_ended)],
                "sdn.csv: line 3: a quoted field not closed",
            ),
            (
                &[("sdn.csv", &row_ended)],
                "sdn.csv: line 3: 4 fields where the file's first row has 12",
            ),
            (
                &[("sdn.csv", &SDN.replacen("\u{1a}", "\u{1a}\r\n37,\"X\"", 1))],
                "sdn.csv: line 4: 1 fields where",
            ),
            (
                &[("sdn.csv", &SDN.replace("173,", "36,"))],
                "sdn.csv: line 2: id 36 is used twice",
            ),
            (
                &[(
                    "sdn.csv",
                    &SDN.replace("\"AEROCARIBBEAN AIRLINES\"", "\"-0- \""),
                )],
                "sdn.csv: line 1: an entry without a name",
            ),
            (
                &[
                    ("sdn.csv", SDN),
                    ("alt.csv", &ALT.replace("2676,221", "9999,221")),
                ],
                "alt.csv: line 3: ent_num 9999 is not in the sdn file",
            ),
            (
                &[("sdn.csv", SDN), ("sdn2.csv", SDN)],
                "sdn2.csv: a second OFAC sdn file",
            ),
            (&[("alt.csv", ALT), ("add.csv", ADD)], "no OFAC sdn file"),
            (
                &[("sdn.csv", SDN), ("notes.csv", "1,2,3\n")],
                "notes.csv: line 1: 3 columns: not an OFAC",
            ),
            (
                &[("sdn.csv", "\u{1a}\r\n"), ("alt.csv", ALT)],
                "sdn.csv: no entry",
            ),
        ];
        for (files, expected) in cases {
            let error = ofac(files).expect_err(expected).to_string();
            assert!(error.starts_with(expected), "{error} is not {expected}");
        }
    }
}
