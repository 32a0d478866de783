//! Image analysis for the verification checks (contract §13), behind
//! [`domain::ports::ImageAnalysis`]: an upload decoded within the pixel budget, its
//! quality judged, then what was wanted of it looked for (a licence's barcode, a
//! machine-readable zone with tesseract, faces), all within a budget of processor time.

#![warn(missing_docs)]

pub mod aamva;
pub mod barcode;
pub mod bounded;
pub mod budget;
pub(crate) mod components;
pub mod decode;
pub mod deskew;
pub mod environment;
#[cfg(feature = "face-match")]
pub mod face_match;
pub mod faces;
pub mod gate;
pub mod hashes;
pub mod idle;
pub mod isolated;
pub mod light;
pub mod mrz;
pub mod ocr;
pub mod pdf;
pub mod quality;
pub mod rooms;
pub mod text;

use std::path::{Path, PathBuf};
#[cfg(feature = "face-match")]
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use domain::merchant::MerchantId;
use domain::ports::{ImageAnalysis, ImageRoom};
use domain::verification::{
    BarcodeReading, FaceDescriptor, ImageReport, MrzReading, QualityMeasures, TextReading, Wanted,
};
use thread_priority::{
    NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy,
    set_thread_priority_and_policy, thread_native_id,
};

use crate::budget::Budget;
use crate::isolated::AnalysisCommand;
use crate::ocr::Ocr;
use crate::pdf::Pdf;
use crate::rooms::FairRooms;

/// The long side a face is described at: the size faces are counted at
/// ([`faces::DETECTION_LONG_SIDE`]), enough for dlib's detector to find a portrait of a
/// quarter of a card.
pub const DESCRIBE_LONG_SIDE: u32 = faces::DETECTION_LONG_SIDE;

/// How long one image may take, decoding to faces (the contract's 20 s): processor time,
/// so that waiting for a core on a busy machine never counts (see [`budget`]).
pub const TIME_BUDGET: Duration = Duration::from_secs(20);

/// The image analysis: [`ImageAnalysis`] with this crate's decoders, tesseract and
/// SeetaFace.
#[derive(Debug, Clone)]
pub struct Analyser {
    ocr: Ocr,
    /// Renders a PDF's first page (poppler).
    pdf: Pdf,
    budget: Duration,
    /// One image at a time per core, whoever asks (uploads judged as they arrive and the
    /// verification workers alike), shared fairly between merchants: the analysis is all
    /// CPU, and more at once would only slow the API down. A room is taken before the
    /// image is read from the store.
    rooms: FairRooms,
    /// dlib's face matcher, when this build has one and its models were found.
    #[cfg(feature = "face-match")]
    matcher: Option<Arc<face_match::Matcher>>,
    /// Where each image is analysed when not on the calling thread: a process of its
    /// own ([`isolated`]).
    isolated: Option<AnalysisCommand>,
}

