//! How long reading a licence's barcode takes, photo by photo: the cases of
//! `tests/barcode.rs`, timed (no personal data: the licence is a fixture's).
//!
//! `cargo run --release -p adapter-image --example barcode_timings`

use std::io::Cursor;
use std::time::Instant;

use adapter_image::barcode::read_barcode;
use domain::verification::BarcodeReading;
use fixtures::licence::Licence;
use image::{DynamicImage, GrayImage, Luma, RgbImage, imageops};
use imageproc::geometric_transformations::{Interpolation, Projection, rotate_about_center, warp};

fn grey(card: &RgbImage) -> GrayImage {
    DynamicImage::ImageRgb8(card.clone()).into_luma8()
}

/// The card on a darker table, turned clockwise by `degrees`, scaled by `scale`.
fn photo(card: &RgbImage, degrees: f32, scale: f32) -> GrayImage {
    let card = grey(card);
    let margin = card.width() / 3;
    let mut table = GrayImage::from_pixel(
        card.width() + 2 * margin,
        card.height() + 2 * margin,
        Luma([90]),
    );
    imageops::replace(&mut table, &card, i64::from(margin), i64::from(margin));
    let turned = rotate_about_center(
        &table,
        degrees.to_radians(),
        Interpolation::Bilinear,
        Luma([90]),
    );
    let (w, h) = (
        (turned.width() as f32 * scale) as u32,
        (turned.height() as f32 * scale) as u32,
    );
    imageops::resize(&turned, w, h, imageops::FilterType::Triangle)
}

fn jpeg(image: &GrayImage, quality: u8) -> GrayImage {
    let mut bytes = Vec::new();
    let encoder =
        image::codecs::jpeg::JpegEncoder::new_with_quality(Cursor::new(&mut bytes), quality);
    image.write_with_encoder(encoder).expect("JPEG encoding");
    image::load_from_memory(&bytes)
        .expect("JPEG decoding")
        .into_luma8()
}

/// The card turned by `degrees` on a table `margin` card widths wide on each side, the
/// whole scaled to `width` pixels wide.
fn framed(card: &RgbImage, degrees: f32, margin: f32, width: u32) -> GrayImage {
    let card = grey(card);
    let m = (card.width() as f32 * margin) as u32;
    let mut table = GrayImage::from_pixel(card.width() + 2 * m, card.height() + 2 * m, Luma([90]));
    imageops::replace(&mut table, &card, i64::from(m), i64::from(m));
    let turned = rotate_about_center(
        &table,
        degrees.to_radians(),
        Interpolation::Bilinear,
        Luma([90]),
    );
    let height = turned.height() * width / turned.width();
    imageops::resize(&turned, width, height, imageops::FilterType::Triangle)
}

/// The card turned by `degrees` on a table of strong stripes at 35 degrees.
fn striped(card: &RgbImage, degrees: f32) -> GrayImage {
    let mut image = photo(card, degrees, 1.0);
    let (sin, cos) = (35f32.to_radians().sin(), 35f32.to_radians().cos());
    for (x, y, pixel) in image.enumerate_pixels_mut() {
        if pixel.0[0] == 90 {
            let along = x as f32 * cos + y as f32 * sin;
            pixel.0[0] = if ((along / 12.0) as u32).is_multiple_of(2) {
                40
            } else {
                200
            };
        }
    }
    image
}

/// Grey noise in blocks of 3 pixels: edges everywhere, in every direction, and no code,
/// the most a reader can be asked to search (a fixed sequence, so every run times the same).
fn noise(width: u32, height: u32) -> GrayImage {
    let mut state: u32 = 0x2545_f491;
    let blocks: Vec<u8> = (0..(width / 3 + 1) * (height / 3 + 1))
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state >> 24) as u8
        })
        .collect();
    GrayImage::from_fn(width, height, |x, y| {
        Luma([blocks[((y / 3) * (width / 3 + 1) + x / 3) as usize]])
    })
}

