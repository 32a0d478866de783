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

/// A face found: where, in the image's own pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Face {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// The faces in `gray` scoring at least [`MIN_SCORE`].
pub fn detect(gray: &GrayImage) -> Vec<Face> {
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
    let scale = f64::from(gray.width()) / f64::from(width);
    let to_image = |v: i32| (f64::from(v.max(0)) * scale).round() as u32;
    detector
        .detect(&ImageData::new(small.as_raw(), width, height))
        .iter()
        .map(|face| {
            let b = face.bbox();
            Face {
                x: to_image(b.x()),
                y: to_image(b.y()),
                width: to_image(b.width() as i32),
                height: to_image(b.height() as i32),
            }
        })
        .collect()
}

/// The largest of `faces`.
pub fn largest(faces: &[Face]) -> Option<Face> {
    faces.iter().copied().max_by_key(|f| f.width * f.height)
}

fn model() -> Option<&'static Model> {
    static MODEL_READ: OnceLock<Option<Model>> = OnceLock::new();
    MODEL_READ
        .get_or_init(|| rustface::read_model(MODEL).ok())
        .as_ref()
}
