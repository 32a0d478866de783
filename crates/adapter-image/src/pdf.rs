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

#[cfg(test)]
mod tests {
    use super::*;
    use fixtures::degrade;
    use image::{Rgb, RgbImage};

    fn poppler() -> bool {
        let here = std::process::Command::new("pdftoppm")
            .arg("-v")
            .output()
            .is_ok();
        if !here {
            assert!(
                std::env::var("IDV_TEST_REQUIRE_OCR").as_deref() != Ok("1"),
                "IDV_TEST_REQUIRE_OCR=1 but no pdftoppm (apt-get install poppler-utils)"
            );
            eprintln!("skipped: no poppler-utils");
        }
        here
    }

    fn budget() -> Budget {
        Budget::start(Duration::from_secs(60))
    }

    #[test]
    fn the_first_page_is_rendered_to_the_fine_side() {
        if !poppler() {
            return;
        }
        let scan = RgbImage::from_fn(800, 500, |x, _| Rgb([if x < 400 { 0 } else { 255 }; 3]));
        let pgm = Pdf::default()
            .first_page(&degrade::pdf(&scan, 90, 3), &budget())
            .expect("a page");
        let page = crate::decode::decode_rendered(&pgm, None).expect("a PGM");
        let page = page.finest();
        assert_eq!(page.width(), FINE_LONG_SIDE, "{:?}", page.dimensions());
        assert!(page.get_pixel(100, 100).0[0] < 60 && page.get_pixel(4000, 100).0[0] > 200);
    }

    #[test]
    fn too_many_pages_garbage_and_a_missing_poppler_give_no_page() {
        if !poppler() {
            return;
        }
        let scan = RgbImage::from_pixel(200, 100, Rgb([255, 255, 255]));
        let pdf = Pdf::default();
        assert!(
            pdf.first_page(&degrade::pdf(&scan, 90, 11), &budget())
                .is_none()
        );
        let mut cut = degrade::pdf(&scan, 90, 1);
        cut.truncate(cut.len() / 3);
        assert!(pdf.first_page(&cut, &budget()).is_none());
        assert!(
            pdf.first_page(b"%PDF-1.7\n1 0 obj << >> endobj\n%%EOF", &budget())
                .is_none()
        );
        // Encrypted: the same file with a standard security handler in its trailer (the
        // empty password is not its password).
        let plain = degrade::pdf(&scan, 90, 1);
        let at = plain
            .windows(8)
            .rposition(|w| w == b"trailer\n")
            .expect("a trailer");
        let mut encrypted = plain[..at].to_vec();
        let tail = String::from_utf8_lossy(&plain[at..]).replacen(
            "/Root 1 0 R >>",
            &format!(
                "/Root 1 0 R /ID [<{0}> <{0}>] /Encrypt << /Filter /Standard /V 1 /R 2 \
                 /O <{1}> /U <{1}> /P -4 >> >>",
                "00".repeat(16),
                "ab".repeat(32)
            ),
            1,
        );
        encrypted.extend_from_slice(tail.as_bytes());
        assert!(pdf.first_page(&encrypted, &budget()).is_none());
        let missing = Pdf::new("/nonexistent/pdfinfo", "/nonexistent/pdftoppm");
        assert!(
            missing
                .first_page(&degrade::pdf(&scan, 90, 1), &budget())
                .is_none()
        );
        assert!(is_pdf(b"\n\n%PDF-1.4 ...") && !is_pdf(b"\x89PNG\r\n"));
    }
}
