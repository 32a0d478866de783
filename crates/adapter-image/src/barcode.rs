//! Licence barcodes: the PDF417 on the back of US and Canadian licences, read with rxing
//! and parsed as an AAMVA record.
//!
//! rxing's detector gives up past about 3 degrees of turn and under 2-pixel modules, so
//! the barcode is first found ([`locate`]) in the photo levelled by each likely turn of
//! its content, cut out at full resolution with one perspective warp (undoing turn and
//! tilt together) and decoded upright and large. When no region found that way reads,
//! the whole photo is tried as before: scaled to a working size, straightened and tried,
//! then as it is, then turned by the next likeliest angle, then enlarged when small. No
//! decode is started once the budget is spent.

mod deskew;
pub mod locate;
mod pdf417;

use std::time::Duration;

use domain::verification::BarcodeReading;
use image::{GrayImage, Luma, imageops};
use imageproc::geometric_transformations::{Interpolation, Projection, warp_into};

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

/// The width a located barcode is cut out at, at least: 3 pixels a module for the
/// widest licence barcodes (20 columns, 409 modules), more for narrower ones.
const CUT_WIDTH: f32 = 1300.0;

/// The widest a located barcode is cut out at: more would only slow the decode.
const MAX_CUT_WIDTH: f32 = 2000.0;

/// The most pixels a barcode is cut out at: a region taller than a barcode (a striped
/// table) is cut smaller rather than slowly.
const MAX_CUT_PIXELS: f32 = 3_000_000.0;

/// The most regions decoded: each that fails costs a decode.
const MAX_REGIONS: usize = 4;

/// How much longer a region that did not read is tried at each end of its rows: a
/// barcode's start or stop pattern and row indicator are a tenth of its length.
const STRETCH: f32 = 0.12;

/// The white margin around a barcode cut out, pixels: rxing wants a quiet zone.
const CUT_MARGIN: u32 = 30;

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
    let angles = deskew::skew_candidates(&working);
    let mut turns = angles.clone();
    if !turns.iter().any(|d| d.abs() < NEGLIGIBLE_SKEW) {
        turns.push(0.0);
    }
    let mut text = locate::barcodes(image, &turns)
        .iter()
        .take(MAX_REGIONS)
        .find_map(|quad| {
            // Found in a photo levelled by another turn than the barcode's (a wavy
            // table's), a barcode's blocks can come apart, its end (the stop pattern)
            // a region of its own: the region stretched along the bars' rows may hold
            // it all.
            [*quad, stretched(quad, STRETCH)]
                .iter()
                .find_map(|quad| attempt(&cut_out(image, quad)?))
        });
    // The whole photo: measuring the skew costs a fraction of a decode that fails, so a
    // turned photo is straightened before its first decode; the photo as it is comes
    // next, in case the edges of its background misled the measure, then turned by the
    // next likeliest angle.
    let significant = |degrees: &&f32| degrees.abs() >= NEGLIGIBLE_SKEW;
    let straight = angles
        .first()
        .filter(significant)
        .map(|&degrees| crate::deskew::turned_back(&working, degrees));
    if text.is_none() {
        text = straight
            .iter()
            .chain(std::iter::once(&working))
            .find_map(&mut attempt);
    }
    if text.is_none() {
        text = angles
            .get(1)
            .filter(significant)
            .and_then(|&degrees| attempt(&crate::deskew::turned_back(&working, degrees)));
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

/// `quad` longer by `share` of its length at each end of its rows.
fn stretched(quad: &locate::Quad, share: f32) -> locate::Quad {
    let [top_left, top_right, bottom_right, bottom_left] = *quad;
    let out = |from: (f32, f32), to: (f32, f32)| {
        (
            to.0 + (to.0 - from.0) * share,
            to.1 + (to.1 - from.1) * share,
        )
    };
    [
        out(top_right, top_left),
        out(top_left, top_right),
        out(bottom_left, bottom_right),
        out(bottom_right, bottom_left),
    ]
}

/// The barcode whose corners are `quad` cut out of `image` upright, at least
/// [`CUT_WIDTH`] wide, with a white margin; `None` for a degenerate quad.
fn cut_out(image: &GrayImage, quad: &locate::Quad) -> Option<GrayImage> {
    let distance = |a: (f32, f32), b: (f32, f32)| (a.0 - b.0).hypot(a.1 - b.1);
    let [top_left, top_right, bottom_right, bottom_left] = *quad;
    let width = (distance(top_left, top_right) + distance(bottom_left, bottom_right)) / 2.0;
    let height = (distance(top_left, bottom_left) + distance(top_right, bottom_right)) / 2.0;
    if width < 20.0 || height < 5.0 {
        return None;
    }
    let scale = (width.clamp(CUT_WIDTH, MAX_CUT_WIDTH) / width)
        .min((MAX_CUT_PIXELS / (width * height)).sqrt());
    let (w, h) = (width * scale, height * scale);
    let m = CUT_MARGIN as f32;
    let to = [(m, m), (m + w, m), (m + w, m + h), (m, m + h)];
    let projection = Projection::from_control_points(*quad, to)?;
    let mut cut = GrayImage::new(w as u32 + 2 * CUT_MARGIN, h as u32 + 2 * CUT_MARGIN);
    warp_into(
        image,
        &projection,
        Interpolation::Bicubic,
        Luma([255]),
        &mut cut,
    );
    Some(cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_is_stretched_along_its_rows_only() {
        // A region 100 long and 20 tall, its rows turned 45 degrees.
        let r = std::f32::consts::FRAC_1_SQRT_2;
        let quad = [
            (0.0, 0.0),
            (100.0 * r, 100.0 * r),
            (100.0 * r - 20.0 * r, 100.0 * r + 20.0 * r),
            (-20.0 * r, 20.0 * r),
        ];
        let [a, b, c, d] = stretched(&quad, 0.1);
        let length = |p: (f32, f32), q: (f32, f32)| (p.0 - q.0).hypot(p.1 - q.1);
        assert!((length(a, b) - 120.0).abs() < 0.01, "{}", length(a, b));
        assert!((length(d, c) - 120.0).abs() < 0.01);
        assert!((length(a, d) - 20.0).abs() < 0.01);
        // Ten further out at each end, along the rows.
        assert!((a.0 + 10.0 * r).abs() < 0.01 && (a.1 + 10.0 * r).abs() < 0.01);
    }
}
