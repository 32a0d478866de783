//! The pieces of a binary image (`imageproc`'s connected components) with their bounding
//! boxes and sizes: what the page finder of a bill and the zone's band both measure.

use std::collections::HashMap;

use image::{GrayImage, ImageBuffer, Luma};
use imageproc::region_labelling::{Connectivity, connected_components};

/// One piece: its bounding box (inclusive) and how many pixels it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    pub left: u32,
    pub top: u32,
    pub right: u32,
    pub bottom: u32,
    pub pixels: u64,
}

/// The pieces of `image` (its pixels other than 0, joined by `connectivity`): each pixel's
/// label (0 for the background), and each label's piece.
pub fn pieces(
    image: &GrayImage,
    connectivity: Connectivity,
) -> (ImageBuffer<Luma<u32>, Vec<u32>>, HashMap<u32, Piece>) {
    let labels = connected_components(image, connectivity, Luma([0u8]));
    let mut pieces: HashMap<u32, Piece> = HashMap::new();
    for (x, y, label) in labels.enumerate_pixels() {
        if label.0[0] == 0 {
            continue;
        }
        let p = pieces.entry(label.0[0]).or_insert(Piece {
            left: x,
            top: y,
            right: x,
            bottom: y,
            pixels: 0,
        });
        (p.left, p.top) = (p.left.min(x), p.top.min(y));
        (p.right, p.bottom) = (p.right.max(x), p.bottom.max(y));
        p.pixels += 1;
    }
    (labels, pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_piece_has_its_box_and_size() {
        // Two blocks apart: 2 x 3 at (1, 1) and 1 x 1 at (6, 4).
        let image = GrayImage::from_fn(8, 6, |x, y| {
            let on = ((1..3).contains(&x) && (1..4).contains(&y)) || (x, y) == (6, 4);
            Luma([if on { 255 } else { 0 }])
        });
        let (labels, pieces) = pieces(&image, Connectivity::Four);
        assert_eq!(pieces.len(), 2);
        let block = pieces[&labels.get_pixel(1, 1).0[0]];
        assert_eq!(
            block,
            Piece {
                left: 1,
                top: 1,
                right: 2,
                bottom: 3,
                pixels: 6
            }
        );
        assert_eq!(pieces[&labels.get_pixel(6, 4).0[0]].pixels, 1);
        assert_eq!(labels.get_pixel(0, 0).0[0], 0);
    }
}
