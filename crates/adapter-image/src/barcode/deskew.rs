//! Straightening a photographed card: rxing's PDF417 detector gives up past about 3
//! degrees of rotation, so the dominant edge orientation (bars, text and the card's
//! outline are all parallel or perpendicular to each other) is measured and undone.

use image::{GrayImage, imageops};
use imageproc::filter::gaussian_blur_f32;
use imageproc::gradients::{horizontal_sobel, vertical_sobel};

/// The side the angle is measured on: enough edges to vote, little time.
const MEASURE_SIDE: u32 = 800;

/// Histogram bins per degree of edge orientation (modulo 90 degrees).
const BINS_PER_DEGREE: usize = 4;

/// The blur before measuring, in pixels of the measured image.
const BLUR_SIGMA: f32 = 1.2;

/// Gradients weaker than this (Sobel units, out of about 1020) are noise, not edges.
const MIN_MAGNITUDE: f32 = 80.0;

/// A second orientation is a candidate only this far from the first (degrees): closer,
/// it is the same edges and rxing reads either.
const DISTINCT_DEGREES: f32 = 3.0;

/// The likely rotations of the image's content in degrees, in (-45, 45], positive when it
/// is turned clockwise (as seen on screen), the likeliest first: the dominant edge
/// orientation and, when the background has strong edges of its own (a striped table, a
/// keyboard), the next distinct one. Empty when the image has too few edges to say.
pub fn skew_candidates(image: &GrayImage) -> Vec<f32> {
    // Pixel staircases of sharp edges bias the measure towards the axes (by about a
    // tenth of the angle); a slight blur turns them back into slopes.
    let small = gaussian_blur_f32(&fit(image, MEASURE_SIDE), BLUR_SIGMA);
    let Some(histogram) = orientation_histogram(&small) else {
        return Vec::new();
    };
    let bins = histogram.len() as isize;
    let window = BINS_PER_DEGREE as isize / 2;
    let at = |i: isize| histogram[i.rem_euclid(bins) as usize];
    // Peaks of the histogram smoothed over 1 degree (circularly), each refined by the
    // weighted mean of the bins around it.
    let smoothed: Vec<f32> = (0..bins)
        .map(|i| (-window..=window).map(|d| at(i + d)).sum())
        .collect();
    let refined = |peak: isize| {
        let (mut weight, mut moment) = (0f32, 0f32);
        for d in -window..=window {
            weight += at(peak + d);
            moment += at(peak + d) * d as f32;
        }
        let bin = peak as f32 + if weight > 0.0 { moment / weight } else { 0.0 };
        signed((bin + 0.5) / BINS_PER_DEGREE as f32)
    };
    // A peak is the highest bin within a degree either side: the slopes of a broad peak
    // are not peaks of their own.
    let reach = BINS_PER_DEGREE as isize;
    let is_peak = |i: isize| {
        (-reach..=reach)
            .all(|d| smoothed[i as usize] >= smoothed[(i + d).rem_euclid(bins) as usize])
    };
    let highest = |exclude: Option<f32>| {
        (0..bins)
            .filter(|&i| {
                is_peak(i)
                    && exclude.is_none_or(|e| {
                        signed(i as f32 / BINS_PER_DEGREE as f32 - e).abs() >= DISTINCT_DEGREES
                    })
            })
            .max_by(|&a, &b| smoothed[a as usize].total_cmp(&smoothed[b as usize]))
    };
    let Some(first) = highest(None) else {
        return Vec::new();
    };
    let first_degrees = refined(first);
    let mut candidates = vec![first_degrees];
    if let Some(second) = highest(Some(first_degrees)).filter(|&i| smoothed[i as usize] > 0.0) {
        candidates.push(refined(second));
    }
    candidates
}

/// An orientation modulo 90 degrees as an angle in (-45, 45].
fn signed(degrees: f32) -> f32 {
    let degrees = degrees.rem_euclid(90.0);
    if degrees > 45.0 {
        degrees - 90.0
    } else {
        degrees
    }
}

