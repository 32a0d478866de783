//! What the image analysis found in one image (contract §13): whether it is usable, what
//! its barcode or machine-readable zone says, how many faces it shows. The analysis
//! itself (decoding, barcodes, OCR, faces) lives behind [`crate::ports::ImageAnalysis`];
//! these are the values it answers with, and the checks judge them.

use serde::{Deserialize, Serialize};
use strum::{EnumString, IntoStaticStr, VariantArray};
use time::Date;

use super::check::Reason;

/// Where a reading came from.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    VariantArray,
    IntoStaticStr,
    EnumString,
)]
#[strum(serialize_all = "snake_case")]
pub enum ReadSource {
    /// The PDF417 barcode of the AAMVA card design standard (US and Canadian licences and
    /// ID cards).
    Barcode,
    /// The ICAO 9303 machine-readable zone (passports, ID cards, residence permits).
    Mrz,
    /// The text of a proof of address: a PDF's own, or what OCR read (contract §18).
    Text,
}

impl ReadSource {
    /// Its name in the API.
    pub fn as_str(&self) -> &'static str {
        self.into()
    }

    /// The source of this name.
    pub fn parse(name: &str) -> Option<Self> {
        name.parse().ok()
    }
}

/// The ages a US licence marks (AAMVA `DDH`, `DDI`, `DDJ`: the day the holder stops being
/// under 18, 19 and 21), which must each be the birth date plus that many years.
pub const MARKED_AGES: [u8; 3] = [18, 19, 21];

/// What was read from a document: personal data, sealed at rest, shown only through the
/// signed API and the dashboard. Every field is what the document says, as read: absent
/// when the document does not say it or it could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentRead {
    /// The barcode or the MRZ.
    pub source: Option<ReadSource>,
    /// `licence`, `id_card`, `residence_permit` or `passport`; `utility_bill` or
    /// `bank_statement` for a proof of address.
    pub document_type: Option<String>,
    /// Who issued it: a licence's jurisdiction (`CA`, `ON`) or an MRZ's issuing state
    /// (`USA`, `UTO`).
    pub issuer: Option<String>,
    /// Given name (the first one).
    pub first_name: Option<String>,
    /// Other given names.
    pub middle_name: Option<String>,
    /// Family name.
    pub last_name: Option<String>,
    /// Date of birth.
    pub date_of_birth: Option<Date>,
    /// The licence or passport number.
    pub document_number: Option<String>,
    /// Issue date.
    pub issued_on: Option<Date>,
    /// Expiry date.
    pub expires_on: Option<Date>,
    /// `M`, `F` or `X`.
    pub sex: Option<String>,
    /// Street address.
    pub address_line_1: Option<String>,
    /// City.
    pub city: Option<String>,
    /// State or province code.
    pub state: Option<String>,
    /// Postal or zip code.
    pub postal: Option<String>,
    /// Country (ISO 3166-1 alpha-2 or alpha-3, as the document says it).
    pub country: Option<String>,
    /// The days a licence says the holder turns each of [`MARKED_AGES`] (absent where it
    /// does not say).
    pub marked_ages: Vec<(u8, Date)>,
}

/// Why an image is not usable (the `document_quality` reasons), in report order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, VariantArray,
)]
pub enum QualityIssue {
    /// Its short side is under 600 pixels.
    TooSmall,
    /// It is blurred.
    Blurry,
    /// It is too dark.
    TooDark,
    /// It has glare.
    TooBright,
    /// It cannot be decoded, or declares more pixels than may be decoded.
    Unreadable,
}

impl QualityIssue {
    /// Every issue, in report order.
    pub const ALL: &'static [QualityIssue] = <Self as VariantArray>::VARIANTS;

    /// The reason a failed `document_quality` gives for it.
    pub fn reason(&self) -> Reason {
        match self {
            Self::TooSmall => Reason::ImageTooSmall,
            Self::Blurry => Reason::ImageBlurry,
            Self::TooDark => Reason::ImageTooDark,
            Self::TooBright => Reason::ImageTooBright,
            Self::Unreadable => Reason::ImageUnreadable,
        }
    }
}

/// The limits `document_quality` judges an image by. The server measures an upload
/// against them (the image analysis) and the quiz page's camera guide measures each
/// frame against the same figures before it takes the shot, so a shot the guide took is
/// not refused for the same reason once uploaded.
pub mod quality_limits {
    /// The short side, as uploaded, in pixels (the contract's minimum).
    pub const MIN_SHORT_SIDE: u32 = 600;

