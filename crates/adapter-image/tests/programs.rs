//! What the programs the analysis runs give back: tesseract's glyphs and their boxes,
//! poppler's first page of a scan, and poppler's refusals. A test whose program is
//! missing is reported ignored, with the reason ([`fixtures::needs`]).

use std::time::Duration;

use adapter_image::budget::Budget;
use adapter_image::decode::{self, FINE_LONG_SIDE};
use adapter_image::ocr;
use adapter_image::pdf::{self, Pdf};
use fixtures::degrade;
use fixtures::needs::{Need, trial};
use image::{GrayImage, Rgb, RgbImage};

fn budget() -> Budget {
    Budget::start(Duration::from_secs(60))
}

fn tesseract_reads_printed_capitals_with_their_boxes() {
    let font = fixtures::passport::ocrb_font().expect("the OCR-B typeface");
    let mut image = GrayImage::from_pixel(400, 80, image::Luma([255]));
    imageproc::drawing::draw_text_mut(&mut image, image::Luma([0]), 20, 20, 40.0, &font, "AB<12");
    let budget = Budget::start(ocr::TIME_LIMIT);
    let glyphs = ocr::Ocr::default()
        .glyphs(&image, &budget)
        .expect("tesseract is installed");
    let text: String = glyphs.iter().map(|g| g.symbol).collect();
    assert!(text.starts_with("AB"), "{text}");
    assert!(glyphs.iter().all(|g| g.top >= 10 && g.bottom <= 70));
    // Its run is charged to the budget: tesseract takes tens of milliseconds at least.
    assert!(
        budget.spent() >= Duration::from_millis(10),
        "{:?}",
        budget.spent()
    );
}

fn the_first_page_is_rendered_to_the_fine_side() {
    let scan = RgbImage::from_fn(800, 500, |x, _| Rgb([if x < 400 { 0 } else { 255 }; 3]));
    let pgm = Pdf::default()
        .first_page(&degrade::pdf(&scan, 90, 3), &budget())
        .expect("a page");
    let page = decode::decode_rendered(&pgm, None).expect("a PGM");
    let page = page.finest();
    assert_eq!(page.width(), FINE_LONG_SIDE, "{:?}", page.dimensions());
    assert!(page.get_pixel(100, 100).0[0] < 60 && page.get_pixel(4000, 100).0[0] > 200);
}

fn too_many_pages_garbage_and_a_missing_poppler_give_no_page() {
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
    assert!(pdf::is_pdf(b"\n\n%PDF-1.4 ...") && !pdf::is_pdf(b"\x89PNG\r\n"));
}

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let tests = vec![
        trial(
            "tesseract_reads_printed_capitals_with_their_boxes",
            &[Need::Tesseract],
            tesseract_reads_printed_capitals_with_their_boxes,
        ),
        trial(
            "the_first_page_is_rendered_to_the_fine_side",
            &[Need::Poppler],
            the_first_page_is_rendered_to_the_fine_side,
        ),
        trial(
            "too_many_pages_garbage_and_a_missing_poppler_give_no_page",
            &[Need::Poppler],
            too_many_pages_garbage_and_a_missing_poppler_give_no_page,
        ),
    ];
    libtest_mimic::run(&args, tests).exit();
}
