//! PDFs uploaded for an ID step (contract §17): the first page rendered by poppler's
//! `pdftoppm` (Debian's `poppler-utils`) as a subprocess, like tesseract: bounded in
//! processor time and charged to the image's budget, killed past it. Before that,
//! `pdfinfo` says how many pages it has and whether it is encrypted: more than
//! [`MAX_PAGES`] pages, encrypted, malformed, or no poppler here, and there is no page.
//! A crash of either program ends that program, not the analysis.

use std::path::PathBuf;
use std::time::Duration;

use crate::bounded::{self, ChildError, Limits};
use crate::budget::Budget;
use crate::decode::FINE_LONG_SIDE;
use crate::environment;

/// The most pages a PDF for an ID step may have.
pub const MAX_PAGES: u32 = 10;

/// The most processor time one run of either program may take.
const TIME_LIMIT: Duration = Duration::from_secs(8);

/// How long a run may be watched: only a stuck one reaches it.
const STALL_LIMIT: Duration = Duration::from_secs(60);

/// Where a PDF's header may start (after junk a few writers put before it).
const HEADER_WITHIN: usize = 1024;

/// How to run poppler's tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pdf {
    info: PathBuf,
    render: PathBuf,
}

impl Default for Pdf {
    fn default() -> Self {
        Self::new("pdfinfo", "pdftoppm")
    }
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
        }
    }

    /// The first page of the PDF in `bytes` as a grey PGM (poppler takes 17 s to
    /// compress a noisy 4096 px page as a PNG, 0.4 s to write it raw), its long side
    /// [`FINE_LONG_SIDE`] (17 megapixels at most, within the 50 the contract allows);
    /// `None` when it has more than [`MAX_PAGES`] pages, is encrypted or malformed, or
    /// poppler is not here or runs out of time.
    pub fn first_page(&self, bytes: &[u8], budget: &Budget) -> Option<Vec<u8>> {
        let limits = Limits {
            time: TIME_LIMIT,
            stall: STALL_LIMIT,
        };
        let info = bounded::run(
            environment::command(&self.info).arg("-"),
            bytes.to_vec(),
            limits,
            budget,
        );
        let info = String::from_utf8(self.reported(info)?).ok()?;
        let field = |name: &str| {
            info.lines()
                .find_map(|line| line.strip_prefix(name))
                .map(str::trim)
        };
        let pages: u32 = field("Pages:")?.parse().ok()?;
        // "no", or "yes (print:yes copy:no ...)".
        let encrypted = field("Encrypted:")? != "no";
        if pages == 0 || pages > MAX_PAGES || encrypted {
            tracing::info!(pages, encrypted, "PDF refused");
            return None;
        }
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
            limits,
            budget,
        );
        self.reported(page)
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
