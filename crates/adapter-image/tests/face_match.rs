//! Faces described by dlib (the `face-match` feature) on real portraits, on their own and
//! printed on a generated licence and passport page: the same person close, another far,
//! as the domain's threshold needs; the figures in `docs/verification.md` come from here.
#![cfg(feature = "face-match")]

use std::path::PathBuf;
use std::time::Instant;

use adapter_image::Analyser;
use domain::verification::face_match::{THRESHOLD_HUNDREDTHS, distance};
use domain::verification::{FaceDescriptor, Wanted};
use fixtures::degrade;
use fixtures::licence::Licence;
use fixtures::passport::Passport;
use image::RgbImage;

const FACES: Wanted = Wanted {
    barcode: false,
    mrz: false,
    faces: true,
};

/// Whether a missing model or photo fails rather than skips: `IDV_TEST_REQUIRE_FACE_MATCH`.
fn required() -> bool {
    std::env::var("IDV_TEST_REQUIRE_FACE_MATCH").as_deref() == Ok("1")
}

/// The analysis with the models of `IDV_FACE_MODELS` (`scripts/face_models.sh`) and the
/// photos of `IDV_TEST_FACES`, or `None` with a note.
fn setup() -> Option<(Analyser, [RgbImage; 3])> {
    let models = std::env::var_os("IDV_FACE_MODELS").map(PathBuf::from);
    let analyser = Analyser::default().with_face_models(models.as_deref());
    let photos = ["obama.jpg", "obama2.jpg", "biden.jpg"].map(fixtures::faces::photo);
    if !analyser.matches_faces() || photos.iter().any(Option::is_none) {
        assert!(
            !required(),
            "IDV_TEST_REQUIRE_FACE_MATCH=1 but no models in IDV_FACE_MODELS or photos in IDV_TEST_FACES"
        );
        eprintln!("skipped: no face models (IDV_FACE_MODELS) or face photos (IDV_TEST_FACES)");
        return None;
    }
    let [a, b, c] = photos;
    Some((analyser, [a?, b?, c?]))
}

fn described(analyser: &Analyser, what: &str, img: &RgbImage) -> Vec<f32> {
    let started = Instant::now();
    let report = analyser.analyse(&degrade::jpeg(img, 85), FACES);
    eprintln!(
        "{what} ({}x{}): analysed in {:?}",
        img.width(),
        img.height(),
        started.elapsed()
    );
    match report.descriptor {
        Some(FaceDescriptor::Found(face)) => {
            assert_eq!(face.len(), 128);
            face
        }
        other => panic!(
            "{what}: no face described ({:?} counted): {other:?}",
            report.faces
        ),
    }
}

fn hundredths(a: &[f32], b: &[f32]) -> i64 {
    (distance(a, b).expect("same matcher") * 100.0).round() as i64
}

#[test]
fn the_same_person_is_under_the_threshold_and_another_over_it_on_photos_and_documents() {
    let Some((analyser, [obama, obama2, biden])) = setup() else {
        return;
    };
    let selfie = described(&analyser, "obama.jpg", &obama);
    let same = described(&analyser, "obama2.jpg", &obama2);
    let other = described(&analyser, "biden.jpg", &biden);
    let licence = Licence::sample().front(Some(&obama2));
    let on_licence = described(&analyser, "licence front with obama2", &licence);
    let page = Passport::sample()
        .page(Some(&obama2))
        .expect("the OCR-B typeface");
    let on_passport = described(&analyser, "passport page with obama2", &page);
    let cases = [
        ("obama/obama2", hundredths(&selfie, &same), true),
        (
            "obama/licence obama2",
            hundredths(&selfie, &on_licence),
            true,
        ),
        (
            "obama/passport obama2",
            hundredths(&selfie, &on_passport),
            true,
        ),
        (
            "obama2/licence obama2",
            hundredths(&same, &on_licence),
            true,
        ),
        ("obama/biden", hundredths(&selfie, &other), false),
        (
            "biden/licence obama2",
            hundredths(&other, &on_licence),
            false,
        ),
        (
            "biden/passport obama2",
            hundredths(&other, &on_passport),
            false,
        ),
    ];
    for (what, d, same_person) in cases {
        eprintln!("{what}: distance {}.{d:02}", d / 100);
        assert_eq!(d < THRESHOLD_HUNDREDTHS, same_person, "{what}: {d}");
    }
}

#[test]
fn faceless_images_and_missing_models_describe_nothing() {
    let Some((analyser, _)) = setup() else {
        return;
    };
    let blank = RgbImage::from_pixel(900, 700, image::Rgb([200, 190, 180]));
    let report = analyser.analyse(&degrade::jpeg(&blank, 85), FACES);
    assert_eq!(
        (report.faces, report.descriptor),
        (Some(0), Some(FaceDescriptor::NotFound))
    );
    let without = Analyser::default().with_face_models(Some(std::path::Path::new("/nonexistent")));
    assert!(!without.matches_faces());
    let report = without.analyse(&degrade::jpeg(&blank, 85), FACES);
    assert_eq!(report.descriptor, Some(FaceDescriptor::Unavailable));
}
