//! Finding a PDF417 before decoding it. rxing's detector reads a barcode only when its
//! rows run within about 3 degrees of the image's rows and its modules are 2 pixels or
//! more; a phone's photo gives neither (the card turned, tilted, a third of the frame).
//! So the photo is looked at levelled by each likely turn of its content, the barcode
//! found there by its texture (rows of pixels that cross many bars, block after block),
//! and its four corners taken from its outermost dark pixels, which follow the card's
//! tilt as well as its turn. The reader then cuts the barcode out of the photo at full
//! resolution with one perspective warp, upright and large enough to read.

use image::{GrayImage, Luma};
use imageproc::geometric_transformations::Interpolation;
use imageproc::region_labelling::{Connectivity, connected_components};

use super::deskew::fit;
use crate::deskew::{darker_than_around, turn_back};

/// The long side the barcode is looked for at: its modules still 1 pixel or more when a
/// card spans a third of the photo.
const LOCATE_SIDE: u32 = 1600;

/// The side of the square blocks the texture is judged on.
const BLOCK: u32 = 12;

/// A pixel is dark when it is this much under the mean of its neighbourhood: flat paper
/// and a plain table, whatever their light, have no dark pixels.
const DARK_DELTA: i16 = 18;

/// The neighbourhood's radius, pixels: wider than a barcode's widest bar.
const MEAN_RADIUS: u32 = 10;

/// A block is barcode when this share of its rows cross two edges or more.
const CROSSED_ROWS: f32 = 0.75;

/// The fewest blocks of a barcode: a licence's PDF417 covers hundreds.
const MIN_BLOCKS: usize = 24;

/// The most regions tried per turn: a striped table can look like a barcode too.
const MAX_REGIONS: usize = 2;

/// A barcode's corners in the photo's pixels, in reading order: top left, top right,
/// bottom right, bottom left, with its bars running from the top edge to the bottom.
pub type Quad = [(f32, f32); 4];

/// The likely barcodes in `image`, its content levelled by each of `degrees` (clockwise
/// turns, as [`super::deskew::skew_candidates`] measures them), largest first per turn.
pub fn barcodes(image: &GrayImage, degrees: &[f32]) -> Vec<Quad> {
    let small = fit(image, LOCATE_SIDE);
    let scale = image.width() as f32 / small.width().max(1) as f32;
    // Dark pixels are found once, then turned: a threshold turns as cheaply as pixels.
    let dark = darker_than_around(&small, MEAN_RADIUS, DARK_DELTA);
    let mut found = Vec::new();
    for &turn in degrees {
        let (dark, to_level) = turn_back(&dark, turn, Interpolation::Nearest, 0);
        let from_level = to_level.invert();
        for (quad, bars_across) in regions(&dark) {
            let mut corners = quad.map(|point| {
                let (x, y) = from_level * point;
                (x * scale, y * scale)
            });
            // Bars running across: the top edge is the left one.
            if bars_across {
                corners.rotate_right(1);
            }
            found.push(corners);
        }
    }
    found
}

/// The regions of `dark` textured as a barcode, each as its corners and whether its bars
/// run across (a quarter-turned barcode) rather than up and down.
fn regions(dark: &GrayImage) -> Vec<(Quad, bool)> {
    let mut out = Vec::new();
    for bars_across in [false, true] {
        let blocks = textured_blocks(dark, bars_across);
        let labels = connected_components(&blocks, Connectivity::Eight, Luma([0u8]));
        let mut sizes: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
        for label in labels.pixels().map(|p| p.0[0]).filter(|&l| l > 0) {
            *sizes.entry(label).or_default() += 1;
        }
        let mut sizes: Vec<(u32, usize)> = sizes
            .into_iter()
            .filter(|&(_, n)| n >= MIN_BLOCKS)
            .collect();
        sizes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        for (label, _) in sizes.into_iter().take(MAX_REGIONS) {
            if let Some(quad) = corners(dark, &labels, label) {
                out.push((quad, bars_across));
            }
        }
    }
    out
}

/// One pixel per block of `dark`: 255 where most of its rows (or columns, when the bars
/// run across) cross two edges or more.
fn textured_blocks(dark: &GrayImage, bars_across: bool) -> GrayImage {
    let (bw, bh) = (dark.width() / BLOCK, dark.height() / BLOCK);
    GrayImage::from_fn(bw, bh, |bx, by| {
        let crossed = (0..BLOCK)
            .filter(|&line| {
                let mut edges = 0;
                let mut last = None;
                for step in 0..BLOCK {
                    let (x, y) = if bars_across {
                        (bx * BLOCK + line, by * BLOCK + step)
                    } else {
                        (bx * BLOCK + step, by * BLOCK + line)
                    };
                    let value = dark.get_pixel(x, y).0[0];
                    if last.is_some_and(|l| l != value) {
                        edges += 1;
                    }
                    last = Some(value);
                }
                edges >= 2
            })
            .count();
        Luma([if crossed as f32 >= CROSSED_ROWS * BLOCK as f32 {
            255
        } else {
            0
        }])
    })
}

/// The corners of the dark pixels in the blocks labelled `label`: the outermost along
/// each diagonal, which are a barcode's corners however its card is tilted.
fn corners(
    dark: &GrayImage,
    labels: &image::ImageBuffer<Luma<u32>, Vec<u32>>,
    label: u32,
) -> Option<Quad> {
    let mut best = [(f32::MAX, (0.0, 0.0)); 4];
    for (bx, by, l) in labels.enumerate_pixels() {
        if l.0[0] != label {
            continue;
        }
        for y in by * BLOCK..(by + 1) * BLOCK {
            for x in bx * BLOCK..(bx + 1) * BLOCK {
                if dark.get_pixel(x, y).0[0] == 0 {
                    continue;
                }
                let (fx, fy) = (x as f32, y as f32);
                // Top left, top right, bottom right, bottom left: the least of each.
                let keys = [fx + fy, fy - fx, -fx - fy, fx - fy];
                for (slot, key) in best.iter_mut().zip(keys) {
                    if key < slot.0 {
                        *slot = (key, (fx, fy));
                    }
                }
            }
        }
    }
    (best[0].0 < f32::MAX).then(|| best.map(|(_, point)| point))
}

#[cfg(test)]
mod tests {
    use image::DynamicImage;

    use super::*;
    use crate::deskew::turned_back;

    fn back() -> GrayImage {
        DynamicImage::ImageRgb8(fixtures::licence::Licence::sample().back()).into_luma8()
    }

    #[test]
    fn the_barcode_of_a_turned_card_is_found_where_it_is() {
        // The sample's barcode: 24 px of quiet zone, then the code, bottom centred.
        let card = back();
        let straight = barcodes(&card, &[0.0]);
        let first = straight.first().expect("a barcode");
        let (left, top) = first[0];
        let (right, bottom) = first[2];
        assert!(right - left > 800.0, "{first:?}");
        assert!(bottom - top > 150.0 && bottom > 600.0, "{first:?}");
        // Turned 20 degrees: the corners turn with it, the top edge rising to the right.
        let turned = turned_back(&card, -20.0);
        let found = barcodes(&turned, &[20.0]);
        let quad = found.first().expect("a barcode");
        let rise = (quad[1].1 - quad[0].1) / (quad[1].0 - quad[0].0);
        assert!((rise.atan().to_degrees() - 20.0).abs() < 2.0, "{quad:?}");
    }

    #[test]
    fn a_plain_page_has_no_barcode() {
        let page = GrayImage::from_pixel(1200, 800, Luma([230]));
        assert!(barcodes(&page, &[0.0, 10.0]).is_empty());
    }
}
