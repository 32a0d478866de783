//! A proof of address's text (contract §18): a PDF's own text when it has some, with the
//! signs it was edited; else its first page, or the photo, read by tesseract. Finding the
//! name, address and date in it is the domain's.

use domain::verification::{DocumentText, PdfEdit, TextReading};

use image::{GrayImage, imageops};
use imageproc::contrast::{ThresholdType, otsu_level, threshold};
use imageproc::region_labelling::Connectivity;

use crate::budget::Budget;
use crate::components::{self, Piece};
use crate::ocr::{Ink, Ocr, OcrError, PageText};
use crate::pdf::{self, Pdf};
use crate::{decode, deskew, light};

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
            Some(image) => photographed(&image, ocr, budget, Vec::new()),
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
        Some(page) => photographed(&page, ocr, budget, edits),
        None => TextReading::Unreadable,
    }
}

/// The long side a page is read at: its 10-point print some 35 pixels tall, which
/// tesseract reads best, where a phone's photo shrunk whole left it a few pixels tall.
const PAGE_LONG_SIDE: f32 = 2600.0;

/// The most a page is enlarged: past it, blur is only made bigger.
const MOST_ENLARGED: f32 = 2.5;

/// The long side the page is looked for at.
const FIND_LONG_SIDE: u32 = 600;

/// The least share of the photo a region must cover to be taken for the page: a letter
/// page across an eighth of a 4:3 photo's width covers a fortieth of it, and its print
/// is still read once the page is cut out and enlarged. Below it the whole photo is
/// read, shrunk to [`PAGE_LONG_SIDE`].
const LEAST_PAGE_SHARE: u64 = 40;

/// The page in `image` ([`page_bounds`]), cut out of the finest pixels kept, with a
/// margin, at [`PAGE_LONG_SIDE`]; the whole image when no page is found (a scan, a
/// close-up).
fn page_of(image: &decode::Decoded) -> GrayImage {
    let fine = image.finest();
    let (width, height) = fine.dimensions();
    let scale = FIND_LONG_SIDE as f32 / width.max(height) as f32;
    let small = imageops::resize(
        fine,
        ((width as f32 * scale) as u32).max(1),
        ((height as f32 * scale) as u32).max(1),
        imageops::FilterType::Triangle,
    );
    let page = page_bounds(&small)
        .map(|p| {
            let margin = 0.02 * FIND_LONG_SIDE as f32;
            let at =
                |v: u32, most: u32| ((v as f32 - margin).max(0.0) / scale).min(most as f32) as u32;
            let to =
                |v: u32, most: u32| (((v + 1) as f32 + margin) / scale).min(most as f32) as u32;
            let (x0, y0) = (at(p.left, width), at(p.top, height));
            let (x1, y1) = (to(p.right, width), to(p.bottom, height));
            imageops::crop_imm(fine, x0, y0, (x1 - x0).max(1), (y1 - y0).max(1)).to_image()
        })
        .unwrap_or_else(|| fine.clone());
    let (w, h) = page.dimensions();
    let enlarge = (PAGE_LONG_SIDE / w.max(h) as f32).min(MOST_ENLARGED);
    imageops::resize(
        &page,
        ((w as f32 * enlarge) as u32).max(1),
        ((h as f32 * enlarge) as u32).max(1),
        imageops::FilterType::CatmullRom,
    )
}

/// The least share of its bounds a region lighter than a table's light stripes must
/// fill to be taken for the page: a page turned 20 degrees fills 0.6 of them, the
/// specks a second level cuts out of plain paper far less.
const PAGE_FILL: f32 = 0.5;

/// The share of its bounds a region reaching every edge fills when it is a close-up of
/// a page (all of it but its print) rather than a table's pale texture joined to one.
const CLOSE_UP_FILL: f32 = 0.8;

