//! An image analysis in memory, that answers what it was told to.

use std::sync::Mutex;

use async_trait::async_trait;

use crate::merchant::MerchantId;
use crate::ports::{ImageAnalysis, ImageRoom};
use crate::verification::{
    BarcodeReading, FaceDescriptor, ImageReport, MrzReading, TextReading, Wanted,
};

/// An image analysis that answers what it was told to for given bytes, and finds a
/// clean image with nothing in it otherwise (and no face matcher: script a
/// [`FaceDescriptor`] to match faces).
#[derive(Debug, Default)]
pub struct ScriptedImages(Mutex<Vec<(Vec<u8>, ImageReport)>>);

impl ScriptedImages {
    /// `image` will be reported as `report`.
    pub fn answer(&self, image: &[u8], report: ImageReport) {
        self.0.lock().expect("lock").push((image.to_vec(), report));
    }
}

#[async_trait]
impl ImageAnalysis for ScriptedImages {
    async fn room(&self, _: &MerchantId) -> ImageRoom {
        ImageRoom::new(())
    }

    async fn room_within(&self, _: &MerchantId, _: std::time::Duration) -> Option<ImageRoom> {
        Some(ImageRoom::new(()))
    }

    async fn examine(&self, _room: ImageRoom, image: Vec<u8>, wanted: Wanted) -> ImageReport {
        let scripted = self.0.lock().expect("lock");
        match scripted.iter().find(|(bytes, _)| *bytes == image) {
            Some((_, report)) => report.clone(),
            None => ImageReport {
                quality: Vec::new(),
                barcode: wanted.barcode.then_some(BarcodeReading::NotFound),
                mrz: wanted.mrz.then_some(MrzReading::NotFound),
                faces: wanted.faces.then_some(0),
                descriptor: wanted.faces.then_some(FaceDescriptor::Unavailable),
                text: wanted.text.then_some(TextReading::Unreadable),
                hashes: None,
            },
        }
    }
}
