//! Look-alike characters told apart by their shape in OCR-B, the zone's typeface.
//! Tesseract's English model reads the letter O as the digit 0, Q and D too, and G as 6
//! (whose check digit values agree, 16 and 6, so a check digit cannot tell them apart).
//! Where a zone field may hold either (a document number), its check digit fails or,
//! worse, holds for the wrong value. OCR-B draws each pair differently (O wider than 0,
//! G open where 6 is closed): each glyph tesseract read as one
//! of a group is compared with the group's OCR-B shapes, outline and proportions, and
//! takes the nearest. The shapes are drawn from Debian's `fonts-ocr-b` when installed;
//! without it glyphs keep what tesseract read.

use std::sync::OnceLock;

use ab_glyph::{Font, FontVec, PxScale, point};
use image::imageops::{self, FilterType};
use image::{GrayImage, Luma};
use imageproc::contrast::otsu_level;

use crate::ocr::Glyph;

/// Where Debian's `fonts-ocr-b` puts the typeface.
const FONT: &str = "/usr/share/fonts/opentype/ocr-b/OCRB.otf";

/// The groups of characters tesseract confuses with each other where only the shape can
/// tell: O and 0 in a document number (Q and D with them), and G and 6, whose check
/// digit values agree. Other look-alikes (1 I, 2 Z, 5 S, 8 B) are left to the fields'
/// letters-or-digits rules and the check digits: their shapes proved less reliable (an
/// I taken for a 1 hid a TD1 zone's document code).
const GROUPS: [&str; 2] = ["0OQD", "6G"];

/// The size shapes are compared at.
const WIDTH: u32 = 20;
/// See [`WIDTH`].
const HEIGHT: u32 = 28;

/// How much a difference of proportions (the log of the ratio of aspect ratios) weighs
/// against a difference of outline (a correlation, -1 to 1): O and 0 differ most in
/// width.
const ASPECT_WEIGHT: f32 = 2.0;

/// A character's shape: its ink's proportions and its ink, scaled to [`WIDTH`] x
/// [`HEIGHT`] and normalised (mean 0, norm 1).
#[derive(Debug, Clone)]
struct Shape {
    symbol: char,
    aspect: f32,
    ink: Vec<f32>,
}

/// The OCR-B shapes of every character of [`GROUPS`].
#[derive(Debug)]
pub struct Shapes {
    shapes: Vec<Shape>,
}

/// The shapes, read once, when the typeface is installed.
pub fn shapes() -> Option<&'static Shapes> {
    static SHAPES: OnceLock<Option<Shapes>> = OnceLock::new();
    SHAPES
        .get_or_init(|| {
            let font = FontVec::try_from_vec(std::fs::read(FONT).ok()?).ok()?;
            Some(Shapes::drawn(&font))
        })
        .as_ref()
}

impl Shapes {
    fn drawn(font: &FontVec) -> Self {
        let shapes = GROUPS
            .iter()
            .flat_map(|group| group.chars())
            .filter_map(|symbol| {
                let glyph = font
                    .glyph_id(symbol)
                    .with_scale_and_position(PxScale::from(120.0), point(0.0, 120.0));
                let outline = font.outline_glyph(glyph)?;
                let bounds = outline.px_bounds();
                let mut ink = GrayImage::new(bounds.width() as u32, bounds.height() as u32);
                outline.draw(|x, y, coverage| {
                    if x < ink.width() && y < ink.height() {
                        ink.put_pixel(x, y, Luma([(coverage * 255.0) as u8]));
                    }
                });
                shape(symbol, &ink)
            })
            .collect();
        Self { shapes }
    }

