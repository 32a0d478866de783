//! How far apart the perceptual hashes of `photo_reuse` are (contract §20): each of the
//! project's face photos against its own copies (resized, re-compressed, cropped, all
//! three), against the other photos, and a licence's portrait against a photo of that
//! portrait and against the other selfies. The figures of `docs/verification.md` (a
//! measurement, not a test; the photos from `scripts/face_photos.sh`, `IDV_TEST_FACES`).
//!
//! `cargo run --release -p adapter-image --example photo_hashes`

use adapter_image::{faces, hashes};
use fixtures::degrade;
use fixtures::licence::Licence;
use image::{RgbImage, imageops};

const PHOTOS: [&str; 3] = ["obama.jpg", "obama2.jpg", "biden.jpg"];

/// The hashes of an image as the analysis reads it: decoded from JPEG bytes.
fn hashed(jpeg: &[u8]) -> domain::verification::PhotoHashes {
    let gray = image::load_from_memory(jpeg).expect("a JPEG").to_luma8();
    let found = faces::detect(&gray);
    hashes::of(&gray, faces::largest(&found))
}

fn apart(a: Option<u64>, b: Option<u64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) => (a ^ b).count_ones().to_string(),
        _ => "no face".into(),
    }
}

fn photo(name: &str) -> RgbImage {
    fixtures::faces::photo(name).expect("the face photos (IDV_TEST_FACES)")
}

fn main() {
    println!("| photo (64 bits) | resized 80 %, JPEG 70 | JPEG 60 | cropped 3 % | all three |");
    println!("|---|---:|---:|---:|---:|");
    for name in PHOTOS {
        let original = photo(name);
        let base = hashed(&degrade::jpeg(&original, 90)).picture;
        let (w, h) = original.dimensions();
        let crop = |img: &RgbImage| {
            let (dx, dy) = (w * 3 / 200, h * 3 / 200);
            imageops::crop_imm(img, dx, dy, w - 2 * dx, h - 2 * dy).to_image()
        };
        let copies = [
            degrade::jpeg(&degrade::scale(&original, 0.8), 70),
            degrade::jpeg(&original, 60),
            degrade::jpeg(&crop(&original), 90),
            degrade::jpeg(&degrade::scale(&crop(&original), 0.8), 70),
        ];
        let row: Vec<String> = copies
            .iter()
            .map(|c| apart(base, hashed(c).picture))
            .collect();
        println!("| {name} | {} |", row.join(" | "));
    }
    println!();
    println!("| pair of different photos | bits apart |");
    println!("|---|---:|");
    for (i, a) in PHOTOS.iter().enumerate() {
        for b in &PHOTOS[i + 1..] {
            let (ha, hb) = (
                hashed(&degrade::jpeg(&photo(a), 90)),
                hashed(&degrade::jpeg(&photo(b), 90)),
            );
            println!("| {a} and {b} | {} |", apart(ha.picture, hb.picture));
        }
    }
    println!();
    // The licence's front with obama2.jpg as its portrait, and a photo of that portrait.
    let front = Licence::sample().front(Some(&photo("obama2.jpg")));
    let card = hashed(&degrade::jpeg(&front, 90));
    let corner = imageops::crop_imm(&front, 20, 130, 370, 460).to_image();
    println!("| selfie against the licence's portrait (the face's square, 40 bits) | bits apart |");
    println!("|---|---:|");
    for (what, selfie) in [
        (
            "a photo of the portrait, enlarged twice",
            imageops::resize(&corner, 740, 920, imageops::FilterType::CatmullRom),
        ),
        (
            "the same, 1.5 times",
            imageops::resize(&corner, 555, 690, imageops::FilterType::CatmullRom),
        ),
        (
            "obama2.jpg itself (the portrait's source)",
            photo("obama2.jpg"),
        ),
        (
            "obama.jpg (the same man, another photo)",
            photo("obama.jpg"),
        ),
        ("biden.jpg", photo("biden.jpg")),
    ] {
        let own = hashed(&degrade::jpeg(&selfie, 85));
        println!("| {what} | {} |", apart(card.portrait, own.portrait));
    }
}