impl Analyser {
    /// The analysis, running tesseract as `ocr_command` (from the configuration), or as
    /// `tesseract` on the `PATH` when `None`.
    pub fn new(ocr_command: Option<PathBuf>) -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Self {
            ocr: ocr_command.map(Ocr::new).unwrap_or_default(),
            pdf: Pdf::default(),
            budget: TIME_BUDGET,
            rooms: FairRooms::new(cores),
            #[cfg(feature = "face-match")]
            matcher: None,
            isolated: None,
        }
    }

    /// The same analysing each image [`examine`](ImageAnalysis::examine)s in a process
    /// of its own, started by `command`, under the [`gate`].
    pub fn in_processes(mut self, command: AnalysisCommand) -> Self {
        self.isolated = Some(command);
        self
    }

    /// The same matching faces with the models in `dir` (`IDV_FACE_MODELS`). Without
    /// them, or in a build without the `face-match` feature, a warning is logged and
    /// faces are counted but not matched (`face_matcher_unavailable`).
    #[cfg(feature = "face-match")]
    pub fn with_face_models(mut self, dir: Option<&Path>) -> Self {
        let Some(dir) = dir else {
            tracing::warn!("no face models (IDV_FACE_MODELS): faces will not be matched");
            return self;
        };
        let started = Instant::now();
        match face_match::Matcher::open(dir) {
            Ok(matcher) => {
                tracing::info!(
                    elapsed_ms = started.elapsed().as_millis(),
                    "face models read"
                );
                self.matcher = Some(Arc::new(matcher));
            }
            Err(error) => {
                tracing::warn!(%error, "face models unreadable: faces will not be matched");
            }
        }
        self
    }

    /// The same: this build has no face matcher, whatever models are given.
    #[cfg(not(feature = "face-match"))]
    pub fn with_face_models(self, dir: Option<&Path>) -> Self {
        if dir.is_some() {
            tracing::warn!(
                "face models given, but this build has no face matcher (feature face-match)"
            );
        }
        self
    }

    /// Whether faces are described for matching: the models were read.
    #[cfg(feature = "face-match")]
    pub fn matches_faces(&self) -> bool {
        self.matcher.is_some()
    }

    /// Whether faces are described for matching: never in this build.
    #[cfg(not(feature = "face-match"))]
    pub fn matches_faces(&self) -> bool {
        false
    }

    /// The report on an image that could not be analysed, saying whether faces would
    /// have been matched.
    fn unreadable(&self, wanted: Wanted) -> ImageReport {
        let mut report = ImageReport::unreadable(wanted);
        if !self.matches_faces() {
            report.descriptor = wanted.faces.then_some(FaceDescriptor::Unavailable);
        }
        report
    }

    /// The largest face of `image` described, when faces are matched.
    fn describe(&self, image: &decode::Decoded) -> FaceDescriptor {
        match &image.colour {
            #[cfg(feature = "face-match")]
            Some(colour) => self
                .matcher
                .as_ref()
                .map_or(FaceDescriptor::Unavailable, |matcher| {
                    matcher.describe(colour)
                }),
            _ => FaceDescriptor::Unavailable,
        }
    }

    /// The same with another budget of processor time per image.
    pub fn with_budget(mut self, budget: Duration) -> Self {
        self.budget = budget;
        self
    }

    /// The report on `bytes`, worked out on the calling thread (blocking, up to the
    /// budget of that thread's processor time and its tesseract runs'): the work
    /// [`ImageAnalysis::examine`] runs off the async runtime.
    pub fn analyse(&self, bytes: &[u8], wanted: Wanted) -> ImageReport {
        let started = Instant::now();
        let budget = Budget::start(self.budget);
        // A proof of address is wanted for its text alone (no quality, barcode, zone or
        // faces: `domain::verification::documents::wanted`).
        if wanted.text {
            let text = text::read(bytes, &self.pdf, &self.ocr, &budget);
            tracing::info!(
                elapsed_ms = started.elapsed().as_millis(),
                cpu_ms = budget.spent().as_millis(),
                text = text_outcome(&text),
                "text read"
            );
            return ImageReport {
                text: Some(text),
                ..ImageReport::default()
            };
        }
        // Colours are kept only to describe a face.
        let colour = (wanted.faces && self.matches_faces()).then_some(DESCRIBE_LONG_SIDE);
        // A PDF (a scan) is read as its first page.
        let decoded = if pdf::is_pdf(bytes) {
            self.pdf
                .first_page(bytes, &budget)
                .and_then(|page| decode::decode_rendered(&page, colour))
        } else {
            decode::decode_with_colour(bytes, colour)
        };
        let Some(image) = decoded else {
            tracing::info!(
                elapsed_ms = started.elapsed().as_millis(),
                "image unreadable"
            );
            return self.unreadable(wanted);
        };
        let decoded_ms = started.elapsed().as_millis();
        let measured = quality::measure(&image);
        let quality_ms = started.elapsed().as_millis() - decoded_ms;
        let barcode_started = Instant::now();
        let barcode = wanted
            .barcode
            .then(|| barcode::read_barcode_within(image.finest(), &budget));
        let barcode_ms = barcode_started.elapsed().as_millis();
        let mrz_started = Instant::now();
        // A card carries a barcode or a zone: one whose barcode was read is not searched
        // for a zone too (up to 6 s of tesseract on a licence's back).
        let barcode_read = matches!(barcode, Some(BarcodeReading::Read(_)));
        let mrz =
            (wanted.mrz && !barcode_read).then(|| mrz::read_mrz(&image.gray, &self.ocr, &budget));
        let mrz_ms = mrz_started.elapsed().as_millis();
        let read = barcode_read || matches!(mrz, Some(MrzReading::Read(_)));
        let quality = QualityMeasures { read, ..measured }.issues();
        if budget.is_spent() {
            tracing::warn!(
                elapsed_ms = started.elapsed().as_millis(),
                cpu_ms = budget.spent().as_millis(),
                "image analysis out of time"
            );
            return self.unreadable(wanted);
        }
        let faces_started = Instant::now();
        let found = wanted.faces.then(|| faces::detect(&image.gray));
        let faces = found.as_ref().map(Vec::len);
        let faces_ms = faces_started.elapsed().as_millis();
        // An ID image or a selfie (what the verification looks at, not an upload's
        // quality alone) is hashed, for photo_reuse.
        let hashes = (wanted.barcode || wanted.mrz || wanted.faces).then(|| {
            let face = found.as_deref().and_then(faces::largest);
            hashes::of(&image.gray, face)
        });
        let describe_started = Instant::now();
        // A face is described only where one was counted: the rest is the domain's.
        let descriptor = faces.map(|n| match n {
            0 if self.matches_faces() => FaceDescriptor::NotFound,
            _ => self.describe(&image),
        });
        tracing::info!(
            decoded_ms,
            quality_ms,
            barcode_ms,
            mrz_ms,
            faces_ms,
            describe_ms = describe_started.elapsed().as_millis(),
            // Beside the clock's figures: the rest of those is time waiting for a core.
            cpu_ms = budget.spent().as_millis(),
            issues = quality.len(),
            barcode = barcode.as_ref().map(barcode_outcome),
            mrz = mrz.as_ref().map(outcome),
            faces,
            described = descriptor.as_ref().map(described),
            "image analysed"
        );
        ImageReport {
            quality,
            barcode,
            mrz,
            faces,
            descriptor,
            text: None,
            hashes,
        }
    }
}

