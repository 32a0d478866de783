//! Image analysis for the verification checks (contract §13), behind
//! [`domain::ports::ImageAnalysis`].

pub mod decode;
pub mod mrz;
pub mod ocr;
pub mod quality;
