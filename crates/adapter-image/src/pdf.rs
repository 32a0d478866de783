//! PDFs uploaded for an ID step (contract §17) or as a proof of address (§18): the first
//! page rendered by poppler's `pdftoppm` (Debian's `poppler-utils`), or the text read by
//! its `pdftotext`, each a subprocess like tesseract: bounded in processor time and
//! charged to the image's budget, killed past it. Before that, `pdfinfo` says how many
//! pages it has, whether it is encrypted, and who made it when ([`PdfInfo`]): too many
//! pages, encrypted, malformed, or no poppler here, and there is no page. A crash of any
//! of them ends that program, not the analysis.

mod edits;

pub use edits::edits;

use std::path::PathBuf;
use std::time::Duration;

use time::{OffsetDateTime, PrimitiveDateTime, UtcOffset};

use crate::bounded::{self, ChildError, Limits};
use crate::budget::Budget;
use crate::decode::FINE_LONG_SIDE;
use crate::environment;

/// The most pages a PDF for an ID step may have.
pub const MAX_PAGES: u32 = 10;

/// The pages a proof of address's text is read from: the name, address and date are on
/// the first.
pub const TEXT_PAGES: u32 = 2;

/// The most processor time one run of any of poppler's programs may take, and how long it
/// may be watched (only a stuck one reaches that).
const LIMITS: Limits = Limits {
    time: Duration::from_secs(8),
    stall: Duration::from_secs(60),
};

/// Where a PDF's header may start (after junk a few writers put before it).
const HEADER_WITHIN: usize = 1024;

/// How to run poppler's tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pdf {
    info: PathBuf,
    render: PathBuf,
    text: PathBuf,
}

impl Default for Pdf {
    fn default() -> Self {
        Self::new("pdfinfo", "pdftoppm")
    }
}

/// What `pdfinfo` says of a PDF.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PdfInfo {
    /// Its pages.
    pub pages: u32,
    /// Whether it is encrypted (then nothing is read from it).
    pub encrypted: bool,
    /// The program that wrote it.
    pub producer: Option<String>,
    /// The program its content was made with.
    pub creator: Option<String>,
    /// When it was made.
    pub created: Option<OffsetDateTime>,
    /// When it was last changed.
    pub modified: Option<OffsetDateTime>,
}

impl PdfInfo {
    /// `pdfinfo -isodates`'s report read; `None` without a page count.
    pub fn parse(report: &str) -> Option<Self> {
        let field = |name: &str| {
            report
                .lines()
                .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))
                .map(str::trim)
                .filter(|v| !v.is_empty())
        };
        Some(Self {
            pages: field("Pages")?.parse().ok()?,
            // "no", or "yes (print:yes copy:no ...)".
            encrypted: field("Encrypted").is_some_and(|e| e != "no"),
            producer: field("Producer").map(str::to_owned),
            creator: field("Creator").map(str::to_owned),
            created: field("CreationDate").and_then(iso_date),
            modified: field("ModDate").and_then(iso_date),
        })
    }

    /// `Some(())` when it may be read: not encrypted, from 1 to `max_pages` pages.
    pub fn admitted(&self, max_pages: u32) -> Option<()> {
        if self.pages == 0 || self.pages > max_pages || self.encrypted {
            tracing::info!(
                pages = self.pages,
                encrypted = self.encrypted,
                "PDF refused"
            );
            return None;
        }
        Some(())
    }
}

/// A date as `pdfinfo -isodates` prints it: `2026-03-11T10:00:00`, then `Z`, `+01` or
/// `-05:30` (nothing: UTC).
fn iso_date(text: &str) -> Option<OffsetDateTime> {
    let format = time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");
    let (local, zone) = text.split_at_checked(19)?;
    let local = PrimitiveDateTime::parse(local, &format).ok()?;
    let offset = match zone.trim() {
        "" | "Z" => UtcOffset::UTC,
        zone => {
            let sign: i8 = if zone.starts_with('-') { -1 } else { 1 };
            let (hours, minutes) = zone[1..].split_once(':').unwrap_or((&zone[1..], "0"));
            UtcOffset::from_hms(
                sign * hours.parse::<i8>().ok()?,
                sign * minutes.parse::<i8>().ok()?,
                0,
            )
            .ok()?
        }
    };
    Some(local.assume_offset(offset))
}

/// Whether the PDF in `bytes` carries actions a viewer would run: JavaScript, or a
/// program to launch. A bill has no need of them; such a file is not read.
pub fn is_active(bytes: &[u8]) -> bool {
    [&b"/JavaScript"[..], b"/JS ", b"/JS(", b"/JS<", b"/Launch"]
        .iter()
        .any(|name| bytes.windows(name.len()).any(|w| w == *name))
}

