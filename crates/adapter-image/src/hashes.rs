//! Perceptual hashes (contract §20, `photo_reuse`): a few bits apart when a picture is
//! re-saved, resized, re-compressed or cropped by a few percent, and about a third of
//! them or more between two pictures (measured: `examples/photo_hashes.rs`,
//! `docs/verification.md`).
//!
//! Two hashes per image. The whole picture's is `image_hasher`'s pHash (the picture scaled
//! down, a DCT, each of 64 bits whether a coefficient is over their mean). The largest
//! face's is taken on a square around it, the same on an ID's portrait and on a photo of
//! that portrait sent as a selfie; there the detector's box moves and grows by a tenth
//! from one picture to the other, which a pHash of the square does not survive (19 bits
//! apart, as far as two people) and a double gradient hash (40 bits: whether each cell is
//! lighter than its neighbour across and down) does (5 to 7 bits, 11 and more between
//! two photos).

use domain::verification::PhotoHashes;
use image::{GrayImage, imageops};
use image_hasher::{HashAlg, HasherConfig};

use crate::faces::Face;

/// The square a face's picture is hashed on: its box's centre, and this share of its
/// width added on each side of it (some of the head and the hair, steadier than the
/// features alone). Chosen among 0.1 to 0.4 on the measurement above.
const PORTRAIT_MARGIN: f64 = 0.4;

/// The hashes of `gray`, whose largest face (if any) is `face`.
pub fn of(gray: &GrayImage, face: Option<Face>) -> PhotoHashes {
    let picture = HasherConfig::new()
        .hash_size(8, 8)
        .preproc_dct()
        .hash_alg(HashAlg::Mean);
    let portrait = HasherConfig::new()
        .hash_size(8, 8)
        .hash_alg(HashAlg::DoubleGradient);
    PhotoHashes {
        picture: hash(gray, picture),
        portrait: face.and_then(|face| hash(&square(gray, face), portrait)),
    }
}

/// `gray`'s hash under `config`, its bits (64 at most) in a number; `None` for an empty
/// image.
fn hash(gray: &GrayImage, config: HasherConfig) -> Option<u64> {
    if gray.width() == 0 || gray.height() == 0 {
        return None;
    }
    let hash = config.to_hasher().hash_image(gray);
    let bytes = hash.as_bytes();
    let mut bits = [0u8; 8];
    bits.get_mut(..bytes.len())?.copy_from_slice(bytes);
    Some(u64::from_be_bytes(bits))
}

/// The square around the face, within the image.
fn square(gray: &GrayImage, face: Face) -> GrayImage {
    let half = f64::from(face.width) * (0.5 + PORTRAIT_MARGIN);
    let centre_x = f64::from(face.x) + f64::from(face.width) / 2.0;
    let centre_y = f64::from(face.y) + f64::from(face.height) / 2.0;
    let x = (centre_x - half).max(0.0) as u32;
    let y = (centre_y - half).max(0.0) as u32;
    let side = (2.0 * half) as u32;
    let width = side.min(gray.width().saturating_sub(x));
    let height = side.min(gray.height().saturating_sub(y));
    imageops::crop_imm(gray, x, y, width, height).to_image()
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::imageops::FilterType;
    use image::{ImageFormat, Luma};

    /// A picture with some structure: gradients and a few blocks.
    fn picture(seed: u32) -> GrayImage {
        GrayImage::from_fn(640, 480, |x, y| {
            let v = (x * (3 + seed) + y * (5 + 2 * seed)) / 7
                + if (x / (60 + seed * 10) + y / 80).is_multiple_of(2) {
                    90
                } else {
                    0
                };
            Luma([(v % 256) as u8])
        })
    }

    fn recompressed(gray: &GrayImage, quality: u8) -> GrayImage {
        let mut bytes = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
            .encode_image(gray)
            .expect("encoded");
        image::load_from_memory_with_format(&bytes, ImageFormat::Jpeg)
            .expect("decoded")
            .to_luma8()
    }

    fn bits_apart(a: &GrayImage, b: &GrayImage) -> u32 {
        let (a, b) = (of(a, None).picture, of(b, None).picture);
        (a.expect("hashed") ^ b.expect("hashed")).count_ones()
    }

    #[test]
    fn a_copy_resized_recompressed_or_cropped_a_little_stays_close_and_another_does_not() {
        let original = picture(1);
        let resized = imageops::resize(&original, 320, 240, FilterType::Triangle);
        let cropped = imageops::crop_imm(&original, 12, 9, 616, 462).to_image();
        for (what, copy) in [
            ("resized", resized),
            ("recompressed", recompressed(&original, 60)),
            ("cropped 2 %", cropped),
        ] {
            let apart = bits_apart(&original, &copy);
            assert!(
                apart <= domain::signals::SAME_PICTURE_BITS,
                "{what}: {apart} bits"
            );
        }
        let other = bits_apart(&original, &picture(4));
        assert!(other > domain::signals::SAME_PICTURE_BITS, "{other} bits");
    }

    #[test]
    fn a_face_is_hashed_on_a_square_around_it_within_the_image() {
        let gray = picture(2);
        let face = Face {
            x: 600,
            y: 5,
            width: 100,
            height: 100,
        };
        // Centred on (650, 55), 90 on each side: cut at the right edge, moved down from
        // the top one.
        let cut = square(&gray, face);
        assert_eq!(cut.dimensions(), (80, 180), "within the image");
        let hashes = of(&gray, Some(face));
        assert!(hashes.portrait.is_some() && hashes.picture.is_some());
        assert_eq!(of(&gray, None).portrait, None);
        assert_eq!(of(&GrayImage::new(0, 0), None).picture, None);
    }
}
