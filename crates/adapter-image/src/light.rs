//! A photo's light made even before tesseract sees it. Tesseract thresholds a page with
//! one level (Otsu's), and under a soft shadow it read the lit part of a page or a zone
//! and nothing of the shaded part.

use image::{GrayImage, Luma};
use imageproc::filter::box_filter;

/// The neighbourhood a pixel is divided by: this share of the width either way, a few
/// glyphs wide at the widths text is read at (45 px across a zone at 2750 px, glyphs
/// about 55 px tall; 35 px across a bill at 2100 px, its print about 35 px tall).
const NEIGHBOURHOOD_SHARE: u32 = 60;

/// What paper at the mean of its neighbourhood becomes: the mean counts the ink around
/// it too, so paper sits a little over it.
const WHITE: f32 = 230.0;

/// `image` with its light made even: each pixel over the mean of its neighbourhood, so
/// that paper is white and ink dark under a shadow too.
pub fn evened(image: &GrayImage) -> GrayImage {
    let radius = (image.width() / NEIGHBOURHOOD_SHARE).max(3);
    let mean = box_filter(image, radius, radius);
    GrayImage::from_fn(image.width(), image.height(), |x, y| {
        let (p, m) = (
            f32::from(image.get_pixel(x, y).0[0]),
            f32::from(mean.get_pixel(x, y).0[0]).max(1.0),
        );
        Luma([(p / m * WHITE).min(255.0) as u8])
    })
}

/// The cells across and down in which [`is_uneven`] finds the paper's light.
const CELLS: u32 = 8;

/// The share of the image's width and height, either side, left out of [`is_uneven`]'s
/// cells: a page cut out of a photo keeps some table at its edges.
const EDGE_SHARE: f32 = 0.1;

/// How much darker the paper of a page's darker quarter may be than that of its lit
/// part before its light is uneven: a phone's vignetting darkens corners by a tenth or
/// so, a shadow by a third and more.
const UNEVEN_RATIO: f32 = 0.8;

/// Whether `image`'s paper is lit unevenly (a shadow over part of it): the brightest
/// pixel of each of [`CELLS`] x [`CELLS`] cells is its paper, and the darkest quarter of
/// them is well under the brightest tenth.
pub fn is_uneven(image: &GrayImage) -> bool {
    let (width, height) = image.dimensions();
    let (x0, y0) = (
        (width as f32 * EDGE_SHARE) as u32,
        (height as f32 * EDGE_SHARE) as u32,
    );
    let (inner_w, inner_h) = (width - 2 * x0, height - 2 * y0);
    if inner_w < CELLS || inner_h < CELLS {
        return false;
    }
    let mut paper = vec![0u8; (CELLS * CELLS) as usize];
    for y in y0..y0 + inner_h {
        let row = (y - y0) * CELLS / inner_h;
        for x in x0..x0 + inner_w {
            let cell = &mut paper[(row * CELLS + (x - x0) * CELLS / inner_w) as usize];
            *cell = (*cell).max(image.get_pixel(x, y).0[0]);
        }
    }
    paper.sort_unstable();
    let at = |share: f32| f32::from(paper[((paper.len() - 1) as f32 * share) as usize]);
    at(0.25) < at(0.9) * UNEVEN_RATIO
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page of dark strokes on paper whose light falls from `lit` on the left to
    /// `shaded` on the right.
    fn shadowed_page(lit: f32, shaded: f32) -> GrayImage {
        GrayImage::from_fn(600, 200, |x, y| {
            let paper = lit + (shaded - lit) * x as f32 / 599.0;
            let ink = (x / 6) % 4 == 0 && (y / 20) % 2 == 0;
            Luma([if ink { paper * 0.25 } else { paper } as u8])
        })
    }

    #[test]
    fn paper_under_a_shadow_is_as_white_as_lit_paper_and_ink_stays_dark() {
        // Lit ink (60) is as dark as shaded paper: no one level parts ink from paper.
        let page = shadowed_page(240.0, 60.0);
        let evened = evened(&page);
        let at = |x, y| evened.get_pixel(x, y).0[0];
        // Paper between lines, lit and shaded.
        assert!(at(10, 30) >= 220, "lit paper {}", at(10, 30));
        assert!(at(590, 30) >= 220, "shaded paper {}", at(590, 30));
        // Ink, lit and shaded, well under either paper.
        assert!(at(2, 5) < 120, "lit ink {}", at(2, 5));
        assert!(at(577, 5) < 120, "shaded ink {}", at(577, 5));
    }

    #[test]
    fn a_shadow_makes_a_page_uneven_and_print_alone_does_not() {
        assert!(is_uneven(&shadowed_page(240.0, 120.0)));
        assert!(!is_uneven(&shadowed_page(240.0, 230.0)));
        assert!(!is_uneven(&shadowed_page(140.0, 140.0)));
    }

    #[test]
    fn an_even_page_keeps_ink_and_paper_apart() {
        let page = shadowed_page(200.0, 200.0);
        let evened = evened(&page);
        let paper = evened.get_pixel(300, 30).0[0];
        let ink = evened.get_pixel(288, 5).0[0];
        assert!(paper >= 220 && ink < 100, "paper {paper}, ink {ink}");
    }
}
