//! The quiz page's camera guide in a real Chromium whose camera is a fake one playing a
//! generated licence (`--use-file-for-fake-video-capture`): it opens, tells a blurred
//! card's fault in the client's language and takes no shot of it, takes the sharp card
//! by itself and sends it through the page's own form (its side included), which the
//! server judges usable. With the camera refused, the file input still does the job.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use fantoccini::Client;
use fixtures::degrade;
use fixtures::licence::Licence;
use image::{Rgb, RgbImage, imageops};
use serde_json::{Value, json};

use crate::accessibility::{audit_shown, axe_path};
use crate::browser::{Driver, Screen, click, drive, screenshot, session_with, wait_for};
use crate::client_pages::send_quiz;
use crate::support::{Backend, Env};

/// The fake camera's picture: 720 pixels high, over the contract's 600.
const FRAME: (u32, u32) = (1280, 720);

/// The licence's back (its PDF417) laid on a grey table, filling most of the frame, as a
/// client holding it to the camera shows it; blurred by `sigma` when that is not 0.
fn camera_frame(sigma: f32) -> RgbImage {
    let card = Licence::sample().back();
    let width = FRAME.0 * 3 / 4;
    let height = card.height() * width / card.width();
    let card = imageops::resize(&card, width, height, imageops::FilterType::Triangle);
    let mut frame = RgbImage::from_pixel(FRAME.0, FRAME.1, Rgb([120, 118, 112]));
    let (x, y) = ((FRAME.0 - width) / 2, (FRAME.1 - height) / 2);
    imageops::overlay(&mut frame, &card, i64::from(x), i64::from(y));
    if sigma > 0.0 {
        degrade::blur(&frame, sigma)
    } else {
        frame
    }
}

/// A face photo (the test portraits) filling the frame's height, as a selfie is held.
fn selfie_frame() -> RgbImage {
    let face = crate::documents_read::face("obama.jpg");
    let height = FRAME.1;
    let width = (face.width() * height / face.height()).min(FRAME.0);
    let face = imageops::resize(&face, width, height, imageops::FilterType::Triangle);
    let mut frame = RgbImage::from_pixel(FRAME.0, FRAME.1, Rgb([200, 196, 190]));
    imageops::overlay(&mut frame, &face, i64::from((FRAME.0 - width) / 2), 0);
    frame
}

/// `frame` as a one-frame YUV4MPEG2 video (4:2:0, BT.601 studio range: luma 16-235,
/// chroma 16-240, as Chromium reads it), which Chromium's fake camera plays over and over.
fn y4m(frame: &RgbImage, path: &Path) {
    let (width, height) = frame.dimensions();
    let mut luma = Vec::with_capacity((width * height) as usize);
    let (mut blue, mut red) = (Vec::new(), Vec::new());
    for pixel in frame.pixels() {
        let [r, g, b] = pixel.0.map(f32::from);
        luma.push((16.0 + (0.299 * r + 0.587 * g + 0.114 * b) * 219.0 / 255.0).round() as u8);
    }
    for y in (0..height).step_by(2) {
        for x in (0..width).step_by(2) {
            let [r, g, b] = frame.get_pixel(x, y).0.map(f32::from);
            let chroma = |c: f32| (128.0 + c * 224.0 / 255.0).round() as u8;
            blue.push(chroma(-0.168_736 * r - 0.331_264 * g + 0.5 * b));
            red.push(chroma(0.5 * r - 0.418_688 * g - 0.081_312 * b));
        }
    }
    let mut file = std::fs::File::create(path).expect("video written");
    write!(
        file,
        "YUV4MPEG2 W{width} H{height} F30:1 Ip A1:1 C420jpeg\nFRAME\n"
    )
    .expect("header");
    for plane in [luma, blue, red] {
        file.write_all(&plane).expect("plane");
    }
}

/// Chromium's arguments for a camera that plays `video`, allowed without asking.
fn camera_playing(video: &Path) -> Vec<String> {
    vec![
        "--use-fake-ui-for-media-stream".to_owned(),
        "--use-fake-device-for-media-stream".to_owned(),
        format!("--use-file-for-fake-video-capture={}", video.display()),
    ]
}

/// The licence back's camera button (the back form of the licence step).
const BACK: &str = "#driver_licence_upload form:has(input[name=side][value=back])";

