//! How far a photographed page is turned, from its lines of text: projected on the
//! right angle, dark pixels pile up in a few rows (the lines) and the row counts'
//! sum of squares peaks. Tesseract reads an MRZ turned 5 degrees as noise.
//!
//! Dark means darker than the neighbourhood (not Otsu's global level, which on a photo
//! splits the table from the page rather than the ink from the paper), and every turn
//! is looked at, a degree apart, then refined: a page held at 30 degrees or stored a
//! quarter turn off is levelled like one held straight.

use image::imageops::{self, FilterType};
use image::{GrayImage, Luma};
use imageproc::filter::box_filter;
use imageproc::geometric_transformations::{Interpolation, Projection, warp_into};

/// The step of the first sweep, over every turn, in degrees.
const COARSE_STEP: f32 = 1.0;

/// The step of the refinement about the best coarse turn, in degrees.
const FINE_STEP: f32 = 0.25;

/// Under this turn, in degrees, a page is read as it is (tesseract copes).
const NEGLIGIBLE: f32 = 1.0;

/// The width the angle is measured at: enough for lines of 30-pixel glyphs to stand out.
const MEASURE_WIDTH: u32 = 700;

/// A pixel is ink when this much darker than the mean around it.
const INK_DELTA: i16 = 20;

/// The radius of that neighbourhood at the measuring width: wider than a stroke.
const INK_RADIUS: u32 = 6;

/// The ink of `gray` (255) at `width` pixels across: pixels darker than their
/// neighbourhood, so that neither a dark table nor a shadow counts.
pub fn ink(gray: &GrayImage, width: u32) -> GrayImage {
    let (w, h) = gray.dimensions();
    let height = ((u64::from(h) * u64::from(width) / u64::from(w.max(1))) as u32).max(1);
    let small = imageops::resize(gray, width, height, FilterType::Triangle);
    darker_than_around(&small, INK_RADIUS, INK_DELTA)
}

/// 255 where a pixel of `image` is `delta` levels or more darker than the mean of the
/// square of `radius` around it, 0 elsewhere: flat paper or table has no such pixel,
/// whatever its light.
pub fn darker_than_around(image: &GrayImage, radius: u32, delta: i16) -> GrayImage {
    let mean = box_filter(image, radius, radius);
    GrayImage::from_fn(image.width(), image.height(), |x, y| {
        let (p, m) = (
            i16::from(image.get_pixel(x, y).0[0]),
            i16::from(mean.get_pixel(x, y).0[0]),
        );
        Luma([if p + delta < m { 255 } else { 0 }])
    })
}

/// The angle in degrees, clockwise, in (-90, 90], the text of `gray` is turned by.
pub fn skew(gray: &GrayImage) -> f32 {
    let (width, height) = gray.dimensions();
    if width == 0 || height == 0 {
        return 0.0;
    }
    let dark = ink(gray, MEASURE_WIDTH);
    let points: Vec<(f32, f32)> = dark
        .enumerate_pixels()
        .filter(|(_, _, p)| p.0[0] > 0)
        .map(|(x, y, _)| (x as f32, y as f32))
        .collect();
    let diagonal = (dark.width() + dark.height()) as usize;
    let score = |angle: f32| {
        let (sin, cos) = angle.to_radians().sin_cos();
        let mut rows = vec![0u32; 2 * diagonal + 1];
        for (x, y) in &points {
            // The row of the point on a page turned back by `angle`.
            let row = (y * cos - x * sin).round() as isize + diagonal as isize;
            if let Some(count) = rows.get_mut(row.max(0) as usize) {
                *count += 1;
            }
        }
        rows.iter().map(|c| f64::from(*c).powi(2)).sum::<f64>()
    };
    let best = |angles: &mut dyn Iterator<Item = f32>| {
        angles
            .map(|angle| (angle, score(angle)))
            .fold(
                (0.0, f64::MIN),
                |best, next| if next.1 > best.1 { next } else { best },
            )
            .0
    };
    let coarse = best(&mut (-89..=90).map(|step| step as f32 * COARSE_STEP));
    let steps = (COARSE_STEP / FINE_STEP) as i32;
    let fine = best(&mut (-steps..=steps).map(|step| coarse + step as f32 * FINE_STEP));
    if fine > 90.0 {
        fine - 180.0
    } else if fine <= -90.0 {
        fine + 180.0
    } else {
        fine
    }
}

/// `gray` turned back by `degrees` on a canvas grown to hold all of it, the new corners
/// white.
pub fn turned_back(gray: &GrayImage, degrees: f32) -> GrayImage {
    turn_back(gray, degrees, Interpolation::Bilinear, 255).0
}

/// `image` turned back by `degrees` (clockwise) on a canvas grown to hold all of it, the
/// new corners `fill`, with the projection from `image`'s pixels to the canvas's.
pub fn turn_back(
    image: &GrayImage,
    degrees: f32,
    interpolation: Interpolation,
    fill: u8,
) -> (GrayImage, Projection) {
    let theta = degrees.to_radians();
    let (w, h) = (image.width() as f32, image.height() as f32);
    let (sin, cos) = (theta.sin().abs(), theta.cos().abs());
    let (cw, ch) = ((w * cos + h * sin).ceil(), (w * sin + h * cos).ceil());
    let projection = Projection::translate(-w / 2.0, -h / 2.0)
        .and_then(Projection::rotate(-theta))
        .and_then(Projection::translate(cw / 2.0, ch / 2.0));
    let mut canvas = GrayImage::new(cw as u32, ch as u32);
    warp_into(image, &projection, interpolation, Luma([fill]), &mut canvas);
    (canvas, projection)
}

/// `gray` turned back level when [`skew`] finds it turned by more than [`NEGLIGIBLE`].
pub fn levelled(gray: &GrayImage) -> Option<GrayImage> {
    let angle = skew(gray);
    (angle.abs() > NEGLIGIBLE).then(|| turned_back(gray, angle))
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
        for degrees in [-8.0, -3.0, 0.0, 5.0, 25.0, -40.0, 90.0] {
            let turned = image::DynamicImage::ImageRgb8(degrade::rotate(&page, degrees)).to_luma8();
            assert!(
                (skew(&turned) - degrees).abs() <= FINE_STEP,
                "{degrees}: {}",
                skew(&turned)
            );
        }
        assert_eq!(skew(&GrayImage::new(0, 0)), 0.0);
    }
}