/// The page's bounds in `small`: the largest region lighter than Otsu's level, when it
/// covers [`LEAST_PAGE_SHARE`] of the photo. When that region reaches every edge and
/// fills less than [`CLOSE_UP_FILL`] of its bounds, it is a table's light texture
/// joined to the page (a striped cloth, a grain): the largest region lighter than
/// Otsu's level among those light pixels alone (white paper over the table's pale
/// stripes) is then the page, if it does not reach every edge and fills [`PAGE_FILL`]
/// of its bounds; else the first region stands.
fn page_bounds(small: &GrayImage) -> Option<Piece> {
    let area = u64::from(small.width()) * u64::from(small.height());
    let largest = |level: u8| {
        let light = threshold(small, level, ThresholdType::Binary);
        let (_, pieces) = components::pieces(&light, Connectivity::Four);
        pieces
            .into_values()
            .max_by_key(|p| p.pixels)
            .filter(|p| p.pixels * LEAST_PAGE_SHARE >= area)
    };
    let fill = |p: &Piece| {
        let bounds = u64::from(p.right - p.left + 1) * u64::from(p.bottom - p.top + 1);
        p.pixels as f32 / bounds as f32
    };
    let edge_to_edge = |p: &Piece| {
        p.left == 0 && p.top == 0 && p.right + 1 == small.width() && p.bottom + 1 == small.height()
    };
    let level = otsu_level(small);
    let first = largest(level)?;
    // A close-up of a page reaches every edge too, but fills nearly all of it.
    if !edge_to_edge(&first) || fill(&first) >= CLOSE_UP_FILL {
        return Some(first);
    }
    let lighter: Vec<u8> = small.iter().copied().filter(|v| *v > level).collect();
    let lighter = GrayImage::from_raw(lighter.len() as u32, 1, lighter)?;
    largest(otsu_level(&lighter))
        .filter(|p| !edge_to_edge(p) && fill(p) >= PAGE_FILL)
        .or(Some(first))
}

/// How many words, weighed by tesseract's confidence ([`PageText::words`]), a page must
/// give for it not to be tried another way up: a short bill has a few dozen.
const WORDS_UPRIGHT: f32 = 15.0;

/// The text of a photo or a scan: read from the page cut out of it and, when that gave
/// few words, from the whole photo too (a shadow can cut a page in two for a threshold,
/// and a textured table outshine it), the reading with the most words kept.
fn photographed(
    image: &decode::Decoded,
    ocr: &Ocr,
    budget: &Budget,
    edits: Vec<PdfEdit>,
) -> TextReading {
    let mut best = match recognised(&page_of(image), ocr, budget) {
        Ok(page) => page,
        Err(reading) => return reading,
    };
    if best.words < WORDS_UPRIGHT
        && !budget.is_spent()
        && let Ok(whole) = recognised(&image.gray, ocr, budget)
        && whole.words > best.words
    {
        best = whole;
    }
    match has_text(&best.text) {
        true => TextReading::Read(DocumentText {
            text: best.text,
            edits,
        }),
        false => TextReading::Unreadable,
    }
}