/// The edges of `image` by orientation modulo 90 degrees, weighted by their strength;
/// `None` when it has none.
fn orientation_histogram(image: &GrayImage) -> Option<Vec<f32>> {
    let gx = horizontal_sobel(image);
    let gy = vertical_sobel(image);
    let bins = 90 * BINS_PER_DEGREE;
    let mut histogram = vec![0f32; bins];
    let mut total = 0f32;
    for (x, y, dx) in gx.enumerate_pixels() {
        let (dx, dy) = (f32::from(dx.0[0]), f32::from(gy.get_pixel(x, y).0[0]));
        let magnitude = dx.hypot(dy);
        if magnitude < MIN_MAGNITUDE {
            continue;
        }
        // The orientation of the edge modulo 90 degrees: a bar's left and right sides,
        // its top and bottom, all vote for the same bin.
        let degrees = dy.atan2(dx).to_degrees().rem_euclid(90.0);
        let bin = (degrees * BINS_PER_DEGREE as f32) as usize % bins;
        histogram[bin] += magnitude;
        total += magnitude;
    }
    (total > 0.0).then_some(histogram)
}

/// `image` scaled so that its long side is at most `side` pixels.
pub fn fit(image: &GrayImage, side: u32) -> GrayImage {
    let long = image.width().max(image.height());
    if long <= side {
        return image.clone();
    }
    let scale = side as f32 / long as f32;
    let (w, h) = (
        ((image.width() as f32 * scale).round() as u32).max(1),
        ((image.height() as f32 * scale).round() as u32).max(1),
    );
    imageops::resize(image, w, h, imageops::FilterType::Triangle)
}

#[cfg(test)]
mod tests {
    use image::DynamicImage;
    use imageproc::geometric_transformations::{Interpolation, rotate_about_center};

    use super::*;
    use crate::deskew::turned_back;
    use image::Luma;

    fn back() -> GrayImage {
        DynamicImage::ImageRgb8(fixtures::licence::Licence::sample().back()).into_luma8()
    }

    #[test]
    fn the_likeliest_skew_is_the_turn_of_the_card_modulo_a_right_angle() {
        let back = back();
        // Within half a degree: rxing reads up to about 3.
        for degrees in [0.0f32, 3.0, -6.0, 12.0, 33.0, 45.0] {
            let measured = skew_candidates(&turned_back(&back, -degrees));
            let first = measured.first().copied().unwrap_or(f32::NAN);
            assert!(
                signed(first - degrees).abs() < 0.5,
                "{degrees}: {measured:?}"
            );
        }
        let turned = rotate_about_center(
            &back,
            93f32.to_radians(),
            Interpolation::Bilinear,
            Luma([255]),
        );
        let measured = skew_candidates(&turned);
        assert!((measured[0] - 3.0).abs() < 0.5, "{measured:?}");
        assert_eq!(
            skew_candidates(&GrayImage::from_pixel(50, 50, Luma([128]))),
            Vec::<f32>::new()
        );
    }

    #[test]
    fn strong_edges_around_the_card_leave_its_turn_a_candidate() {
        // The card turned by 10 degrees on a table striped at 35 degrees.
        let mut photo = GrayImage::from_fn(1800, 1400, |x, y| {
            let along = x as f32 * 35f32.to_radians().cos() + y as f32 * 35f32.to_radians().sin();
            Luma([if ((along / 12.0) as u32).is_multiple_of(2) {
                40
            } else {
                200
            }])
        });
        let card = turned_back(&back(), -10.0);
        imageops::replace(&mut photo, &card, 200, 200);
        let measured = skew_candidates(&photo);
        assert_eq!(measured.len(), 2, "{measured:?}");
        assert!(
            measured.iter().any(|d| (d - 10.0).abs() < 0.5),
            "{measured:?}"
        );
        assert!(
            measured.iter().any(|d| (d - 35.0).abs() < 0.5),
            "{measured:?}"
        );
    }

    #[test]
    fn fitting_bounds_the_long_side_and_keeps_the_shape() {
        let image = GrayImage::new(4000, 3000);
        assert_eq!(fit(&image, 1800).dimensions(), (1800, 1350));
        assert_eq!(fit(&image, 5000).dimensions(), (4000, 3000));
    }
}