/// Whether `bytes` are a PDF: its header within the first kilobyte.
pub fn is_pdf(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(HEADER_WITHIN)]
        .windows(5)
        .any(|w| w == b"%PDF-")
}

impl Pdf {
    /// Poppler's tools run as `info` (`pdfinfo`) and `render` (`pdftoppm`).
    pub fn new(info: impl Into<PathBuf>, render: impl Into<PathBuf>) -> Self {
        Self {
            info: info.into(),
            render: render.into(),
            text: "pdftotext".into(),
        }
    }

    /// What `pdfinfo` says of the PDF in `bytes`; `None` when it is malformed, or poppler
    /// is not here or runs out of time.
    pub fn info(&self, bytes: &[u8], budget: &Budget) -> Option<PdfInfo> {
        let info = bounded::run(
            environment::command(&self.info).args(["-isodates", "-"]),
            bytes.to_vec(),
            LIMITS,
            budget,
        );
        let info = String::from_utf8_lossy(&self.reported(info)?).into_owned();
        PdfInfo::parse(&info)
    }

    /// The first page of the PDF in `bytes` as a grey PGM (poppler takes 17 s to
    /// compress a noisy 4096 px page as a PNG, 0.4 s to write it raw), its long side
    /// [`FINE_LONG_SIDE`] (17 megapixels at most, within the 50 the contract allows);
    /// `None` when it has more than [`MAX_PAGES`] pages, is encrypted or malformed, or
    /// poppler is not here or runs out of time.
    pub fn first_page(&self, bytes: &[u8], budget: &Budget) -> Option<Vec<u8>> {
        self.info(bytes, budget)?.admitted(MAX_PAGES)?;
        self.render(bytes, budget)
    }

    /// The first page rendered, as [`Self::first_page`] without asking `pdfinfo` first.
    pub fn render(&self, bytes: &[u8], budget: &Budget) -> Option<Vec<u8>> {
        let scale = FINE_LONG_SIDE.to_string();
        let page = bounded::run(
            environment::command(&self.render).args([
                "-f",
                "1",
                "-l",
                "1",
                "-scale-to",
                &scale,
                "-gray",
                "-singlefile",
                "-",
            ]),
            bytes.to_vec(),
            LIMITS,
            budget,
        );
        self.reported(page)
    }

    /// The PDF's own text on its first [`TEXT_PAGES`] pages, laid out as on the page
    /// (`pdftotext -layout`: columns side by side); empty for a scan.
    pub fn text(&self, bytes: &[u8], budget: &Budget) -> Option<String> {
        let last = TEXT_PAGES.to_string();
        let text = bounded::run(
            environment::command(&self.text)
                .args(["-layout", "-enc", "UTF-8", "-f", "1", "-l", &last, "-", "-"]),
            bytes.to_vec(),
            LIMITS,
            budget,
        );
        Some(String::from_utf8_lossy(&self.reported(text)?).into_owned())
    }

    /// The output of a run, or `None` with a line in the log saying why.
    fn reported(&self, run: Result<Vec<u8>, ChildError>) -> Option<Vec<u8>> {
        match run {
            Ok(output) => Some(output),
            Err(ChildError::Unavailable) => {
                tracing::warn!("poppler (pdfinfo, pdftoppm) not installed: PDFs are unreadable");
                None
            }
            Err(error) => {
                tracing::info!(?error, "PDF not rendered");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn pdfinfos_report_is_read_with_its_dates_offsets_and_refusals() {
        let report = "Producer:        Sejda PDF Desktop\nCreationDate:    2026-03-11T10:00:00+01\n\
                      ModDate:         2026-03-11T10:00:00-05:30\nPages:           3\n\
                      Encrypted:       yes (print:yes copy:no)\n";
        let info = PdfInfo::parse(report).expect("a page count");
        assert_eq!(info.pages, 3);
        assert!(info.encrypted);
        assert_eq!(info.producer.as_deref(), Some("Sejda PDF Desktop"));
        assert_eq!(info.creator, None);
        assert_eq!(info.created, Some(datetime!(2026-03-11 09:00 UTC)));
        assert_eq!(info.modified, Some(datetime!(2026-03-11 15:30 UTC)));
        assert_eq!(info.admitted(10), None, "encrypted");
        let plain = PdfInfo {
            encrypted: false,
            ..info
        };
        assert_eq!(plain.admitted(10), Some(()));
        assert_eq!(plain.admitted(2), None, "too many pages");
        assert_eq!(
            iso_date("2026-03-11T10:00:00Z"),
            Some(datetime!(2026-03-11 10:00 UTC))
        );
        assert_eq!(iso_date("11/03/2026"), None);
        assert_eq!(PdfInfo::parse("Producer: x\n"), None, "no page count");
    }
}
