//! Uploaded bytes to pixels, within the pixel budget: the header is read first and an
//! image declaring more than [`MAX_IMAGE_PIXELS`] is refused before anything of its size
//! is allocated (a 900 KB PNG can declare 900 megapixels).

use std::io::Cursor;

use domain::document::MAX_IMAGE_PIXELS;
use image::imageops::{self, FilterType};
use image::metadata::Orientation;
use image::{
    DynamicImage, GrayImage, ImageBuffer, ImageDecoder, ImageFormat, ImageReader, Limits, Pixel,
    RgbImage,
};

/// The long side the analysis works at: larger photos are scaled down to it, which
/// keeps a 50-megapixel upload to a few megabytes of work while an MRZ's characters
/// stay over 30 pixels tall.
pub const ANALYSIS_LONG_SIDE: u32 = 2400;

/// The long side kept for reading a barcode: a licence across a third of a 12-megapixel
/// photo keeps its modules over 2 pixels, which [`ANALYSIS_LONG_SIDE`] would halve.
pub const FINE_LONG_SIDE: u32 = 4096;

/// A decoded image, in grey levels (every analysis works on luminance), turned upright
/// as its EXIF orientation says.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The width as uploaded.
    pub width: u32,
    /// The height as uploaded.
    pub height: u32,
    /// The pixels, scaled down to at most [`ANALYSIS_LONG_SIDE`] on the long side.
    pub gray: GrayImage,
    /// The pixels at up to [`FINE_LONG_SIDE`], when the image is larger than `gray`.
    pub fine: Option<GrayImage>,
    /// The colours, scaled down to the long side asked for, when asked for: a face
    /// matcher describes faces in colour, every other analysis works on `gray`.
    pub colour: Option<RgbImage>,
}

/// The image in `bytes` (JPEG or PNG), or `None` when it is anything else, is damaged, or
/// declares more than [`MAX_IMAGE_PIXELS`].
pub fn decode(bytes: &[u8]) -> Option<Decoded> {
    decode_with_colour(bytes, None)
}

/// The same, keeping its colours too at most `colour_long_side` on the long side, when
/// given.
pub fn decode_with_colour(bytes: &[u8], colour_long_side: Option<u32>) -> Option<Decoded> {
    decode_as(
        bytes,
        colour_long_side,
        &[ImageFormat::Jpeg, ImageFormat::Png],
    )
}

/// A page rendered from a PDF ([`crate::pdf`]): a binary PGM, which poppler writes
/// forty times faster than a PNG; decoded as an upload is, colours kept likewise.
pub fn decode_rendered(bytes: &[u8], colour_long_side: Option<u32>) -> Option<Decoded> {
    decode_as(bytes, colour_long_side, &[ImageFormat::Pnm])
}

/// The image in `bytes` when it is in one of `formats`, within the pixel budget.
fn decode_as(
    bytes: &[u8],
    colour_long_side: Option<u32>,
    formats: &[ImageFormat],
) -> Option<Decoded> {
    let reader = || {
        ImageReader::new(Cursor::new(bytes))
            .with_guessed_format()
            .ok()
    };
    let format = reader()?.format()?;
    if !formats.contains(&format) {
        return None;
    }
    let (width, height) = reader()?.into_dimensions().ok()?;
    let pixels = u64::from(width) * u64::from(height);
    if pixels == 0 || pixels > MAX_IMAGE_PIXELS {
        return None;
    }
    let mut limits = Limits::default();
    limits.max_image_width = Some(width);
    limits.max_image_height = Some(height);
    // Four bytes a pixel (RGBA, the widest these formats decode to at 8 bits) and
    // room for the decoder's own buffers; 16-bit PNGs are refused past the budget.
    limits.max_alloc = Some(pixels * 4 + (64 << 20));
    let mut reader = reader()?;
    reader.limits(limits);
    let mut decoder = reader.into_decoder().ok()?;
    // Phones store a photo as the sensor saw it and say in its EXIF how to turn it.
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut decoded = DynamicImage::from_decoder(decoder).ok()?;
    decoded.apply_orientation(orientation);
    let colour = colour_long_side.map(|side| shrink(decoded.to_rgb8(), side));
    let full = shrink(decoded.into_luma8(), FINE_LONG_SIDE);
    let (gray, fine) = if full.width().max(full.height()) > ANALYSIS_LONG_SIDE {
        (scaled(&full, ANALYSIS_LONG_SIDE), Some(full))
    } else {
        (full, None)
    };
    Some(Decoded {
        width,
        height,
        gray,
        fine,
        colour,
    })
}

impl Decoded {
    /// The finest pixels kept: [`Decoded::fine`] when there are any, else `gray`.
    pub fn finest(&self) -> &GrayImage {
        self.fine.as_ref().unwrap_or(&self.gray)
    }
}

/// `image` scaled so that its long side is at most `long_side`.
pub fn shrink<P: Pixel + 'static>(
    image: ImageBuffer<P, Vec<P::Subpixel>>,
    long_side: u32,
) -> ImageBuffer<P, Vec<P::Subpixel>> {
    if image.width().max(image.height()) <= long_side {
        return image;
    }
    scaled(&image, long_side)
}

/// A copy of `image` scaled so that its long side is `long_side`.
fn scaled<P: Pixel + 'static>(
    image: &ImageBuffer<P, Vec<P::Subpixel>>,
    long_side: u32,
) -> ImageBuffer<P, Vec<P::Subpixel>> {
    let (width, height) = image.dimensions();
    let longest = width.max(height);
    let scale =
        |side: u32| ((u64::from(side) * u64::from(long_side) / u64::from(longest)) as u32).max(1);
    imageops::resize(image, scale(width), scale(height), FilterType::Triangle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fixtures::degrade;
    use image::{Rgb, RgbImage};

    #[test]
    fn jpeg_and_png_decode_and_large_ones_are_scaled_down() {
        let img = RgbImage::from_pixel(3000, 1000, Rgb([200, 200, 200]));
        for bytes in [degrade::png(&img), degrade::jpeg(&img, 80)] {
            let decoded = decode(&bytes).expect("decodes");
            assert_eq!((decoded.width, decoded.height), (3000, 1000));
            assert_eq!(decoded.gray.dimensions(), (2400, 800));
            assert_eq!(decoded.finest().dimensions(), (3000, 1000));
        }
    }

    #[test]
    fn a_bomb_a_pdf_and_garbage_are_refused() {
        assert!(decode(&degrade::png_bomb()).is_none());
        assert!(decode(b"%PDF-1.7\n1 0 obj << >> endobj\n%%EOF").is_none());
        assert!(decode(b"\x89PNG\r\n\x1a\nnot really").is_none());
        assert!(decode(&[0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).is_none());
        assert!(decode(&[]).is_none());
    }
}
