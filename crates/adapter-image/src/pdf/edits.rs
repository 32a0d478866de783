//! The signs that a PDF was edited after it was made (contract §18, `poa_pdf_modified`):
//! what `pdfinfo` says of its makers and dates, and what its bytes show of how it was
//! saved. Read from the file as uploaded, never by running it: the bytes are searched,
//! not parsed. Objects packed in compressed object streams are not searched, so an
//! annotation an editor packs there is not seen (the other signs usually are).

use domain::verification::PdfEdit;
use time::Duration;

use super::PdfInfo;

/// Programs that edit PDFs rather than make them, as their names appear in a PDF's
/// producer or creator (lowercase). Makers of PDFs (word processors, print drivers,
/// reporting libraries) are not here: a bill is made by one.
const EDITORS: [&str; 25] = [
    "acrobat pro",
    "acrobat standard",
    "adobe acrobat 2",
    "pdfescape",
    "sejda",
    "smallpdf",
    "ilovepdf",
    "pdf-xchange editor",
    "pdf-xchange viewer",
    "foxit phantompdf",
    "foxit pdf editor",
    "foxit editor",
    "nitro pro",
    "nitro pdf",
    "pdfelement",
    "wondershare",
    "pdffiller",
    "dochub",
    "pdf candy",
    "soda pdf",
    "master pdf editor",
    "pdf expert",
    "inkscape",
    "pikepdf",
    "pypdf",
];

/// A modification this long after creation is the same save (some makers stamp the two
/// dates a moment apart).
const SAME_SAVE: Duration = Duration::minutes(1);

/// Where a linearized PDF says so: in its first object.
const LINEARIZED_WITHIN: usize = 1024;

/// Every sign of editing `info` and `bytes` show, in a fixed order.
pub fn edits(info: &PdfInfo, bytes: &[u8]) -> Vec<PdfEdit> {
    let by_editor = [&info.producer, &info.creator]
        .into_iter()
        .flatten()
        .map(|name| name.to_lowercase())
        .any(|name| EDITORS.iter().any(|editor| name.contains(editor)));
    let modified_later = match (info.created, info.modified) {
        (Some(created), Some(modified)) => modified - created > SAME_SAVE,
        _ => false,
    };
    [
        (by_editor, PdfEdit::EditorSoftware),
        (saved_again(bytes), PdfEdit::IncrementalUpdate),
        (modified_later, PdfEdit::ModifiedAfterCreation),
        (annotated(bytes), PdfEdit::TextAnnotation),
    ]
    .into_iter()
    .filter_map(|(shown, edit)| shown.then_some(edit))
    .collect()
}

fn count(bytes: &[u8], word: &[u8]) -> usize {
    bytes.windows(word.len()).filter(|w| *w == word).count()
}

/// Whether the file was saved again after it was made: more cross-reference sections
/// than its layout needs (an incremental update appends one; a linearized file has two
/// of its own), or a file identifier whose second half differs from its first (writers
/// make both alike, and a rewrite keeps the first and renews the second).
fn saved_again(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(LINEARIZED_WITHIN)];
    let own = 1 + usize::from(count(head, b"/Linearized") > 0);
    count(bytes, b"startxref") > own || identifiers_differ(bytes)
}

/// The halves of the last `/ID [<...> <...>]` in the file, compared without case.
fn identifiers_differ(bytes: &[u8]) -> bool {
    let Some(at) = bytes.windows(3).rposition(|w| w == b"/ID") else {
        return false;
    };
    let rest = &bytes[at + 3..bytes.len().min(at + 3 + 200)];
    let text = String::from_utf8_lossy(rest);
    let Some(inside) = text.trim_start().strip_prefix('[') else {
        return false;
    };
    let halves: Vec<String> = inside
        .split('>')
        .take(2)
        .filter_map(|half| half.trim().strip_prefix('<'))
        .map(|hex| {
            hex.chars()
                .filter(|c| !c.is_whitespace())
                .collect::<String>()
                .to_lowercase()
        })
        .collect();
    matches!(halves.as_slice(), [a, b] if !a.is_empty() && a != b)
}

/// Whether text annotations are laid over the page: a typewriter's `FreeText` or a note's
/// `Text`, written `/Subtype /FreeText` or `/Subtype/Text`.
fn annotated(bytes: &[u8]) -> bool {
    let mut rest = bytes;
    while let Some(at) = rest.windows(8).position(|w| w == b"/Subtype") {
        rest = &rest[at + 8..];
        let value = rest.trim_ascii_start();
        let name: Vec<u8> = value
            .strip_prefix(b"/")
            .unwrap_or_default()
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .copied()
            .collect();
        if name == b"FreeText" || name == b"Text" {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    const MADE: &[u8] = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\nxref\n0 1\ntrailer << /ID [<ab12><AB12>] >>\nstartxref\n9\n%%EOF\n";

    fn info() -> PdfInfo {
        PdfInfo {
            pages: 1,
            producer: Some("ReportLab PDF Library - www.reportlab.com".into()),
            created: Some(datetime!(2026-03-11 10:00 UTC)),
            modified: Some(datetime!(2026-03-11 10:00:30 UTC)),
            ..PdfInfo::default()
        }
    }

    #[test]
    fn a_pdf_as_made_shows_no_edit() {
        assert_eq!(edits(&info(), MADE), []);
        let linearized = [
            b"%PDF-1.4\n1 0 obj << /Linearized 1 >>\nstartxref\n0\n".as_slice(),
            MADE,
        ]
        .concat();
        assert_eq!(edits(&info(), &linearized), []);
    }

    #[test]
    fn each_sign_of_editing_is_named() {
        let editor = PdfInfo {
            producer: Some("Sejda PDF Desktop (http://www.sejda.com)".into()),
            ..info()
        };
        assert_eq!(edits(&editor, MADE), [PdfEdit::EditorSoftware]);
        let later = PdfInfo {
            modified: Some(datetime!(2026-04-02 09:00 UTC)),
            ..info()
        };
        assert_eq!(edits(&later, MADE), [PdfEdit::ModifiedAfterCreation]);
        let appended = [
            MADE,
            b"2 0 obj << >> endobj\nxref\ntrailer << /Prev 9 >>\nstartxref\n99\n%%EOF\n",
        ]
        .concat();
        assert_eq!(edits(&info(), &appended), [PdfEdit::IncrementalUpdate]);
        let rewritten = String::from_utf8_lossy(MADE).replace("<AB12>", "<77ee>");
        assert_eq!(
            edits(&info(), rewritten.as_bytes()),
            [PdfEdit::IncrementalUpdate]
        );
        for annotation in [
            &b"<< /Type /Annot /Subtype /FreeText /Contents (0.00) >>"[..],
            b"<</Subtype/Text>>",
        ] {
            let annotated = [MADE, annotation].concat();
            assert_eq!(edits(&info(), &annotated), [PdfEdit::TextAnnotation]);
        }
        // A link or a form field is no text laid over the page.
        let linked = [MADE, b"<< /Subtype /Link >> << /Subtype /TextField >>"].concat();
        assert_eq!(edits(&info(), &linked), []);
    }
}