impl Default for Analyser {
    fn default() -> Self {
        Self::new(None)
    }
}

/// What a barcode reading came to, without what it says (for the logs).
fn barcode_outcome(reading: &BarcodeReading) -> &'static str {
    match reading {
        BarcodeReading::NotFound => "not_found",
        BarcodeReading::Invalid => "invalid",
        BarcodeReading::Read(_) => "read",
    }
}

/// What reading a text came to, without the text (for the logs).
fn text_outcome(reading: &TextReading) -> &'static str {
    match reading {
        TextReading::Unreadable => "unreadable",
        TextReading::OcrUnavailable => "ocr_unavailable",
        TextReading::Read(read) if read.edits.is_empty() => "read",
        TextReading::Read(_) => "read_edited",
    }
}

/// What describing a face came to, without the description (for the logs).
fn described(descriptor: &FaceDescriptor) -> &'static str {
    match descriptor {
        FaceDescriptor::Unavailable => "unavailable",
        FaceDescriptor::NotFound => "not_found",
        FaceDescriptor::Found(_) => "found",
    }
}

/// What a zone reading came to, without what it says (for the logs).
fn outcome(reading: &MrzReading) -> &'static str {
    match reading {
        MrzReading::NotFound => "not_found",
        MrzReading::CheckDigitInvalid => "check_digit_invalid",
        MrzReading::OcrUnavailable => "ocr_unavailable",
        MrzReading::Read(_) => "read",
    }
}

