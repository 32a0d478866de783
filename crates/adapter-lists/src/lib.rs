//! Importers of sanctions and PEP list files into [`screening::Entry`]s (contract §19).
//!
//! [`read`] takes one list's files in one [`Format`] and gives every entry, or refuses the
//! whole import with an [`ImportError`] naming the file and the line (CSV) or the element
//! and its position (XML): bytes that are not UTF-8, a CSV row with the wrong number of
//! fields, XML that is malformed or truncated, an entry with no id or no name, an id
//! twice, a file with no entry, more than [`MAX_ENTRIES`] entries or more than
//! [`MAX_PER_ENTRY`] names (dates of birth, countries) in one entry. Nothing of a refused
//! import is kept.
//!
//! Every format gives, for each entry: its id, its names (the primary name first, then the
//! aliases, each once, runs of white space made one space, otherwise as written: OFAC's
//! "SURNAME, Given Names" stays so, the matcher handles the order), its dates of birth and
//! its countries (each once, in the file's order). The XML is read as a stream, element by
//! element, never as a tree of the whole file.

mod dates;
mod entries;
mod error;
mod eu;
mod generic;
mod ofac;
mod rows;
mod un;
mod xml;

use std::fmt;
use std::str::FromStr;

use screening::Entry;

pub use error::{ImportError, Location, Problem};

/// The most entries one list may have: ten times the largest real list, so that an absurd
/// file is refused before it fills the memory.
pub const MAX_ENTRIES: usize = 1_000_000;

/// The most names one entry may have, and the most dates of birth, and the most
/// countries (counted as the file gives them, repeats included).
pub const MAX_PER_ENTRY: usize = 1_000;

/// The format of a list's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// OFAC's legacy CSV files, SDN (`sdn.csv`, `alt.csv`, `add.csv`) or consolidated
    /// (`cons_prim.csv`, `cons_alt.csv`, `cons_add.csv`): no header, `-0-` for null.
    ///
    /// The files are told apart by their number of columns, not by their names (the
    /// consolidated ones are not called `sdn*`): 12 is the primary file (`ent_num`, name,
    /// type, program, ..., remarks), required; 5 the aliases (`ent_num`, `alt_num`, type,
    /// name, remarks) and 6 the addresses (`ent_num`, `add_num`, address, city, country,
    /// remarks), each optional and at most once. A file with no record is skipped. A final
    /// line holding the SUB character (0x1A), as some exports end, is accepted; a last row
    /// without its line break is refused as cut short.
    ///
    /// The id is `ent_num`. The names are the primary file's then the aliases'. The
    /// dates of birth are read from the remarks ("DOB 12 Jan 1960; alt. DOB 1962"): a
    /// month without its day gives the year, "circa" is dropped, and a range "DOB 1958 to
    /// 1962" gives each of its years (the two ends only of a range wider than 20 years).
    /// Free text that is not one of these forms is skipped, not refused. The countries are
    /// the addresses' and the remarks' "nationality" and "citizen", as written ("Iran").
    OfacCsv,
    /// The UN Security Council's consolidated list (`CONSOLIDATED_LIST`): individuals and
    /// entities alike.
    ///
    /// The id is the `REFERENCE_NUMBER` ("QDi.001", what people quote), or the `DATAID`
    /// when the entry has none. The primary name is `FIRST_NAME` to `FOURTH_NAME` joined by
    /// spaces (an entity's name is its `FIRST_NAME`), then `NAME_ORIGINAL_SCRIPT` and the
    /// aliases; an alias of `QUALITY` "Low" (the UN's own warning that it cannot identify
    /// anyone) is dropped. The dates of birth are `DATE`, `YEAR` or each year from
    /// `FROM_YEAR` to `TO_YEAR` (as OFAC's ranges). The countries are the nationalities'
    /// and the addresses' `COUNTRY`, as written.
    UnXml,
    /// The EU's financial sanctions file, the "full" XML export (`export`, its default
    /// namespace or any prefix: elements are matched by their local name).
    ///
    /// Persons and enterprises alike (`subjectType`). The id is the `sanctionEntity`'s
    /// `logicalId`. Each `nameAlias` gives its `wholeName`, or its first, middle and last
    /// names joined; one that is not `strong` is dropped when the entry has a strong one.
    /// The dates of birth are each `birthdate`'s `birthdate` attribute, else its `year`
    /// (with `monthOfYear` and `dayOfMonth` when both are there), else its years from
    /// `yearRangeFrom` to `yearRangeTo`. The countries are the citizenships' and
    /// addresses' `countryIso2Code` (the EU's "00", unknown, skipped).
    EuXml,
    /// A merchant's own list: the header `id,name,aliases,date_of_birth,country` exactly,
    /// then one row per entry. `aliases` are separated by `;`, `date_of_birth` is
    /// `YYYY-MM-DD`, `YYYY` or empty, `country` an ISO 3166-1 alpha-2 code or empty (both
    /// may also hold several values separated by `;`). The last row may lack its line break
    /// (RFC 4180), so a file cut inside its last row's last field cannot be told from a
    /// whole one; every other cut is refused (a short row, an open quote).
    Csv,
}

