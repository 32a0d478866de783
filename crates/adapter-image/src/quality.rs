//! How good an image is to read: its size, sharpness, brightness and glare, measured
//! here; whether each is good enough is the domain's rule
//! (`domain::verification::quality_limits`, with the figures measured on generated
//! images: a clean passport page and its blurred, darkened, glared and shrunk versions).

use domain::verification::QualityMeasures;
use image::GrayImage;
use image::imageops::{self, FilterType};
use imageproc::distance_transform::Norm;
use imageproc::filter::{gaussian_blur_f32, laplacian_filter};
use imageproc::morphology::open;
use imageproc::region_labelling::{Connectivity, connected_components};

use crate::decode::Decoded;

/// The width sharpness is measured at, so that it does not depend on the resolution a
/// document was photographed at.
const SHARPNESS_WIDTH: u32 = 1000;

/// The width glare is looked for at.
const GLARE_WIDTH: u32 = 400;

/// The opening, in pixels at [`GLARE_WIDTH`], that removes what is too thin to be glare
/// (a licence's barcode quiet zone is about 8 pixels there; the fixture's glare disc 56).
const GLARE_OPENING: u8 = 4;

/// The grey level from which a pixel is saturated (the sensor clipped).
const SATURATED: u8 = 250;

/// What `image` measures, as an image not yet read (the caller sets `read` once its
/// barcode or zone is). The issues are the domain's to decide ([`QualityMeasures::issues`]).
pub fn measure(image: &Decoded) -> QualityMeasures {
    QualityMeasures {
        short_side: image.width.min(image.height),
        sharpness: sharpness(&image.gray),
        brightness: brightness(&image.gray),
        glare_share: glare_share(&image.gray),
        read: false,
    }
}

/// How much detail blurring takes away, 0 to 1 (the re-blur measure): on the image
/// scaled to [`SHARPNESS_WIDTH`] wide, its central region (the middle 80 % each way,
/// where the document is) with its contrast stretched (so that a dim photo is not taken
/// for a blurred one), one minus the ratio of the Laplacian's variance after and before
/// a gaussian blur of [`REBLUR_SIGMA`]. A sharp image loses most of its edges to the
/// blur; an already blurred one has little left to lose. Being a ratio, it does not
/// depend on how much of the picture is text or plain background, which the variance
/// of the Laplacian alone does by a factor of twenty. Both variances are taken over the
/// busiest tenth of [`TILES`] x [`TILES`] tiles, where the detail is.
pub fn sharpness(gray: &GrayImage) -> f64 {
    if gray.width() == 0 || gray.height() == 0 {
        return 0.0;
    }
    let centre = central_region(gray);
    let reblurred = gaussian_blur_f32(&centre, REBLUR_SIGMA);
    let (original, blurred) = (busiest_variance(&centre), busiest_variance(&reblurred));
    if original <= 0.0 {
        return 0.0;
    }
    1.0 - blurred / original
}

/// The blur [`sharpness`] measures against, in pixels at [`SHARPNESS_WIDTH`].
const REBLUR_SIGMA: f32 = 1.0;

/// The middle 80 % each way of `gray` scaled to [`SHARPNESS_WIDTH`], contrast stretched.
fn central_region(gray: &GrayImage) -> GrayImage {
    let (width, height) = gray.dimensions();
    let scaled_height =
        ((u64::from(height) * u64::from(SHARPNESS_WIDTH) / u64::from(width)) as u32).max(TILES * 4);
    let scaled = imageops::resize(gray, SHARPNESS_WIDTH, scaled_height, FilterType::Triangle);
    let (width, height) = scaled.dimensions();
    let mut centre = imageops::crop_imm(
        &scaled,
        width / 10,
        height / 10,
        width * 8 / 10,
        height * 8 / 10,
    )
    .to_image();
    stretch(&mut centre);
    centre
}

/// The mean variance of the Laplacian over the busiest tenth of the tiles.
fn busiest_variance(centre: &GrayImage) -> f64 {
    let laplacian = laplacian_filter(centre);
    let (tile_width, tile_height) = (centre.width() / TILES, centre.height() / TILES);
    let mut variances = Vec::with_capacity((TILES * TILES) as usize);
    for row in 0..TILES {
        for column in 0..TILES {
            let (mut sum, mut squares, mut count) = (0.0, 0.0, 0.0);
            for y in row * tile_height..(row + 1) * tile_height {
                for x in column * tile_width..(column + 1) * tile_width {
                    let value = f64::from(laplacian.get_pixel(x, y).0[0]);
                    (sum, squares, count) = (sum + value, squares + value * value, count + 1.0);
                }
            }
            if count > 0.0 {
                let mean = sum / count;
                variances.push(squares / count - mean * mean);
            }
        }
    }
    variances.sort_by(|a, b| b.total_cmp(a));
    let busiest = &variances[..variances.len().div_ceil(10)];
    if busiest.is_empty() {
        return 0.0;
    }
    busiest.iter().sum::<f64>() / busiest.len() as f64
}

/// How many tiles each way [`sharpness`] cuts the central region into.
const TILES: u32 = 10;

/// Spreads the grey levels between the 1st and 99th percentiles over 0-255.
fn stretch(gray: &mut GrayImage) {
    let low = percentile(gray, 0.01);
    let high = percentile(gray, 0.99);
    if high <= low {
        return;
    }
    let range = f32::from(high - low);
    for pixel in gray.pixels_mut() {
        let value = f32::from(pixel.0[0].clamp(low, high) - low);
        pixel.0[0] = (value * 255.0 / range).round() as u8;
    }
}