/// Puts the calling thread in Linux's idle scheduling class (`SCHED_IDLE`; the processes
/// started from it, the analysis's and tesseract, inherit it): it runs only on a core
/// nothing else wants, and an API thread that wakes takes the core from it at once. Nice
/// 10 was not enough: under load, the analysis held a core for a whole time slice and
/// `profile/get`'s p99 grew by a third (docs/BENCHMARKS.md). Failing leaves the thread
/// as it was.
fn in_the_background() {
    let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
    if let Err(error) =
        set_thread_priority_and_policy(thread_native_id(), ThreadPriority::Min, idle)
    {
        tracing::debug!(?error, "image analysis keeps the normal priority");
    }
}

#[async_trait]
impl ImageAnalysis for Analyser {
    async fn room(&self, merchant: &MerchantId) -> ImageRoom {
        ImageRoom::new(self.rooms.room(merchant).await)
    }

    async fn room_within(&self, merchant: &MerchantId, wait: Duration) -> Option<ImageRoom> {
        let room = tokio::time::timeout(wait, self.rooms.room(merchant)).await;
        room.ok().map(ImageRoom::new)
    }

    async fn examine(&self, room: ImageRoom, image: Vec<u8>, wanted: Wanted) -> ImageReport {
        let analyser = self.clone();
        let (report, work) = tokio::sync::oneshot::channel();
        // A thread of its own rather than the runtime's blocking pool: it lowers its own
        // scheduling class, which it could not raise again for the next task (the
        // database's reads run on that pool).
        let started = std::thread::Builder::new()
            .name("idv-analysis".into())
            .spawn(move || {
                // The room goes with the thread: it is given back when the work ends,
                // whoever still waits for it.
                let _core = room;
                in_the_background();
                let analysed = match &analyser.isolated {
                    Some(command) => command
                        .analyse(&image, wanted)
                        .unwrap_or_else(|| analyser.unreadable(wanted)),
                    None => analyser.analyse(&image, wanted),
                };
                let _ = report.send(analysed);
            });
        if started.is_err() {
            tracing::warn!("no thread for image analysis");
            return self.unreadable(wanted);
        }
        // No clock here: the work ends on its own once its processor time is spent, and
        // on a machine whose cores are all busy it waits for one rather than calling a
        // good document unreadable.
        work.await.unwrap_or_else(|_| {
            tracing::warn!("image analysis failed");
            self.unreadable(wanted)
        })
    }
}

#[cfg(test)]
mod tests {
    use futures_util::FutureExt;
    use thread_priority::thread_schedule_policy;

    use super::*;

    #[tokio::test]
    async fn rooms_are_one_per_core_and_come_back_when_dropped() {
        let analyser = Analyser::default();
        let merchant = MerchantId::new("m1");
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let mut held = Vec::new();
        for _ in 0..cores {
            held.push(
                analyser
                    .room(&merchant)
                    .now_or_never()
                    .expect("a free core"),
            );
        }
        assert!(
            analyser.room(&merchant).now_or_never().is_none(),
            "one more waits for a core"
        );
        assert!(
            analyser
                .room_within(&merchant, Duration::from_millis(10))
                .await
                .is_none(),
            "and gives up after its wait"
        );
        held.pop();
        assert!(
            analyser.room(&merchant).now_or_never().is_some(),
            "a room given back"
        );
    }

    #[test]
    fn an_analysis_thread_runs_behind_the_api() {
        let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
        let policy = std::thread::spawn(|| {
            in_the_background();
            thread_schedule_policy().expect("own policy")
        })
        .join()
        .expect("thread");
        assert_eq!(policy, idle);
        let caller = thread_schedule_policy().expect("own policy");
        assert_ne!(caller, idle, "only that thread");
    }
}
