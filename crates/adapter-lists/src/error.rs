//! Why an import was refused, and where.

use std::fmt;

use crate::{MAX_ENTRIES, MAX_PER_ENTRY};

/// An import refused whole: the file, where in it, and what is wrong.
///
/// Its `Display` is one short line, `FILE: WHERE: PROBLEM`, that names no person: the id
/// of an entry at most (list ids are public references, not personal data).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    /// The file's name as the caller gave it (empty when no file was given).
    pub file: String,
    /// Where in the file.
    pub at: Location,
    /// What is wrong.
    pub problem: Problem,
}

impl ImportError {
    pub(crate) fn new(file: &str, at: Location, problem: Problem) -> Self {
        Self {
            file: file.to_owned(),
            at,
            problem,
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.file.is_empty() {
            write!(f, "{}: ", self.file)?;
        }
        match &self.at {
            Location::File => {}
            Location::Line(line) => write!(f, "line {line}: ")?,
            Location::Position { line, byte } => write!(f, "line {line} (byte {byte}): ")?,
            Location::Element { name, line, byte } => {
                write!(f, "<{name}> at line {line} (byte {byte}): ")?;
            }
        }
        write!(f, "{}", self.problem)
    }
}

impl std::error::Error for ImportError {}

/// Where in a file a problem is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// The file as a whole (no entry in it, a second file of one kind).
    File,
    /// The line (from 1) where a CSV record starts.
    Line(u64),
    /// A line (from 1) and the byte offset (from 0) in the file.
    Position {
        /// The line, from 1.
        line: u64,
        /// The byte offset, from 0.
        byte: u64,
    },
    /// An XML element, by its local name, and where its start tag is.
    Element {
        /// Its local name (without a namespace prefix).
        name: String,
        /// The line of its start tag, from 1.
        line: u64,
        /// The byte offset of its start tag, from 0.
        byte: u64,
    },
}

/// What is wrong with a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// No file was given.
    #[error("no file given")]
    NoFiles,
    /// Several files for a format that reads one (every format but `ofac-csv`).
    #[error("this format reads one file, {0} given")]
    OneFileExpected(usize),
    /// Bytes that are not UTF-8.
    #[error("not UTF-8")]
    NotUtf8,
    /// A CSV record whose number of fields is not that of the file's first record.
    #[error("{found} fields where the file's first row has {expected}")]
    FieldCount {
        /// The number of fields of the first record.
        expected: u64,
        /// The number of fields of this one.
        found: u64,
    },
    /// A generic CSV file whose first line is not the header.
    #[error("the header is not id,name,aliases,date_of_birth,country")]
    Header,
    /// A CSV file given as `ofac-csv` that is none of OFAC's files.
    #[error("{0} columns: not an OFAC sdn (12), alt (5) or add (6) file")]
    OfacColumns(usize),
    /// Two OFAC files of the same kind (`sdn`, `alt` or `add`).
    #[error("a second OFAC {0} file")]
    OfacTwice(&'static str),
    /// OFAC files without the primary one (`sdn.csv`, 12 columns).
    #[error("no OFAC sdn file (12 columns) among the files")]
    OfacNoSdn,
    /// An alias or address of an `ent_num` that the sdn file does not have.
    #[error("ent_num {0} is not in the sdn file")]
    OfacUnknownEntNum(String),
    /// A quoted CSV field still open at the end of the file: the file is truncated.
    #[error("a quoted field not closed at the end of the file (truncated)")]
    UnclosedQuote,
    /// An OFAC file whose last row does not end with a line break: it was cut short.
    #[error("the last row does not end with a line break (truncated)")]
    Unterminated,
    /// CSV that cannot be read.
    #[error("malformed CSV: {0}")]
    Csv(String),
    /// XML that is not well-formed.
    #[error("malformed XML: {0}")]
    Xml(String),
    /// An element still open at the end of the file: the file is truncated.
    #[error("not closed at the end of the file (truncated)")]
    Unclosed,
    /// An XML file whose root element is not the format's.
    #[error("the root element is <{found}>, not <{expected}>")]
    Root {
        /// The format's root element.
        expected: &'static str,
        /// The file's.
        found: String,
    },
    /// An entry without an id.
    #[error("an entry without an id")]
    NoId,
    /// An entry without a name.
    #[error("an entry without a name")]
    NoName,
    /// Two entries of the list with the same id.
    #[error("id {0} is used twice")]
    DuplicateId(String),
    /// A file with no entry at all.
    #[error("no entry")]
    NoEntries,
    /// More entries than [`MAX_ENTRIES`].
    #[error("more than {max} entries", max = MAX_ENTRIES)]
    TooManyEntries,
    /// More names, dates of birth or countries in one entry than [`MAX_PER_ENTRY`].
    #[error("more than {max} {0} in one entry", max = MAX_PER_ENTRY)]
    TooMany(&'static str),
    /// A date of birth in a structured field that is not a date.
    #[error("a date of birth is not YYYY-MM-DD or YYYY")]
    Date,
    /// A country code that is not two letters.
    #[error("a country is not an ISO 3166-1 alpha-2 code")]
    Country,
}
