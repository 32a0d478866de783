//! Documents photographed as phones photograph them are read (contract §17), over HTTP:
//! a licence turned 9, 25 and 40 degrees on a table, one tilted out of the plane, one
//! stored a quarter turn off with EXIF orientation 6 and one without EXIF, one scanned
//! as a PDF of two pages; a passport page turned 10 and 25 degrees, and scanned as a
//! PDF. The photos are made by the corpus's camera (`fixtures::corpus`), never
//! downloaded.

use fixtures::corpus::{Shot, Table, photograph};
use fixtures::degrade;
use image::{Rgb, RgbImage};
use serde_json::json;

use crate::client_pages::upload_side as upload;
use crate::documents_read::{holder, outcome, passport_of, quiz};
use crate::support::{Backend, Env};
use crate::verification::completed;

/// A phone's photo of a document lying on a wooden-brown table, level and untilted,
/// filling 60 % of a 3000-pixel frame, as a JPEG of 90.
pub fn level() -> Shot {
    Shot {
        degrees: 0.0,
        keystone: 0.0,
        far_edge: 0,
        share: 0.6,
        long_side: 3000,
        table: Table::Plain(Rgb([120, 90, 60])),
        shadow: 0.0,
        noise: 2.0,
        motion: 0,
        stored_turns: 0,
        exif: false,
        jpeg: Some(90),
        pdf: false,
    }
}

/// Sends a quiz asking for `step`, uploads `photo` to it, submits, and says what the
/// `check` of its verification came to.
pub fn read(
    env: &Env,
    what: &str,
    step: &str,
    side: Option<&str>,
    photo: &[u8],
    check: &str,
) -> (String, serde_json::Value) {
    let licence = holder();
    let (token, url) = quiz(
        env,
        &format!("{what}@example.com"),
        &licence.number,
        json!({ step: 1 }),
    );
    upload(env, &token, step, side, photo).assert_status(200);
    crate::client_pages::post_json(env, &format!("/quiz/{token}/submit"), json!({}))
        .assert_status(200);
    let verification = completed(&env.client(), &url);
    outcome(&verification, check)
}

fn shots(document: &RgbImage, cases: &[(&'static str, Shot)]) -> Vec<(&'static str, Vec<u8>)> {
    cases
        .iter()
        .enumerate()
        .map(|(i, (what, shot))| (*what, photograph(document, shot, i as u64 + 1)))
        .collect()
}

pub fn licences_photographed(backend: Backend) {
    let env = Env::start(backend);
    let turned = |degrees| Shot { degrees, ..level() };
    let cases = [
        ("askew9", turned(9.0)),
        ("askew25", turned(-25.0)),
        ("askew40", turned(40.0)),
        (
            "tilted",
            Shot {
                keystone: 0.12,
                far_edge: 0,
                degrees: 4.0,
                ..level()
            },
        ),
        (
            "exif6",
            Shot {
                stored_turns: 3,
                exif: true,
                ..level()
            },
        ),
        (
            "quarter",
            Shot {
                stored_turns: 1,
                ..level()
            },
        ),
    ];
    let back = holder().back();
    let mut photos = shots(&back, &cases);
    photos.push(("scan", degrade::pdf(&back, 85, 2)));
    for (what, photo) in photos {
        let answer = read(
            &env,
            what,
            "driver_licence_upload",
            Some("back"),
            &photo,
            "barcode",
        );
        assert_eq!(answer, ("passed".to_owned(), json!([])), "{what}");
    }
}

pub fn passports_photographed(backend: Backend) {
    let env = Env::start(backend);
    let page = passport_of(&holder()).page(None).expect("OCR-B font");
    let cases = [
        (
            "page10",
            Shot {
                degrees: 10.0,
                ..level()
            },
        ),
        (
            "page25",
            Shot {
                degrees: -25.0,
                ..level()
            },
        ),
    ];
    let mut photos = shots(&page, &cases);
    photos.push(("pagescan", degrade::pdf(&page, 85, 1)));
    for (what, photo) in photos {
        let answer = read(&env, what, "passport_upload", None, &photo, "mrz");
        assert_eq!(answer, ("passed".to_owned(), json!([])), "{what}");
    }
}