    /// Under this sharpness (0 to 1: the share of the Laplacian's variance a gaussian
    /// blur of sigma 1 takes away, at 1000 pixels wide) an image is blurred. Measured
    /// (PNG / JPEG q70): the passport page 0.866 / 0.866, the same without portrait
    /// 0.885, three official portraits 0.830-0.934 / 0.837-0.939; blurred with a
    /// gaussian of sigma 1: page 0.706, portraits 0.383-0.554; sigma 2: page 0.483 /
    /// 0.503, page without portrait 0.653 / 0.664, portraits 0.266-0.387 / 0.439-0.537;
    /// sigma 3: page 0.323 / 0.378, without portrait 0.528 / 0.560, portraits
    /// 0.326-0.440 / 0.496-0.608.
    pub const MIN_SHARPNESS: f64 = 0.72;

    /// Under this brightness (the grey level 95 % of the pixels are under, 0-255) an
    /// image is too dark. Measured: the passport page 241, with its zone only 241,
    /// portraits on dark backgrounds 191-211, two portraits side by side 236; the page
    /// darkened to 30 %: 72 (to 45 %: 108).
    pub const MIN_BRIGHTNESS: f64 = 110.0;

    /// Above this share of the image covered by one saturated blob that does not touch
    /// the border and survives an opening (what is too thin to be glare, such as a
    /// barcode's quiet zone, removed), there is glare. Measured: the passport page 0, the
    /// three portraits 0, 0 and 0.36 % (a white shirt collar), the page rotated 5 degrees
    /// on white 0 (its white corners touch the border), a licence back whose PDF417 sits
    /// on a white panel 0 (6.5 % before the opening), the fixture's glare disc 2.93 % at
    /// every scale from 0.5 to 2.
    pub const MAX_GLARE_SHARE: f64 = 0.01;
}

/// What the image analysis measured of an image; `document_quality`'s issues are decided
/// from it here, against [`quality_limits`], so the rule lives in one place whatever
/// measured it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QualityMeasures {
    /// The short side, as uploaded, in pixels.
    pub short_side: u32,
    /// Sharpness, 0 to 1 (see [`quality_limits::MIN_SHARPNESS`]).
    pub sharpness: f64,
    /// Brightness, 0 to 255 (see [`quality_limits::MIN_BRIGHTNESS`]).
    pub brightness: f64,
    /// The share of the image one glare blob covers, 0 to 1.
    pub glare_share: f64,
    /// Whether the image's barcode or zone was read: what the reader read, a person
    /// could too, so such a photo is never called blurry.
    pub read: bool,
}

impl QualityMeasures {
    /// The issues, in report order; empty when the image is usable.
    pub fn issues(&self) -> Vec<QualityIssue> {
        use quality_limits::{MAX_GLARE_SHARE, MIN_BRIGHTNESS, MIN_SHARPNESS, MIN_SHORT_SIDE};
        [
            (self.short_side < MIN_SHORT_SIDE, QualityIssue::TooSmall),
            (
                self.sharpness < MIN_SHARPNESS && !self.read,
                QualityIssue::Blurry,
            ),
            (self.brightness < MIN_BRIGHTNESS, QualityIssue::TooDark),
            (self.glare_share > MAX_GLARE_SHARE, QualityIssue::TooBright),
        ]
        .into_iter()
        .filter_map(|(found, issue)| found.then_some(issue))
        .collect()
    }
}

/// What a licence's barcode gave.
// One reading per image, moved once: boxing the read would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum BarcodeReading {
    /// No PDF417 barcode was found.
    NotFound,
    /// A PDF417 was found but holds no AAMVA record.
    Invalid,
    /// The record, parsed.
    Read(DocumentRead),
}

/// What a passport's machine-readable zone gave.
// One reading per image, moved once: boxing the read would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MrzReading {
    /// No zone was found.
    NotFound,
    /// A zone was read but a check digit does not hold.
    CheckDigitInvalid,
    /// This machine has no OCR to read it with.
    OcrUnavailable,
    /// The zone, its check digits holding.
    Read(DocumentRead),
}

/// What reading a proof of address's text gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TextReading {
    /// No text: an image that cannot be decoded, a PDF refused (encrypted, too many
    /// pages, malformed), or nothing found on it.
    Unreadable,
    /// An image, or a PDF without text of its own, and no OCR here to read it with.
    OcrUnavailable,
    /// The text, as read.
    Read(DocumentText),
}

/// The text of one file of a proof of address: personal data, never logged.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentText {
    /// Its lines as read (a PDF's laid out as on the page, columns apart).
    pub text: String,
    /// The signs that a PDF was edited after it was made (none for an image).
    pub edits: Vec<PdfEdit>,
}

/// A sign that a PDF was edited after it was made (`poa_pdf_modified`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum PdfEdit {
    /// Its producer or creator is a known PDF editor.
    EditorSoftware,
    /// It was saved again after it was made: incremental updates appended to it.
    IncrementalUpdate,
    /// Its modification date is after its creation date.
    ModifiedAfterCreation,
    /// Text annotations lie over its content.
    TextAnnotation,
}

