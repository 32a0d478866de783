//! A proof of address through the analyser (contract §18): a bill's own text, its scan and
//! its photo read well enough for the domain's check to pass; each way of editing a PDF
//! named; each hostile PDF refused, or read within poppler's bounds. Tests whose programs are
//! missing are reported ignored, with the reason ([`fixtures::needs`]).

use adapter_image::Analyser;
use domain::template::Feature;
use domain::verification::matching::AddressParts;
use domain::verification::proof_of_address::{self, MaxAge};
use domain::verification::{
    CheckStatus, Claimed, DocumentText, Examined, PdfEdit, TextReading, Wanted,
};
use fixtures::bill::{Bill, Edit, HOSTILE, Hostile};
use fixtures::corpus::camera::{Shot, Table, photograph};
use fixtures::degrade;
use fixtures::needs::{Need, trial};
use image::Rgb;
use time::macros::date;

const TEXT: Wanted = Wanted {
    barcode: false,
    mrz: false,
    faces: false,
    text: true,
};

const ISSUED: time::Date = date!(2026 - 11 - 02);

fn claimed() -> Claimed {
    Claimed {
        first_name: "Jane".into(),
        last_name: "Doe".into(),
        licence_number: None,
        address: AddressParts::of_one_line("1234 N Main St, San Francisco, CA 94105, US"),
        country: Some("US".into()),
    }
}

fn read(bytes: &[u8]) -> TextReading {
    Analyser::default()
        .analyse(bytes, TEXT)
        .text
        .expect("text wanted")
}

/// The domain's judgement of `reading` as the one file of a utility bill.
fn judged(reading: TextReading) -> (CheckStatus, Vec<&'static str>) {
    let images = [Examined {
        document_id: "d1".into(),
        step: Feature::UtilityBillUpload,
        side: None,
        report: domain::verification::ImageReport {
            text: Some(reading),
            ..Default::default()
        },
    }];
    let check = proof_of_address::proof_of_address(
        &images,
        &claimed(),
        date!(2026 - 11 - 20),
        MaxAge::DEFAULT,
    );
    (
        check.status,
        check.reasons.iter().map(|r| r.as_str()).collect(),
    )
}

fn a_bills_own_text_a_scan_and_a_photo_each_pass() {
    let bill = Bill::sample(ISSUED);
    let font = fixtures::passport::ocrb_font().expect("the OCR-B typeface");
    let page = bill.page(&font, 150.0);
    let shot = Shot {
        degrees: 4.0,
        keystone: 0.04,
        far_edge: 0,
        share: 0.8,
        long_side: 3000,
        table: Table::Plain(Rgb([90, 80, 70])),
        shadow: 0.2,
        noise: 3.0,
        motion: 0,
        stored_turns: 0,
        exif: false,
        jpeg: Some(85),
        pdf: false,
    };
    let files = [
        ("its own text", bill.pdf()),
        ("a scan", degrade::pdf(&page, 85, 1)),
        ("a photo", photograph(&page, &shot, 7)),
    ];
    for (what, bytes) in files {
        let reading = read(&bytes);
        let TextReading::Read(DocumentText { text, edits }) = &reading else {
            panic!("{what}: {reading:?}");
        };
        assert!(edits.is_empty(), "{what}: {edits:?}");
        assert!(text.contains("Doe"), "{what}: {text}");
        assert_eq!(judged(reading), (CheckStatus::Passed, vec![]), "{what}");
    }
}

fn each_way_of_editing_a_pdf_is_named() {
    let bill = Bill::sample(ISSUED);
    let cases = [
        (Edit::Producer, PdfEdit::EditorSoftware),
        (Edit::Incremental, PdfEdit::IncrementalUpdate),
        (Edit::ModifiedLater, PdfEdit::ModifiedAfterCreation),
        (Edit::Annotation, PdfEdit::TextAnnotation),
    ];
    for (edit, sign) in cases {
        let reading = read(&bill.edited_pdf(edit));
        let TextReading::Read(DocumentText { edits, .. }) = &reading else {
            panic!("{edit:?}: {reading:?}");
        };
        assert_eq!(edits, &[sign], "{edit:?}");
        assert_eq!(
            judged(reading),
            (CheckStatus::Failed, vec!["poa_pdf_modified"]),
            "{edit:?}"
        );
    }
}

fn each_hostile_pdf_is_refused_or_read_within_bounds() {
    let bill = Bill::sample(ISSUED);
    for how in HOSTILE {
        let reading = read(&bill.hostile_pdf(how));
        // A bomb is inflated as it is read, in poppler's own bounded process: the bill
        // is read.
        let expected = match how {
            Hostile::CompressionBomb => "read",
            _ => "unreadable",
        };
        let outcome = match reading {
            TextReading::Read(_) => "read",
            TextReading::Unreadable => "unreadable",
            TextReading::OcrUnavailable => "ocr_unavailable",
        };
        assert_eq!(outcome, expected, "{how:?}");
    }
}

fn a_photo_without_tesseract_is_ocr_unavailable_and_garbage_unreadable() {
    let page = Bill::sample(ISSUED).page(
        &fixtures::passport::ocrb_font().expect("the OCR-B typeface"),
        100.0,
    );
    let no_ocr = Analyser::new(Some("/nonexistent/tesseract".into()));
    let photo = no_ocr.analyse(&degrade::jpeg(&page, 85), TEXT).text;
    assert_eq!(photo, Some(TextReading::OcrUnavailable));
    assert_eq!(read(b"neither an image nor a PDF"), TextReading::Unreadable);
}

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let tests = vec![
        trial(
            "a_photo_without_tesseract_is_ocr_unavailable_and_garbage_unreadable",
            &[],
            a_photo_without_tesseract_is_ocr_unavailable_and_garbage_unreadable,
        ),
        trial(
            "a_bills_own_text_a_scan_and_a_photo_each_pass",
            &[Need::Poppler, Need::Tesseract],
            a_bills_own_text_a_scan_and_a_photo_each_pass,
        ),
        trial(
            "each_way_of_editing_a_pdf_is_named",
            &[Need::Poppler],
            each_way_of_editing_a_pdf_is_named,
        ),
        trial(
            "each_hostile_pdf_is_refused_or_read_within_bounds",
            &[Need::Poppler],
            each_hostile_pdf_is_refused_or_read_within_bounds,
        ),
    ];
    libtest_mimic::run(&args, tests).exit();
}
