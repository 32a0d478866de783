//! The AAMVA card design standard record that US and Canadian licences and ID cards
//! carry in their PDF417 (versions 1 to 10), read tolerantly: real cards mangle the
//! compliance indicator and separators, give wrong subfile offsets, and fill fields
//! differently from one version to the next.

mod fields;
mod jurisdiction;

use std::collections::HashMap;

use domain::verification::{DocumentRead, ReadSource};

use jurisdiction::Country;

/// The file types that open the header: `ANSI ` since version 2, `AAMVA` on some
/// version 1 cards.
const FILE_TYPES: [&str; 2] = ["ANSI", "AAMVA"];

/// How far into the text the file type may start: the compliance indicator and
/// separators before it are 4 characters, which scanners sometimes pad or mangle.
const HEADER_SLACK: usize = 32;

/// What separates data elements: the standard's line feed, and what real cards use.
const SEPARATORS: [char; 3] = ['\n', '\r', '\x1e'];

/// The record an AAMVA barcode holds, or `None` when the text is not one (no header, or
/// no element that identifies a person or a document).
pub fn parse(text: &str) -> Option<DocumentRead> {
    let header = Header::parse(text)?;
    let (kind, elements) = header
        .subfiles
        .iter()
        .find_map(|subfile| subfile.elements(text))
        .or_else(|| scan_elements(text.get(header.body..)?))?;
    let identifying = ["DAQ", "DCS", "DAB", "DAA", "DAC", "DCT", "DBB"];
    if !identifying.iter().any(|id| elements.contains_key(*id)) {
        return None;
    }
    Some(read(&header, kind, &elements))
}

/// The header: who issued the card and where its subfiles are.
#[derive(Debug)]
struct Header {
    /// The issuer identification number, when 6 digits follow the file type.
    iin: Option<String>,
    /// The subfile designators (possibly none when the header is mangled).
    subfiles: Vec<Subfile>,
    /// Where the designators end (or the header, when they cannot be read).
    body: usize,
}

/// One subfile designator: its type (`DL`, `ID` or a jurisdiction's `Z?`) and where it
/// starts. Its length is not kept: cards get it wrong, and reading on to the end of the
/// text costs nothing since the first value of an element wins and a jurisdiction's own
/// subfile that may follow holds only `Z` elements.
#[derive(Debug)]
struct Subfile {
    kind: String,
    offset: usize,
    /// Where the file may begin in the text, which the offsets count from: 4 characters
    /// before the file type in a well-formed file, at its `@`, or at the text's start
    /// when the compliance indicator and separators are mangled.
    file_starts: Vec<usize>,
}

impl Header {
    fn parse(text: &str) -> Option<Self> {
        let window_end = text
            .char_indices()
            .nth(HEADER_SLACK)
            .map_or(text.len(), |(at, _)| at);
        let window = text.get(..window_end)?;
        let (marker, file_type) = FILE_TYPES
            .iter()
            .filter_map(|t| window.find(t).map(|at| (at, *t)))
            .min()?;
        let mut file_starts: Vec<usize> = [
            marker.checked_sub(4),
            text.get(..marker)?.rfind('@'),
            Some(0),
        ]
        .into_iter()
        .flatten()
        .collect();
        file_starts.dedup();
        let mut cursor = Cursor {
            text,
            at: marker + file_type.len(),
        };
        cursor.skip_spaces();
        let mut header = Self {
            iin: None,
            subfiles: Vec::new(),
            body: cursor.at,
        };
        let Some(iin) = cursor.digits(6) else {
            return Some(header);
        };
        header.iin = Some(iin.to_owned());
        header.body = cursor.at;
        let Some(version) = cursor.number(2) else {
            return Some(header);
        };
        // Versions 2 and later add the jurisdiction's own version number.
        if version >= 2 && cursor.number(2).is_none() {
            return Some(header);
        }
        let Some(entries) = cursor.number(2) else {
            return Some(header);
        };
        header.body = cursor.at;
        for _ in 0..entries {
            let Some(subfile) = cursor.designator(&file_starts) else {
                break;
            };
            header.subfiles.push(subfile);
            header.body = cursor.at;
        }
        Some(header)
    }
}

/// Reads fixed-width fields of the header.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn skip_spaces(&mut self) {
        while self.text.as_bytes().get(self.at) == Some(&b' ') {
            self.at += 1;
        }
    }

    fn take(&mut self, n: usize, valid: impl Fn(u8) -> bool) -> Option<&'a str> {
        let field = self.text.get(self.at..self.at + n)?;
        field.bytes().all(valid).then(|| {
            self.at += n;
            field
        })
    }

    fn digits(&mut self, n: usize) -> Option<&'a str> {
        self.take(n, |b| b.is_ascii_digit())
    }

    fn number(&mut self, n: usize) -> Option<usize> {
        self.digits(n)?.parse().ok()
    }

    fn designator(&mut self, file_starts: &[usize]) -> Option<Subfile> {
        let start = self.at;
        let subfile = (|| {
            let kind = self.take(2, |b| b.is_ascii_uppercase())?.to_owned();
            let offset = self.number(4)?;
            self.number(4)?;
            Some(Subfile {
                kind,
                offset,
                file_starts: file_starts.to_vec(),
            })
        })();
        if subfile.is_none() {
            self.at = start;
        }
        subfile
    }
}

