//! Faces described by dlib (the `face-match` feature) on real portraits, on their own and
//! printed on a generated licence and passport page: the same person close, another far,
//! as the domain's threshold needs; the figures in `docs/verification.md` come from here.
//! A test whose models or photos are missing is reported ignored, with the reason
//! ([`fixtures::needs`]). A build without the feature has none of these tests.

#[cfg(feature = "face-match")]
mod with_the_feature {
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
        text: false,
    };

    /// The analysis with the models of `IDV_FACE_MODELS` (`scripts/face_models.sh`) and the
    /// photos of `IDV_TEST_FACES`: the tests that call this need both.
    fn setup() -> (Analyser, [RgbImage; 3]) {
        let models = std::env::var_os("IDV_FACE_MODELS").map(PathBuf::from);
        let analyser = Analyser::default().with_face_models(models.as_deref());
        assert!(
            analyser.matches_faces(),
            "the models of IDV_FACE_MODELS read"
        );
        let photos = ["obama.jpg", "obama2.jpg", "biden.jpg"]
            .map(|name| fixtures::faces::photo(name).unwrap_or_else(|| panic!("{name}")));
        (analyser, photos)
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

    fn the_same_person_is_under_the_threshold_and_another_over_it_on_photos_and_documents() {
        let (analyser, [obama, obama2, biden]) = setup();
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

    fn faceless_images_and_missing_models_describe_nothing() {
        let (analyser, _) = setup();
        let blank = RgbImage::from_pixel(900, 700, image::Rgb([200, 190, 180]));
        let report = analyser.analyse(&degrade::jpeg(&blank, 85), FACES);
        assert_eq!(
            (report.faces, report.descriptor),
            (Some(0), Some(FaceDescriptor::NotFound))
        );
        let without =
            Analyser::default().with_face_models(Some(std::path::Path::new("/nonexistent")));
        assert!(!without.matches_faces());
        let report = without.analyse(&degrade::jpeg(&blank, 85), FACES);
        assert_eq!(report.descriptor, Some(FaceDescriptor::Unavailable));
    }

    /// Every test of this file, each needing the models and the photos.
    pub fn tests() -> Vec<libtest_mimic::Trial> {
        use fixtures::needs::{Need, trial};
        let needs = [Need::FaceModels, Need::FacePhotos];
        vec![
            trial(
                "the_same_person_is_under_the_threshold_and_another_over_it_on_photos_and_documents",
                &needs,
                the_same_person_is_under_the_threshold_and_another_over_it_on_photos_and_documents,
            ),
            trial(
                "faceless_images_and_missing_models_describe_nothing",
                &needs,
                faceless_images_and_missing_models_describe_nothing,
            ),
        ]
    }
}

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    #[cfg(feature = "face-match")]
    let tests = with_the_feature::tests();
    #[cfg(not(feature = "face-match"))]
    let tests = Vec::new();
    libtest_mimic::run(&args, tests).exit();
}