/// What tesseract reads on `image`: levelled first by the likeliest turn of its lines (a
/// photo turned a little, or a quarter turn without EXIF: tesseract reads lines as they
/// lie), its light evened when a shadow lies over it ([`light::is_uneven`]); while it
/// reads few words, by the next likeliest turn (a table's edge or the glyphs' uprights
/// can outscore the page's lines), as it came, upside down, and levelled with a level
/// of ink for each neighbourhood ([`Ink::Local`]). The reading with the most words is
/// kept; without tesseract, or when it fails, what to answer instead.
fn recognised(image: &GrayImage, ocr: &Ocr, budget: &Budget) -> Result<PageText, TextReading> {
    let turns = deskew::skews(image);
    let level = |turn: Option<&f32>| turn.and_then(|t| deskew::levelled(image, *t));
    let first = level(turns.first());
    let upright = first.as_ref().unwrap_or(image);
    // A shadow over part of the page: its light evened first, or tesseract's one level
    // parts ink from paper in the lit part only. Only then: evening costs some turned
    // and keystoned pages their reading.
    let evened = light::is_uneven(upright).then(|| light::evened(upright));
    let upright = evened.as_ref().unwrap_or(upright);
    // The next turn first: a page's glyphs' uprights, a quarter turn from its lines, can
    // outscore them (a short letter in a monospaced face), and read as it came a page
    // turned 7 degrees gives enough words, in pieces, to stop the search.
    // Last, the page as levelled with a level for each neighbourhood: a shadow the
    // evening left can still hide every word from one level.
    let tries: [(&dyn Fn() -> Option<GrayImage>, Ink); 4] = [
        (&|| level(turns.get(1)), Ink::OneLevel),
        (&|| first.is_some().then(|| image.clone()), Ink::OneLevel),
        (&|| Some(imageops::rotate180(upright)), Ink::OneLevel),
        (&|| Some(upright.clone()), Ink::Local),
    ];
    let mut best = match ocr.page_text(upright, Ink::OneLevel, budget) {
        Ok(page) => page,
        Err(OcrError::Unavailable) => return Err(TextReading::OcrUnavailable),
        Err(OcrError::TimedOut | OcrError::Failed) => return Err(TextReading::Unreadable),
    };
    for (again, ink) in tries {
        if best.words >= WORDS_UPRIGHT || budget.is_spent() {
            break;
        }
        let Some(page) = again() else { continue };
        if let Ok(other) = ocr.page_text(&page, ink, budget)
            && other.words > best.words
        {
            best = other;
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A photo `width` x `height` of a dark table with a light page `page_width` x
    /// `page_height` on it, its corner at (`left`, `top`).
    fn photo_of_page(width: u32, height: u32, page: (u32, u32, u32, u32)) -> decode::Decoded {
        let (left, top, page_width, page_height) = page;
        let gray = GrayImage::from_fn(width, height, |x, y| {
            let on_page =
                (left..left + page_width).contains(&x) && (top..top + page_height).contains(&y);
            Luma([if on_page { 235 } else { 70 }])
        });
        decode::Decoded {
            width,
            height,
            gray,
            fine: None,
            colour: None,
        }
    }

    #[test]
    fn a_page_across_a_sixth_of_the_photo_is_cut_out_and_enlarged() {
        // A letter page across 17 % of a 2400 x 1800 photo: 5 % of its area.
        let photo = photo_of_page(2400, 1800, (1000, 500, 400, 520));
        let page = page_of(&photo);
        // The page (with its margin), enlarged: taller than wide, its print larger.
        assert!(page.height() > page.width(), "{:?}", page.dimensions());
        assert!(page.width() >= 400 * 2, "{:?}", page.dimensions());
    }

    #[test]
    fn a_page_on_a_striped_cloth_is_told_from_its_light_stripes() {
        // Diagonal stripes, pale and dark, joined to a white page by the pale ones.
        let (left, top, page_width, page_height) = (220, 100, 240, 310);
        let small = GrayImage::from_fn(600, 450, |x, y| {
            let on_page =
                (left..left + page_width).contains(&x) && (top..top + page_height).contains(&y);
            Luma([match (on_page, (x + y) / 12 % 2 == 0) {
                (true, _) => 245,
                (false, true) => 180,
                (false, false) => 50,
            }])
        });
        let page = page_bounds(&small).expect("a page");
        assert_eq!(
            (page.left, page.top, page.right, page.bottom),
            (left, top, left + page_width - 1, top + page_height - 1)
        );
    }

    #[test]
    fn a_photo_without_a_page_is_read_whole() {
        // A light speck over a 1/100th of the photo is no page.
        let photo = photo_of_page(2000, 1500, (900, 600, 170, 170));
        let page = page_of(&photo);
        let aspect = page.width() as f32 / page.height() as f32;
        assert!((aspect - 4.0 / 3.0).abs() < 0.01, "{:?}", page.dimensions());
    }
}