    /// What `glyph` of `image` (dark ink on light paper) is: the nearest shape of its
    /// group when tesseract read it as one of a group, else what tesseract read.
    pub fn settle(&self, image: &GrayImage, glyph: &Glyph) -> char {
        let Some(group) = GROUPS.iter().find(|g| g.contains(glyph.symbol)) else {
            return glyph.symbol;
        };
        let (left, top) = (glyph.left.max(0) as u32, glyph.top.max(0) as u32);
        let right = (glyph.right.max(0) as u32).min(image.width());
        let bottom = (glyph.bottom.max(0) as u32).min(image.height());
        if right <= left + 2 || bottom <= top + 2 {
            return glyph.symbol;
        }
        let mut crop = imageops::crop_imm(image, left, top, right - left, bottom - top).to_image();
        imageops::invert(&mut crop);
        let Some(seen) = shape(glyph.symbol, &crop) else {
            return glyph.symbol;
        };
        self.shapes
            .iter()
            .filter(|s| group.contains(s.symbol))
            .map(|s| (s.symbol, likeness(&seen, s)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(glyph.symbol, |(symbol, _)| symbol)
    }
}

/// How alike two shapes are: their outlines' correlation, less their proportions'
/// difference.
fn likeness(a: &Shape, b: &Shape) -> f32 {
    let correlation: f32 = a.ink.iter().zip(&b.ink).map(|(x, y)| x * y).sum();
    correlation - ASPECT_WEIGHT * (a.aspect / b.aspect).ln().abs()
}

/// The shape of the ink (bright on dark) in `ink`: cut to the ink's own box (pixels
/// over Otsu's level), scaled and normalised; `None` when there is no ink.
fn shape(symbol: char, ink: &GrayImage) -> Option<Shape> {
    let level = otsu_level(ink);
    let lit: Vec<(u32, u32)> = ink
        .enumerate_pixels()
        .filter(|(_, _, p)| p.0[0] > level)
        .map(|(x, y, _)| (x, y))
        .collect();
    let (x0, x1) = (
        lit.iter().map(|p| p.0).min()?,
        lit.iter().map(|p| p.0).max()?,
    );
    let (y0, y1) = (
        lit.iter().map(|p| p.1).min()?,
        lit.iter().map(|p| p.1).max()?,
    );
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let cut = imageops::crop_imm(ink, x0, y0, w, h).to_image();
    let scaled = imageops::resize(&cut, WIDTH, HEIGHT, FilterType::Triangle);
    let values: Vec<f32> = scaled.pixels().map(|p| f32::from(p.0[0])).collect();
    let mean = values.iter().sum::<f32>() / values.len() as f32;
    let centred: Vec<f32> = values.iter().map(|v| v - mean).collect();
    let norm = centred.iter().map(|v| v * v).sum::<f32>().sqrt();
    (norm > 0.0).then(|| Shape {
        symbol,
        aspect: w as f32 / h as f32,
        ink: centred.iter().map(|v| v / norm).collect(),
    })
}

#[cfg(test)]
mod tests {
    use ab_glyph::ScaleFont;
    use imageproc::drawing::draw_text_mut;

    use super::*;

    #[test]
    fn each_look_alike_printed_in_ocr_b_is_told_from_its_twins() {
        let (Some(shapes), Ok(font)) = (shapes(), fixtures::passport::ocrb_font()) else {
            assert!(
                std::env::var("IDV_TEST_REQUIRE_OCR").as_deref() != Ok("1"),
                "IDV_TEST_REQUIRE_OCR=1 but no OCR-B font (fonts-ocr-b)"
            );
            eprintln!("skipped: no OCR-B font (fonts-ocr-b)");
            return;
        };
        // Each character printed small, blurred a little, as in a photo; whatever
        // tesseract took it for within its group, its shape says what it is.
        let size = 34.0;
        for group in GROUPS {
            for truth in group.chars() {
                let advance = font
                    .as_scaled(PxScale::from(size))
                    .h_advance(font.glyph_id(truth));
                let mut page = GrayImage::from_pixel(advance as u32 + 20, 60, Luma([235]));
                draw_text_mut(
                    &mut page,
                    Luma([25]),
                    10,
                    10,
                    PxScale::from(size),
                    &font,
                    &truth.to_string(),
                );
                let page = imageproc::filter::gaussian_blur_f32(&page, 0.8);
                let dark: Vec<(u32, u32)> = page
                    .enumerate_pixels()
                    .filter(|(_, _, p)| p.0[0] < 130)
                    .map(|(x, y, _)| (x, y))
                    .collect();
                let glyph = Glyph {
                    symbol: group.chars().find(|&c| c != truth).unwrap_or(truth),
                    left: dark.iter().map(|p| p.0).min().unwrap_or(0) as i32,
                    top: dark.iter().map(|p| p.1).min().unwrap_or(0) as i32,
                    right: dark.iter().map(|p| p.0).max().unwrap_or(0) as i32 + 1,
                    bottom: dark.iter().map(|p| p.1).max().unwrap_or(0) as i32 + 1,
                };
                assert_eq!(shapes.settle(&page, &glyph), truth, "{group}");
            }
        }
        let outside = Glyph {
            symbol: 'K',
            left: 0,
            top: 0,
            right: 5,
            bottom: 5,
        };
        assert_eq!(shapes.settle(&GrayImage::new(10, 10), &outside), 'K');
    }
}