/// What to look for in an image besides its quality, which is always judged.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wanted {
    /// A licence's PDF417.
    pub barcode: bool,
    /// A machine-readable zone.
    pub mrz: bool,
    /// Faces.
    pub faces: bool,
    /// The document's text (a proof of address).
    pub text: bool,
}

/// The face an image shows, described for matching (`face_match`): how the analysis
/// answers for an image whose faces were [`Wanted`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FaceDescriptor {
    /// This build, or this machine (its models missing), cannot describe faces.
    Unavailable,
    /// The matcher found no face to describe.
    NotFound,
    /// The largest face found, as the matcher's values (dlib's ResNet encoder: 128 of
    /// them); two faces are the same person when they are close (see
    /// [`super::face_match`]).
    Found(Vec<f32>),
}

/// An image's perceptual hashes (64 bits each): two images whose hashes differ by a few
/// bits are one picture, re-saved, resized or re-compressed (contract §20).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhotoHashes {
    /// The whole image's.
    pub picture: Option<u64>,
    /// Its largest face's own picture's (the face cut out, a margin around it): the
    /// same on a card's portrait and on a photo of that portrait.
    pub portrait: Option<u64>,
}

/// What the analysis found in one image; what was not [`Wanted`] is `None`.
// Not `Eq`: a face descriptor is made of floats.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ImageReport {
    /// Why it is not usable; empty when it is.
    pub quality: Vec<QualityIssue>,
    /// The barcode, when wanted.
    pub barcode: Option<BarcodeReading>,
    /// The machine-readable zone, when wanted.
    pub mrz: Option<MrzReading>,
    /// How many faces it shows, when wanted.
    pub faces: Option<usize>,
    /// Its largest face described for matching, when faces were wanted; `None` there
    /// counts as [`FaceDescriptor::Unavailable`].
    pub descriptor: Option<FaceDescriptor>,
    /// Its text, when wanted.
    #[serde(default)]
    pub text: Option<TextReading>,
    /// Its perceptual hashes, when a barcode, a zone or faces were wanted (an ID image
    /// or a selfie, for `photo_reuse`).
    #[serde(default)]
    pub hashes: Option<PhotoHashes>,
}

impl ImageReport {
    /// The report on an image that could not be decoded: unusable, nothing found in it.
    pub fn unreadable(wanted: Wanted) -> Self {
        Self {
            quality: vec![QualityIssue::Unreadable],
            barcode: wanted.barcode.then_some(BarcodeReading::NotFound),
            mrz: wanted.mrz.then_some(MrzReading::NotFound),
            faces: wanted.faces.then_some(0),
            descriptor: wanted.faces.then_some(FaceDescriptor::NotFound),
            text: wanted.text.then_some(TextReading::Unreadable),
            hashes: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_measure_past_its_limit_is_an_issue_and_a_read_image_is_never_blurry() {
        let good = QualityMeasures {
            short_side: 1200,
            sharpness: 0.9,
            brightness: 240.0,
            glare_share: 0.0,
            read: false,
        };
        assert_eq!(good.issues(), []);
        let bad = QualityMeasures {
            short_side: 599,
            sharpness: 0.71,
            brightness: 109.0,
            glare_share: 0.02,
            read: false,
        };
        assert_eq!(
            bad.issues(),
            [
                QualityIssue::TooSmall,
                QualityIssue::Blurry,
                QualityIssue::TooDark,
                QualityIssue::TooBright
            ]
        );
        let read = QualityMeasures { read: true, ..bad };
        assert!(!read.issues().contains(&QualityIssue::Blurry));
        assert_eq!(read.issues().len(), 3, "only blur is forgiven");
    }

    #[test]
    fn sources_parse_back_and_an_unreadable_image_yields_nothing_but_its_issue() {
        for source in [ReadSource::Barcode, ReadSource::Mrz, ReadSource::Text] {
            assert_eq!(ReadSource::parse(source.as_str()), Some(source));
        }
        assert_eq!(ReadSource::parse("ocr"), None);
        let report = ImageReport::unreadable(Wanted {
            barcode: true,
            mrz: false,
            faces: true,
            text: true,
        });
        assert_eq!(report.quality, [QualityIssue::Unreadable]);
        assert_eq!(report.barcode, Some(BarcodeReading::NotFound));
        assert_eq!((report.mrz, report.faces), (None, Some(0)));
        assert_eq!(report.text, Some(TextReading::Unreadable));
        assert_eq!(report.descriptor, Some(FaceDescriptor::NotFound));
        let reasons: Vec<Reason> = QualityIssue::ALL.iter().map(QualityIssue::reason).collect();
        assert!(reasons.iter().all(Reason::is_failure));
    }
}
