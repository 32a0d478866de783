//! One attempt of rxing's PDF417 reader on a grey image.

use std::collections::HashSet;

use image::GrayImage;
use rxing::common::HybridBinarizer;
use rxing::pdf417::PDF417Reader;
use rxing::{BarcodeFormat, BinaryBitmap, DecodeHints, Luma8Source, Reader};

/// The text of the first PDF417 found in `image` (the reader also tries it turned by 90,
/// 180 and 270 degrees), or `None`.
pub fn decode(image: &GrayImage) -> Option<String> {
    let source = Luma8Source::new_with_slice(image.as_raw(), image.width(), image.height()).ok()?;
    let mut bitmap = BinaryBitmap::new(HybridBinarizer::new(source));
    let hints = DecodeHints {
        TryHarder: Some(true),
        PossibleFormats: Some(HashSet::from([BarcodeFormat::PDF_417])),
        ..DecodeHints::default()
    };
    let result = PDF417Reader.decode_with_hints(&mut bitmap, &hints).ok()?;
    Some(result.getText().to_owned())
}