impl Format {
    /// Every format.
    pub const ALL: [Self; 4] = [Self::OfacCsv, Self::UnXml, Self::EuXml, Self::Csv];

    /// The format of a command-line name: `ofac-csv`, `un-xml`, `eu-xml` or `csv`.
    pub fn parse(name: &str) -> Result<Self, UnknownFormat> {
        Self::ALL
            .into_iter()
            .find(|format| format.as_str() == name)
            .ok_or_else(|| UnknownFormat(name.to_owned()))
    }

    /// Its command-line name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::OfacCsv => "ofac-csv",
            Self::UnXml => "un-xml",
            Self::EuXml => "eu-xml",
            Self::Csv => "csv",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Self::parse(name)
    }
}

/// A name that is no [`Format`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown list format {0:?} (ofac-csv, un-xml, eu-xml or csv)")]
pub struct UnknownFormat(pub String);

/// One file of a list, as read from the disk.
#[derive(Debug, Clone, Copy)]
pub struct ListFile<'a> {
    /// Its name as errors should show it (its path, as the user typed it). It says
    /// nothing of the file's role: OFAC's files are told apart by their columns.
    pub name: &'a str,
    /// Its bytes, UTF-8.
    pub bytes: &'a [u8],
}

/// Every entry of a list given as `files` in `format`, in the files' order, or the first
/// thing wrong with them. `ofac-csv` takes the primary file and optionally the aliases'
/// and the addresses' ([`Format::OfacCsv`]); every other format takes one file.
pub fn read(format: Format, files: &[ListFile<'_>]) -> Result<Vec<Entry>, ImportError> {
    match format {
        Format::OfacCsv => ofac::read(files),
        Format::UnXml => un::read(one(files)?),
        Format::EuXml => eu::read(one(files)?),
        Format::Csv => generic::read(one(files)?),
    }
}

fn one<'a>(files: &'a [ListFile<'a>]) -> Result<&'a ListFile<'a>, ImportError> {
    match files {
        [file] => Ok(file),
        [] => Err(ImportError::new("", Location::File, Problem::NoFiles)),
        [_, second, ..] => Err(ImportError::new(
            second.name,
            Location::File,
            Problem::OneFileExpected(files.len()),
        )),
    }
}

/// The file's text, or where its first byte that is not UTF-8 is.
fn text<'a>(file: &ListFile<'a>) -> Result<&'a str, ImportError> {
    std::str::from_utf8(file.bytes).map_err(|e| {
        let at = position(file.bytes, e.valid_up_to());
        ImportError::new(file.name, at, Problem::NotUtf8)
    })
}

/// The line and byte of a byte offset (counted only for an error's message).
fn position(bytes: &[u8], byte: usize) -> Location {
    let before = &bytes[..byte.min(bytes.len())];
    Location::Position {
        line: lines_before(before),
        byte: byte as u64,
    }
}

fn lines_before(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u64 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_their_command_line_names() {
        for format in Format::ALL {
            assert_eq!(Format::parse(format.as_str()), Ok(format));
            assert_eq!(format.to_string().parse::<Format>(), Ok(format));
        }
        assert_eq!(
            Format::parse("ofac").map_err(|e| e.to_string()),
            Err("unknown list format \"ofac\" (ofac-csv, un-xml, eu-xml or csv)".to_owned())
        );
    }

    #[test]
    fn one_file_for_every_format_but_ofac() {
        let file = ListFile {
            name: "a.xml",
            bytes: b"",
        };
        let no_file = read(Format::UnXml, &[]).expect_err("no file");
        assert_eq!(no_file.to_string(), "no file given");
        let two = read(Format::EuXml, &[file, file]).expect_err("two files");
        assert_eq!(two.problem, Problem::OneFileExpected(2));
    }

    #[test]
    fn bytes_that_are_not_utf8_are_refused_naming_their_line() {
        let file = ListFile {
            name: "list.csv",
            bytes: b"id,name,aliases,date_of_birth,country\n1,Ren\xe9,,,\n",
        };
        let error = read(Format::Csv, &[file]).expect_err("Latin-1");
        assert_eq!(error.to_string(), "list.csv: line 2 (byte 43): not UTF-8");
    }
}
