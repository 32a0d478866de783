//! A proof of address's text (contract §18): a PDF's own text when it has some, with the
//! signs it was edited; else its first page, or the photo, read by tesseract. Finding the
//! name, address and date in it is the domain's.

use domain::verification::{DocumentText, PdfEdit, TextReading};
use image::{GrayImage, imageops};

use crate::budget::Budget;
use crate::ocr::{Ocr, OcrError};
use crate::pdf::{self, Pdf};
use crate::{decode, deskew};

/// The most pages a proof of address may have: a bank statement runs to a few dozen; a
/// PDF of thousands of pages is refused before any is read.
pub const MAX_PAGES: u32 = 100;

/// Letters a text must hold to count as read: a scan's PDF may carry a few stray
/// characters (a page number, an invisible OCR layer's noise) and no text.
const MIN_LETTERS: usize = 40;

fn has_text(text: &str) -> bool {
    text.chars().filter(|c| c.is_alphabetic()).count() >= MIN_LETTERS
}

/// The text of the file in `bytes`, within `budget`.
pub fn read(bytes: &[u8], pdf: &Pdf, ocr: &Ocr, budget: &Budget) -> TextReading {
    if !pdf::is_pdf(bytes) {
        return match decode::decode_with_colour(bytes, None) {
            Some(image) => recognised(&image.gray, ocr, budget, Vec::new()),
            None => TextReading::Unreadable,
        };
    }
    if pdf::is_active(bytes) {
        tracing::info!("PDF with JavaScript or a launch action refused");
        return TextReading::Unreadable;
    }
    let Some(info) = pdf.info(bytes, budget) else {
        return TextReading::Unreadable;
    };
    if info.admitted(MAX_PAGES).is_none() {
        return TextReading::Unreadable;
    }
    let edits = pdf::edits(&info, bytes);
    if let Some(text) = pdf.text(bytes, budget).filter(|t| has_text(t)) {
        return TextReading::Read(DocumentText { text, edits });
    }
    // A scan: its first page read as a photo is.
    match pdf
        .render(bytes, budget)
        .and_then(|page| decode::decode_rendered(&page, None))
    {
        Some(page) => recognised(&page.gray, ocr, budget, edits),
        None => TextReading::Unreadable,
    }
}

/// Words of three letters or more (letters only) a text must hold for its page not to
/// be tried upside down: read upside down, a page gives marks and fragments.
const WORDS_UPRIGHT: usize = 25;

fn words(text: &str) -> usize {
    text.split_whitespace()
        .filter(|w| w.chars().count() >= 3 && w.chars().all(char::is_alphabetic))
        .count()
}

/// What tesseract reads on `image`: levelled first by the likeliest turn of its lines (a
/// photo turned a little, or a quarter turn without EXIF: tesseract reads lines as they
/// lie); while it reads few words, as it came, upside down, and by the next likeliest
/// turn (a table's edge can outscore the page's lines). The reading with the most words
/// is kept.
fn recognised(image: &GrayImage, ocr: &Ocr, budget: &Budget, edits: Vec<PdfEdit>) -> TextReading {
    let turns = deskew::skews(image);
    let level = |turn: Option<&f32>| turn.and_then(|t| deskew::levelled(image, *t));
    let first = level(turns.first());
    let upright = first.as_ref().unwrap_or(image);
    let tries: [&dyn Fn() -> Option<GrayImage>; 3] = [
        &|| first.is_some().then(|| image.clone()),
        &|| Some(imageops::rotate180(upright)),
        &|| level(turns.get(1)),
    ];
    let mut best = match ocr.page_text(upright, budget) {
        Ok(text) => text,
        Err(OcrError::Unavailable) => return TextReading::OcrUnavailable,
        Err(OcrError::TimedOut | OcrError::Failed) => return TextReading::Unreadable,
    };
    for again in tries {
        if words(&best) >= WORDS_UPRIGHT || budget.is_spent() {
            break;
        }
        let Some(page) = again() else { continue };
        if let Ok(text) = ocr.page_text(&page, budget)
            && words(&text) > words(&best)
        {
            best = text;
        }
    }
    match has_text(&best) {
        true => TextReading::Read(DocumentText { text: best, edits }),
        false => TextReading::Unreadable,
    }
}