fn blur(image: &GrayImage, sigma: f32) -> GrayImage {
    imageproc::filter::gaussian_blur_f32(image, sigma)
}

/// The photo taken from a little to the side: one edge of the frame shorter.
fn perspective(image: &GrayImage) -> GrayImage {
    let (w, h) = (image.width() as f32, image.height() as f32);
    let from = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)];
    let to = [(0.0, 0.0), (w, h * 0.08), (w, h * 0.92), (0.0, h)];
    let projection = Projection::from_control_points(from, to).expect("a projection");
    warp(image, &projection, Interpolation::Bilinear, Luma([90]))
}

/// Grey on grey: a dim, hazy photo.
fn low_contrast(image: &GrayImage) -> GrayImage {
    let mut image = image.clone();
    for pixel in image.pixels_mut() {
        pixel.0[0] = 100 + pixel.0[0] / 4;
    }
    image
}

fn main() {
    let licence = Licence::sample();
    let back = licence.back();
    let cases: Vec<(String, GrayImage)> = vec![
        ("clean 1200x760".into(), grey(&back)),
        ("60 % (720x456)".into(), {
            let g = grey(&back);
            imageops::resize(&g, 720, 456, imageops::FilterType::Triangle)
        }),
        ("JPEG q70, 5 deg".into(), jpeg(&photo(&back, 5.0, 1.0), 70)),
        ("3 deg".into(), photo(&back, 3.0, 1.0)),
        ("9 deg".into(), photo(&back, 9.0, 1.0)),
        ("15 deg".into(), photo(&back, 15.0, 1.0)),
        ("30 deg".into(), photo(&back, 30.0, 1.0)),
        ("-40 deg".into(), photo(&back, -40.0, 1.0)),
        ("8 deg, 4000 px photo".into(), photo(&back, 8.0, 2.25)),
        ("8 deg, 60 % photo".into(), photo(&back, 8.0, 0.6)),
        ("8 deg, 35 % photo".into(), photo(&back, 8.0, 0.35)),
        (
            "12 deg, 60 %, JPEG q40".into(),
            jpeg(&photo(&back, 12.0, 0.6), 40),
        ),
        ("45 deg".into(), photo(&back, 45.0, 1.0)),
        (
            "blur sigma 1.5, 7 deg".into(),
            blur(&photo(&back, 7.0, 1.0), 1.5),
        ),
        ("perspective".into(), perspective(&photo(&back, 0.0, 1.0))),
        (
            "low contrast, 10 deg".into(),
            low_contrast(&photo(&back, 10.0, 1.0)),
        ),
        (
            "card 1/3 of 4032 px, 6 deg".into(),
            framed(&back, 6.0, 1.0, 4032),
        ),
        (
            "card 1/2 of 4032 px, 6 deg".into(),
            framed(&back, 6.0, 0.5, 4032),
        ),
        ("striped table, 10 deg".into(), striped(&back, 10.0)),
        (
            "blank card".into(),
            GrayImage::from_pixel(1200, 760, Luma([235])),
        ),
        ("front (no barcode)".into(), grey(&licence.front(None))),
        (
            "front, 4032 px photo".into(),
            framed(&licence.front(None), 4.0, 0.5, 4032),
        ),
        ("noise 4032x3024 (worst)".into(), noise(4032, 3024)),
        ("noise 1000x700 (enlarged)".into(), noise(1000, 700)),
        (
            "foreign PDF417".into(),
            grey(&licence.back_carrying("NOT A LICENCE")),
        ),
    ];
    for (name, image) in cases {
        let start = Instant::now();
        let outcome = match read_barcode(&image) {
            BarcodeReading::Read(_) => "read",
            BarcodeReading::Invalid => "invalid",
            BarcodeReading::NotFound => "not found",
        };
        println!(
            "{name:<24} {:>5}x{:<5} {outcome:<10} {:>6} ms",
            image.width(),
            image.height(),
            start.elapsed().as_millis()
        );
    }
}
