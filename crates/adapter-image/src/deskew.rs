//! How far a photographed page is turned, from its lines of text: projected on the
//! right angle, dark pixels pile up in a few rows (the lines) and the row counts'
//! sum of squares peaks. Tesseract reads an MRZ turned 5 degrees as noise.

use image::GrayImage;
use image::imageops::{self, FilterType};
use imageproc::contrast::{ThresholdType, otsu_level, threshold};
use imageproc::geometric_transformations::{Interpolation, rotate_about_center};

/// The widest turn looked for, in degrees either way.
const MAX_SKEW: f32 = 12.0;

/// The step between the angles tried, in degrees.
const STEP: f32 = 0.5;

/// Under this turn, in degrees, a page is read as it is (tesseract copes).
const NEGLIGIBLE: f32 = 1.0;

/// The width the angle is measured at: enough for lines of 30-pixel glyphs to stand out.
const MEASURE_WIDTH: u32 = 700;

/// The angle in degrees, clockwise, the text of `gray` is turned by.
pub fn skew(gray: &GrayImage) -> f32 {
    let (width, height) = gray.dimensions();
    if width == 0 || height == 0 {
        return 0.0;
    }
    let scaled_height =
        ((u64::from(height) * u64::from(MEASURE_WIDTH) / u64::from(width)) as u32).max(1);
    let small = imageops::resize(gray, MEASURE_WIDTH, scaled_height, FilterType::Triangle);
    let dark = threshold(&small, otsu_level(&small), ThresholdType::BinaryInverted);
    let points: Vec<(f32, f32)> = dark
        .enumerate_pixels()
        .filter(|(_, _, p)| p.0[0] > 0)
        .map(|(x, y, _)| (x as f32, y as f32))
        .collect();
    let diagonal = (MEASURE_WIDTH + scaled_height) as usize;
    let mut best = (0.0, f64::MIN);
    let steps = (MAX_SKEW / STEP) as i32;
    for step in -steps..=steps {
        let angle = step as f32 * STEP;
        let (sin, cos) = angle.to_radians().sin_cos();
        let mut rows = vec![0u32; 2 * diagonal + 1];
        for (x, y) in &points {
            // The row of the point on a page turned back by `angle`.
            let row = (y * cos - x * sin).round() as isize + diagonal as isize;
            if let Some(count) = rows.get_mut(row.max(0) as usize) {
                *count += 1;
            }
        }
        let score: f64 = rows.iter().map(|c| f64::from(*c).powi(2)).sum();
        if score > best.1 {
            best = (angle, score);
        }
    }
    best.0
}

/// `gray` turned back level when [`skew`] finds it turned by more than [`NEGLIGIBLE`].
pub fn levelled(gray: &GrayImage) -> Option<GrayImage> {
    let angle = skew(gray);
    (angle.abs() > NEGLIGIBLE).then(|| {
        rotate_about_center(
            gray,
            -angle.to_radians(),
            Interpolation::Bilinear,
            image::Luma([255]),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fixtures::degrade;
    use fixtures::passport::Passport;

    #[test]
    fn the_turn_of_a_page_is_measured_to_the_step() {
        let page = Passport::sample()
            .page(None)
            .expect("the OCR-B font (fonts-ocr-b)");
        for degrees in [-8.0, -3.0, 0.0, 5.0] {
            let turned = image::DynamicImage::ImageRgb8(degrade::rotate(&page, degrees)).to_luma8();
            assert_eq!(skew(&turned), degrees);
        }
        assert_eq!(skew(&GrayImage::new(0, 0)), 0.0);
    }
}