/// The client's documents of `step`.
fn documents_of(env: &Env, step: &str) -> Vec<Value> {
    let key = json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    let docs = env.client().call("document/read", &key);
    docs.assert_status(200)["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .filter(|d| d["name"] == step)
        .cloned()
        .collect()
}

fn licence_documents(env: &Env) -> Vec<Value> {
    documents_of(env, "driver_licence_upload")
}

/// Waits until the element `css` is on the page and its text holds `text` (the page
/// itself holds every word of the guide from the start, in its data).
async fn wait_for_text(browser: &Client, css: &str, text: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let shown = browser
            .execute(
                "const e = document.querySelector(arguments[0]); return e ? e.textContent : null;",
                vec![json!(css)],
            )
            .await
            .expect("text read");
        if shown.as_str().is_some_and(|t| t.contains(text)) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{css} never showed {text:?}; it shows {shown}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn camera_session(driver: &Driver, scratch: &Path, name: &str, extra: &[String]) -> Client {
    session_with(driver, &scratch.join(name), Screen::Phone, extra).await
}

pub fn the_camera_guide_refuses_a_blurred_card_and_takes_the_sharp_one(backend: Backend) {
    let axe = std::fs::read_to_string(axe_path()).expect("axe-core installed (.ci/run)");
    let env = Env::start(backend);
    let (_, long_url, _) = send_quiz(&env, json!({"driver_licence_upload": 1}));
    let scratch = tempfile::tempdir().expect("scratch folder");
    let (blurred, sharp): (PathBuf, PathBuf) = (
        scratch.path().join("blurred.y4m"),
        scratch.path().join("sharp.y4m"),
    );
    y4m(&camera_frame(4.0), &blurred);
    y4m(&camera_frame(0.0), &sharp);
    let driver = Driver::start();
    drive(async {
        // A blurred card: the guide says what to fix, in French, and takes nothing.
        let browser = camera_session(
            &driver,
            scratch.path(),
            "blurred",
            &camera_playing(&blurred),
        )
        .await;
        browser
            .goto(&format!("{long_url}?lang=fr"))
            .await
            .expect("quiz page");
        wait_for_text(
            &browser,
            &format!("{BACK} .camera-open"),
            "Utiliser l’appareil photo",
        )
        .await;
        click(&browser, &format!("{BACK} .camera-open")).await;
        wait_for_text(
            &browser,
            &format!("{BACK} .camera-hint"),
            "Ne bougez pas et laissez l’appareil faire la mise au point.",
        )
        .await;
        assert!(
            licence_documents(&env).is_empty(),
            "the guide took a blurred card"
        );
        // Open, the guide passes axe and fits a phone's width.
        let mut found = Vec::new();
        audit_shown(&browser, &axe, "the camera guide", &mut found).await;
        assert!(found.is_empty(), "{found:#?}");
        screenshot(&browser, "camera-guide-phone.png").await;
        // The client closes it: the button to open it again is back.
        click(&browser, &format!("{BACK} .camera-close")).await;
        let guide_gone = browser
            .execute(
                "return document.querySelector(arguments[0]) === null \
                 && !document.querySelector(arguments[1]).hidden;",
                vec![
                    json!(format!("{BACK} .camera")),
                    json!(format!("{BACK} .camera-open")),
                ],
            )
            .await
            .expect("page read");
        assert_eq!(
            guide_gone,
            json!(true),
            "the guide is closed, its button back"
        );
        browser.close().await.expect("session closed");

        // A sharp card: taken by itself, sent through the back's form, judged usable.
        let browser =
            camera_session(&driver, scratch.path(), "sharp", &camera_playing(&sharp)).await;
        browser.goto(&long_url).await.expect("quiz page");
        wait_for_text(&browser, &format!("{BACK} .camera-open"), "Use the camera").await;
        click(&browser, &format!("{BACK} .camera-open")).await;
        wait_for(&browser, "Your photo was received and looks clear.").await;
        browser.close().await.expect("session closed");
    });
    let documents = licence_documents(&env);
    assert_eq!(documents.len(), 1, "one licence document: {documents:#?}");
    let files = documents[0]["data"].as_array().expect("files");
    assert_eq!(files.len(), 1, "one file: {files:#?}");
    assert_eq!(files[0]["side"], "back");
}

pub fn with_the_camera_refused_the_file_input_still_works(backend: Backend) {
    let env = Env::start(backend);
    let (_, long_url, _) = send_quiz(&env, json!({"driver_licence_upload": 1}));
    let scratch = tempfile::tempdir().expect("scratch folder");
    let photo = scratch.path().join("back.jpg");
    std::fs::write(&photo, degrade::jpeg(&camera_frame(0.0), 90)).expect("photo written");
    let driver = Driver::start();
    let refused = [
        "--use-fake-device-for-media-stream".to_owned(),
        "--deny-permission-prompts".to_owned(),
    ];
    drive(async {
        let browser = camera_session(&driver, scratch.path(), "refused", &refused).await;
        browser.goto(&long_url).await.expect("quiz page");
        wait_for_text(&browser, &format!("{BACK} .camera-open"), "Use the camera").await;
        click(&browser, &format!("{BACK} .camera-open")).await;
        wait_for_text(
            &browser,
            &format!("{BACK} .camera-refused"),
            "The camera could not be opened. Choose a file instead.",
        )
        .await;
        crate::browser::fill(
            &browser,
            &format!("{BACK} input[type=file]"),
            &photo.display().to_string(),
        )
        .await;
        click(&browser, &format!("{BACK} button[type=submit]")).await;
        wait_for(&browser, "Your photo was received and looks clear.").await;
        browser.close().await.expect("session closed");
    });
    let documents = licence_documents(&env);
    assert_eq!(documents.len(), 1, "one licence document: {documents:#?}");
    assert_eq!(documents[0]["data"][0]["side"], "back");
}

/// The selfie's guide: the face's oval over the preview, the shot taken by itself and
/// judged usable. Needs the test portraits (`IDV_TEST_FACES`).
pub fn the_camera_guide_takes_a_selfie(backend: Backend) {
    let env = Env::start(backend);
    let (_, long_url, _) = send_quiz(&env, json!({"selfie_upload": 1}));
    let scratch = tempfile::tempdir().expect("scratch folder");
    let video = scratch.path().join("face.y4m");
    y4m(&selfie_frame(), &video);
    let driver = Driver::start();
    drive(async {
        let browser =
            camera_session(&driver, scratch.path(), "face", &camera_playing(&video)).await;
        browser.goto(&long_url).await.expect("quiz page");
        let opener = "#selfie_upload .camera-open";
        wait_for_text(&browser, opener, "Use the camera").await;
        click(&browser, opener).await;
        wait_for(&browser, "Your photo was received and looks clear.").await;
        browser.close().await.expect("session closed");
    });
    let selfies = documents_of(&env, "selfie_upload");
    assert_eq!(selfies.len(), 1, "one selfie: {selfies:#?}");
}
