//! Licence barcodes: the PDF417 on the back of US and Canadian licences, read with rxing
//! and parsed as an AAMVA record.
//!
//! A photo is scaled to a working size, straightened when its content is turned (rxing's
//! detector gives up past about 3 degrees) and tried; then tried as it is, then turned by
//! the next likeliest angle, then enlarged when it is small. That is at most 4 decodes,
//! each a fraction of a second, and none is started once the budget is spent.

mod deskew;
mod pdf417;

use std::time::Duration;

use domain::verification::BarcodeReading;
use image::{GrayImage, imageops};

use crate::aamva;
use crate::budget::Budget;

/// The long side photos are decoded at: phone photos (4000 px and more) are scaled down
/// to it, which keeps a licence's modules over 2 pixels when the card fills a third of
/// the frame while bounding the time and memory of each decode.
const WORKING_SIDE: u32 = 1800;

/// Photos whose long side is under this are also tried enlarged twice: rxing misses
/// modules narrower than about 2 pixels.
const SMALL_SIDE: u32 = 1200;

/// Rotations under this (degrees) are left alone: rxing reads them as they are.
const NEGLIGIBLE_SKEW: f32 = 0.75;

/// The processor time [`read_barcode`] allows itself; well within the 20 s a document
/// gets.
const DEFAULT_BUDGET: Duration = Duration::from_secs(8);

/// What the PDF417 of a licence photo says, within 8 seconds of processor time (see
/// [`read_barcode_within`]).
pub fn read_barcode(image: &GrayImage) -> BarcodeReading {
    read_barcode_within(image, &Budget::start(DEFAULT_BUDGET))
}

/// What the PDF417 of a licence photo says: `Read` with the AAMVA record, `Invalid` when
/// a PDF417 holds something else, `NotFound` when none is read before `budget` is spent.
/// The first decode always runs; no other starts once it is spent, and one under way
/// finishes.
pub fn read_barcode_within(image: &GrayImage, budget: &Budget) -> BarcodeReading {
    let working = deskew::fit(image, WORKING_SIDE);
    let mut decodes = 0;
    let mut attempt = |image: &GrayImage| {
        if decodes > 0 && budget.is_spent() {
            return None;
        }
        decodes += 1;
        pdf417::decode(image)
    };
    // Measuring the skew costs a fraction of a decode that fails, so a turned photo is
    // straightened before its first decode; the photo as it is comes next, in case the
    // edges of its background misled the measure, then turned by the next likeliest
    // angle.
    let angles = deskew::skew_candidates(&working);
    let significant = |degrees: &&f32| degrees.abs() >= NEGLIGIBLE_SKEW;
    let straight = angles
        .first()
        .filter(significant)
        .map(|&degrees| deskew::rotated_back(&working, degrees));
    let mut text = straight
        .iter()
        .chain(std::iter::once(&working))
        .find_map(&mut attempt);
    if text.is_none() {
        text = angles
            .get(1)
            .filter(significant)
            .and_then(|&degrees| attempt(&deskew::rotated_back(&working, degrees)));
    }
    let best = straight.as_ref().unwrap_or(&working);
    let small = best.width().max(best.height()) < SMALL_SIDE;
    if text.is_none() && small && !budget.is_spent() {
        let (w, h) = (best.width() * 2, best.height() * 2);
        let enlarged = imageops::resize(best, w, h, imageops::FilterType::CatmullRom);
        text = attempt(&enlarged);
    }
    match text {
        None => BarcodeReading::NotFound,
        Some(text) => aamva::parse(&text).map_or(BarcodeReading::Invalid, BarcodeReading::Read),
    }
}
