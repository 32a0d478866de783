//! The selfie matched against the ID's portrait (issue 26, contract §13), in a build with
//! the `face-match` feature and dlib's models in `IDV_FACE_MODELS`: the same person
//! passes under the threshold, another fails `face_mismatch`, a selfie with two faces
//! fails `selfie_face` and is not matched.

use std::time::{Duration, Instant};

use fixtures::degrade;
use serde_json::{Value, json};

use crate::Scenario;
use crate::client_pages::post_json;
use crate::documents_read::{face, holder, outcome, passport_of, quiz, upload_usable};
use crate::support::{Backend, Env};
use crate::verification::check;
use crate::verification::completed;

pub const SCENARIOS: &[Scenario] = &[
    (
        "the_selfie_matches_the_licence_portrait_of_the_same_person_not_another_and_two_faces_are_not_matched",
        selfies_against_a_licence,
    ),
    (
        "a_whole_quiz_with_face_matching_is_timed_from_submission_to_completed",
        timed_quizzes,
    ),
];

/// Whether the server under test matches faces: this build has the feature and
/// `IDV_FACE_MODELS` holds the models (`scripts/face_models.sh`).
pub fn matching() -> bool {
    let Some(dir) = std::env::var_os("IDV_FACE_MODELS") else {
        return false;
    };
    let dir = std::path::PathBuf::from(dir);
    cfg!(feature = "face-match")
        && [
            "shape_predictor_5_face_landmarks.dat",
            "dlib_face_recognition_resnet_model_v1.dat",
        ]
        .iter()
        .all(|model| dir.join(model).is_file())
}

/// A quiz for a licence (its front showing the holder as `obama2.jpg`) and `selfie`,
/// submitted; its verification once completed.
fn verified(env: &Env, email: &str, selfie: &image::RgbImage) -> Value {
    let licence = holder();
    let (token, url) = quiz(
        env,
        email,
        &licence.number,
        json!({"driver_licence_upload": 1, "selfie_upload": 1}),
    );
    let front = degrade::jpeg(&licence.front(Some(&face("obama2.jpg"))), 90);
    let back = degrade::png(&licence.back());
    upload_usable(env, &token, "driver_licence_upload", Some("front"), &front);
    upload_usable(env, &token, "driver_licence_upload", Some("back"), &back);
    upload_usable(
        env,
        &token,
        "selfie_upload",
        None,
        &degrade::jpeg(selfie, 90),
    );
    post_json(env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);
    completed(&env.client(), &url)
}

fn distance(verification: &Value) -> f64 {
    let c = check(verification, "face_match");
    c["details"]["distance"]
        .as_f64()
        .unwrap_or_else(|| panic!("a distance in {c}"))
}

fn selfies_against_a_licence(backend: Backend) {
    let env = Env::start(backend);

    let same = verified(&env, "same@example.com", &face("obama.jpg"));
    assert_eq!(
        outcome(&same, "face_match"),
        ("passed".to_owned(), json!([])),
        "{same}"
    );
    let near = distance(&same);
    assert!(near < 0.6, "{near}");
    // Rounded to hundredths, shown as a JSON number.
    assert_eq!((near * 100.0).round() / 100.0, near);

    let other = verified(&env, "other@example.com", &face("biden.jpg"));
    assert_eq!(
        outcome(&other, "face_match"),
        ("failed".to_owned(), json!(["face_mismatch"])),
        "{other}"
    );
    assert!(distance(&other) >= 0.6, "{other}");
    assert_eq!(other["status"], "review", "{other}");

    let both = fixtures::faces::two_faces().expect("the face photos");
    let two = verified(&env, "two@example.com", &both);
    assert_eq!(
        outcome(&two, "selfie_face"),
        ("failed".to_owned(), json!(["multiple_faces"])),
        "{two}"
    );
    assert_eq!(
        outcome(&two, "face_match"),
        ("not_applicable".to_owned(), json!(["multiple_faces"])),
        "{two}"
    );
}

/// How many quizzes [`timed_quizzes`] times.
const TIMED_RUNS: usize = 3;

/// A licence (front and back), a passport page and a selfie, verified [`TIMED_RUNS`] times:
/// how long from submission to a completed verification, printed (the figures of
/// `docs/BENCHMARKS.md` come from a release build of this).
fn timed_quizzes(backend: Backend) {
    let env = Env::start(backend);
    let licence = holder();
    let front = degrade::jpeg(&licence.front(Some(&face("obama2.jpg"))), 90);
    let back = degrade::png(&licence.back());
    let page = passport_of(&licence)
        .page(Some(&face("obama2.jpg")))
        .expect("OCR-B font");
    let page = degrade::jpeg(&page, 90);
    let selfie = degrade::jpeg(&face("obama.jpg"), 90);
    let mut times: Vec<Duration> = Vec::new();
    for run in 0..TIMED_RUNS {
        let email = format!("timed{run}@example.com");
        let (token, url) = quiz(
            &env,
            &email,
            &licence.number,
            json!({"driver_licence_upload": 1, "passport_upload": 1, "selfie_upload": 1}),
        );
        upload_usable(&env, &token, "driver_licence_upload", Some("front"), &front);
        upload_usable(&env, &token, "driver_licence_upload", Some("back"), &back);
        upload_usable(&env, &token, "passport_upload", None, &page);
        upload_usable(&env, &token, "selfie_upload", None, &selfie);
        let submitted = Instant::now();
        post_json(&env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);
        let verification = completed(&env.client(), &url);
        times.push(submitted.elapsed());
        assert_eq!(
            outcome(&verification, "face_match"),
            ("passed".to_owned(), json!([])),
            "{verification}"
        );
    }
    eprintln!(
        "{}: a quiz (licence front and back, passport page, selfie) submitted to completed: {times:?}",
        backend.name()
    );
}