/// A data element's identifier and value.
type Elements = HashMap<String, String>;

impl Subfile {
    /// The document type and elements of a `DL` or `ID` subfile found where its
    /// designator says (`None` when it is not there, as on cards with wrong offsets).
    fn elements(&self, text: &str) -> Option<(&'static str, Elements)> {
        let kind = document_kind(&self.kind)?;
        self.file_starts.iter().find_map(|start| {
            let body = text.get(start + self.offset..)?;
            let body = body.strip_prefix(self.kind.as_str())?;
            Some((kind, split_elements(body)))
        })
    }
}

/// `licence` or `id_card` (contract §18), from a subfile type.
fn document_kind(subfile: &str) -> Option<&'static str> {
    match subfile {
        "DL" => Some("licence"),
        "ID" => Some("id_card"),
        _ => None,
    }
}

/// The elements of a text whose subfile offsets are missing or wrong: from the first
/// `DL` or `ID` followed by an element identifier (`DLDAQ...`), split on separators.
fn scan_elements(body: &str) -> Option<(&'static str, Elements)> {
    let bytes = body.as_bytes();
    let start = (0..bytes.len()).find(|&i| {
        let kind = body.get(i..i + 2).and_then(document_kind);
        let element = bytes.get(i + 2..i + 5);
        kind.is_some()
            && element.is_some_and(|e| e[0] == b'D' && e[1..].iter().all(u8::is_ascii_uppercase))
    })?;
    let kind = document_kind(body.get(start..start + 2)?)?;
    Some((kind, split_elements(body.get(start + 2..)?)))
}

/// Elements split on any separator; the first value of an identifier wins (a
/// jurisdiction's subfile after the standard one never overrides it).
fn split_elements(body: &str) -> Elements {
    let mut elements = Elements::new();
    for piece in body.split(SEPARATORS) {
        let piece = piece.trim_start();
        // A subfile type opening a piece (`DLDAQ`, `ZCZCA`) precedes its first element.
        let opens_subfile = match (piece.get(..2), piece.get(2..3)) {
            (Some(kind), Some(next)) => {
                (document_kind(kind).is_some() && next == "D")
                    || (kind.starts_with('Z') && next == "Z")
            }
            _ => false,
        };
        let piece = if opens_subfile {
            piece.get(2..).unwrap_or(piece)
        } else {
            piece
        };
        let (Some(id), Some(value)) = (piece.get(..3), piece.get(3..)) else {
            continue;
        };
        if id.bytes().all(|b| b.is_ascii_uppercase()) {
            elements
                .entry(id.to_owned())
                .or_insert_with(|| value.trim().to_owned());
        }
    }
    elements
}

/// The reading of a record's elements.
fn read(header: &Header, kind: &str, elements: &Elements) -> DocumentRead {
    let get = |id: &str| elements.get(id).map(String::as_str);
    let issued_by = header.iin.as_deref().and_then(jurisdiction::issuer);
    let state = get("DAJ")
        .and_then(fields::text)
        .map(|s| s.to_ascii_uppercase());
    let country = get("DCG")
        .and_then(Country::parse)
        .or(issued_by.map(|(_, country)| country))
        .or_else(|| state.as_deref().and_then(jurisdiction::country_of_state));
    let date = |id: &str| get(id).and_then(|d| fields::date(d, country));

    let (mut last, mut first, mut middle) = (None, None, None);
    if let Some(name) = get("DAA") {
        (last, first, middle) = fields::full_name(name);
    }
    if let Some(given) = get("DCT") {
        (first, middle) = fields::given_names(given);
    }
    let text = |id: &str| get(id).and_then(fields::text);
    let last_name = text("DCS").or_else(|| text("DAB")).or(last);
    let first_name = text("DAC").or(first);
    let middle_name = text("DAD").or(middle);

    let marked_ages = [("DDH", 18), ("DDI", 19), ("DDJ", 21)]
        .into_iter()
        .filter_map(|(id, age)| Some((age, date(id)?)))
        .collect();
    DocumentRead {
        source: Some(ReadSource::Barcode),
        document_type: Some(kind.to_owned()),
        issuer: issued_by
            .map(|(code, _)| code.to_owned())
            .or_else(|| state.clone())
            .or_else(|| country.map(|c| c.code().to_owned())),
        first_name,
        middle_name,
        last_name,
        date_of_birth: date("DBB"),
        document_number: text("DAQ"),
        issued_on: date("DBD"),
        expires_on: date("DBA"),
        sex: get("DBC").and_then(fields::sex),
        address_line_1: text("DAG"),
        city: text("DAI"),
        state,
        postal: get("DAK").and_then(fields::postal),
        country: country.map(|c| c.code().to_owned()),
        marked_ages,
    }
}

#[cfg(test)]
mod tests;
