//! Image analysis for the verification checks (contract §13), behind
//! [`domain::ports::ImageAnalysis`].

pub mod aamva;
pub mod barcode;
