//! CSV records with the lines they start on (OFAC's files and the generic one).

use csv::{ErrorKind, Position, ReaderBuilder, StringRecord, StringRecordsIntoIter};

use crate::{ImportError, ListFile, Location, Problem};

/// A CSV file's records, none taken for a header, each with as many fields as the
/// first (the `csv` crate refuses the first that has not). Quoted fields hold commas,
/// doubled quotes and line breaks. A file that ends inside a quoted field is refused as
/// truncated (the `csv` crate would end the field there).
pub(crate) struct Rows<'a> {
    file: &'a str,
    text: &'a str,
    records: StringRecordsIntoIter<&'a [u8]>,
    /// Where the last record read starts, for the check of the file's end.
    last_start: Option<usize>,
}

impl<'a> Rows<'a> {
    /// The records of `text`, a leading byte-order mark skipped (spreadsheets write one).
    pub(crate) fn new(file: &ListFile<'a>, text: &'a str) -> Self {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let records = ReaderBuilder::new()
            .has_headers(false)
            .flexible(false)
            .from_reader(text.as_bytes())
            .into_records();
        Self {
            file: file.name,
            text,
            records,
            last_start: None,
        }
    }

    /// An error at this record's line.
    pub(crate) fn error(&self, record: &StringRecord, problem: Problem) -> ImportError {
        self.error_at(record.position(), problem)
    }

    fn error_at(&self, position: Option<&Position>, problem: Problem) -> ImportError {
        let at = position.map_or(Location::File, |p| {
            Location::Line(crate::lines_before(&self.text.as_bytes()[..self.start(p)]))
        });
        ImportError::new(self.file, at, problem)
    }

    /// Where the record at `position` starts. The `csv` crate's position can be that of
    /// the end of the line before (the `\n` of a `\r\n`, blank lines): the record starts
    /// at the first byte that ends no line.
    fn start(&self, position: &Position) -> usize {
        let byte = usize::try_from(position.byte()).unwrap_or(usize::MAX);
        let rest = self.text.as_bytes().get(byte..).unwrap_or_default();
        byte + rest
            .iter()
            .take_while(|&&b| b == b'\r' || b == b'\n')
            .count()
    }
}

impl Iterator for Rows<'_> {
    type Item = Result<StringRecord, ImportError>;

    fn next(&mut self) -> Option<Self::Item> {
        let Some(record) = self.records.next() else {
            // An odd number of quotes in the last record: its last quoted field never
            // closed.
            let start = self.last_start.take()?;
            let quotes = self.text.as_bytes()[start..]
                .iter()
                .filter(|&&b| b == b'"')
                .count();
            if quotes % 2 == 0 {
                return None;
            }
            let line = crate::lines_before(&self.text.as_bytes()[..start]);
            return Some(Err(ImportError::new(
                self.file,
                Location::Line(line),
                Problem::UnclosedQuote,
            )));
        };
        Some(match record {
            Ok(record) => {
                self.last_start = record.position().map(|p| self.start(p));
                Ok(record)
            }
            Err(e) => {
                let problem = match e.kind() {
                    ErrorKind::UnequalLengths {
                        expected_len, len, ..
                    } => Problem::FieldCount {
                        expected: *expected_len,
                        found: *len,
                    },
                    _ => Problem::Csv(e.to_string()),
                };
                Err(self.error_at(e.position(), problem))
            }
        })
    }
}
