//! Faces, counted by SeetaFace's frontal detector (rustface, BSD-2 model committed in
//! `models/`), on the image scaled to [`DETECTION_LONG_SIDE`] so that detection takes a
//! fraction of a second whatever was uploaded.

use std::sync::OnceLock;

use image::GrayImage;
use rustface::{ImageData, Model};

use crate::decode::shrink;

/// The model, compiled in: 1.2 MB, read once.
const MODEL: &[u8] = include_bytes!("../models/seeta_fd_frontal_v1.0.bin");

/// The long side faces are looked for at. The detector's window is 40 px, so a face
/// under a twentieth of the long side (a passport portrait is a quarter of the page)
/// is not looked for.
pub const DETECTION_LONG_SIDE: u32 = 800;

/// The smallest score counted as a face. Measured (best detection per image): three
/// official portraits 15.9, 28.5 and 35.2; two side by side 28.5 and 21.8; a passport
/// page with a portrait 31.7 (blurred sigma 3: 29.7, darkened to 30 %: 24.6); pages
/// without a portrait, printed fields and zone: no detection at all down to 0.01.
pub const MIN_SCORE: f64 = 5.0;

/// The detections in `gray` scoring at least [`MIN_SCORE`], with their scores.
pub fn detect(gray: &GrayImage) -> Vec<f64> {
    let Some(model) = model() else {
        return Vec::new();
    };
    let small = shrink(gray.clone(), DETECTION_LONG_SIDE);
    let (width, height) = small.dimensions();
    // The detector panics on an image smaller than its window.
    if width < 40 || height < 40 {
        return Vec::new();
    }
    // A detector per call: it is neither Sync nor cheap to share, and it costs a
    // clone of the model's tables, far less than the detection.
    let mut detector = rustface::create_detector_with_model(model.clone());
    detector.set_min_face_size(40);
    detector.set_score_thresh(MIN_SCORE);
    detector.set_pyramid_scale_factor(0.8);
    detector.set_slide_window_step(4, 4);
    detector
        .detect(&ImageData::new(small.as_raw(), width, height))
        .iter()
        .map(|face| face.score())
        .collect()
}

/// How many faces `gray` shows.
pub fn count_faces(gray: &GrayImage) -> usize {
    detect(gray).len()
}

fn model() -> Option<&'static Model> {
    static MODEL_READ: OnceLock<Option<Model>> = OnceLock::new();
    MODEL_READ
        .get_or_init(|| rustface::read_model(MODEL).ok())
        .as_ref()
}