/// The grey level under which `share` (0 to 1) of the pixels are.
pub fn percentile(gray: &GrayImage, share: f64) -> u8 {
    let mut histogram = [0u64; 256];
    for pixel in gray.pixels() {
        histogram[usize::from(pixel.0[0])] += 1;
    }
    let wanted = (gray.len() as f64 * share) as u64;
    let mut seen = 0;
    for (level, count) in histogram.iter().enumerate() {
        seen += count;
        if seen > wanted {
            return level as u8;
        }
    }
    u8::MAX
}

/// The grey level 95 % of the pixels are under: even a dim photo of a pale document, or
/// a portrait against a dark background, has its highlights well above it; an
/// under-exposed one has none.
pub fn brightness(gray: &GrayImage) -> f64 {
    if gray.is_empty() {
        return 0.0;
    }
    f64::from(percentile(gray, 0.95))
}

/// The share of the image covered by its largest blob of saturated pixels that does not
/// touch the border and is thick: a white page or background reaching the edges is
/// paper, not glare, and a white strip printed round a barcode (its quiet zone), or
/// the gaps between its bars, are thinner than a reflection. Measured at
/// [`GLARE_WIDTH`] wide, after a morphological opening of [`GLARE_OPENING`] pixels
/// (what is thinner than twice that goes).
pub fn glare_share(gray: &GrayImage) -> f64 {
    let (width, height) = gray.dimensions();
    if width == 0 || height == 0 {
        return 0.0;
    }
    let scaled_height =
        ((u64::from(height) * u64::from(GLARE_WIDTH) / u64::from(width)) as u32).max(1);
    let small = imageops::resize(gray, GLARE_WIDTH, scaled_height, FilterType::Triangle);
    let saturated = GrayImage::from_fn(small.width(), small.height(), |x, y| {
        image::Luma([if small.get_pixel(x, y).0[0] >= SATURATED {
            255
        } else {
            0
        }])
    });
    let saturated = open(&saturated, Norm::LInf, GLARE_OPENING);
    let labels = connected_components(&saturated, Connectivity::Eight, image::Luma([0u8]));
    let (width, height) = labels.dimensions();
    let mut areas: Vec<u64> = Vec::new();
    let mut touches: Vec<bool> = Vec::new();
    for (x, y, label) in labels.enumerate_pixels() {
        let label = label.0[0] as usize;
        if label == 0 {
            continue;
        }
        if areas.len() <= label {
            areas.resize(label + 1, 0);
            touches.resize(label + 1, false);
        }
        areas[label] += 1;
        if x == 0 || y == 0 || x + 1 == width || y + 1 == height {
            touches[label] = true;
        }
    }
    let largest = areas
        .iter()
        .zip(&touches)
        .filter(|(_, touches)| !**touches)
        .map(|(area, _)| *area)
        .max()
        .unwrap_or(0);
    largest as f64 / labels.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;
    use domain::verification::QualityIssue;
    use fixtures::degrade;
    use fixtures::passport::Passport;
    use image::RgbImage;

    fn page() -> RgbImage {
        Passport::sample().page(None).expect("the OCR-B typeface")
    }

    fn judged(img: &RgbImage) -> Vec<QualityIssue> {
        measure(&decode(&degrade::jpeg(img, 85)).expect("decodes")).issues()
    }

    #[test]
    fn a_clean_page_is_usable_and_each_fault_is_named() {
        let page = page();
        assert_eq!(judged(&page), []);
        assert_eq!(judged(&degrade::rotate(&page, 5.0)), []);
        for sigma in [2.0, 3.0, 4.0] {
            assert_eq!(
                judged(&degrade::blur(&page, sigma)),
                [QualityIssue::Blurry],
                "sigma {sigma}"
            );
        }
        assert_eq!(
            judged(&degrade::darken(&page, 0.3)),
            [QualityIssue::TooDark]
        );
        assert_eq!(judged(&degrade::glare(&page)), [QualityIssue::TooBright]);
        assert_eq!(
            judged(&degrade::scale(&page, 0.5)),
            [QualityIssue::TooSmall]
        );
    }

    #[test]
    fn a_white_panel_round_a_barcode_is_not_glare() {
        // A PDF417 with a 24-pixel quiet zone on a 1200-pixel card, as the licence backs.
        let mut card = GrayImage::from_pixel(1200, 760, image::Luma([235]));
        for x in 64..1134 {
            for y in 430..720 {
                let bar = (88..1110).contains(&x) && (454..696).contains(&y) && (x / 6) % 2 == 0;
                card.put_pixel(x, y, image::Luma([if bar { 0 } else { 255 }]));
            }
        }
        assert_eq!(glare_share(&card), 0.0);
    }

    #[test]
    fn blank_and_tiny_images_do_not_break_the_measures() {
        let blank = GrayImage::from_pixel(700, 700, image::Luma([128]));
        assert_eq!(sharpness(&blank), 0.0);
        assert_eq!(
            brightness(&GrayImage::from_pixel(10, 10, image::Luma([20]))),
            20.0
        );
        assert_eq!(glare_share(&GrayImage::new(1, 1)), 0.0);
        assert_eq!(sharpness(&GrayImage::new(1, 1)), 0.0);
    }
}
