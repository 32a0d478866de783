//! Licence backs made by the fixtures, photographed badly, read back field for field.

use std::io::Cursor;
use std::time::Duration;

use adapter_image::barcode::{read_barcode, read_barcode_within};
use adapter_image::budget::Budget;
use domain::verification::{BarcodeReading, DocumentRead, ReadSource};
use fixtures::licence::{Kind, Licence};
use image::{DynamicImage, GrayImage, Luma, RgbImage, imageops};
use imageproc::geometric_transformations::{Interpolation, rotate_about_center};

/// What reading `licence`'s barcode must give.
fn expected(licence: &Licence) -> DocumentRead {
    DocumentRead {
        source: Some(ReadSource::Barcode),
        document_type: Some(licence.kind.document_type().into()),
        issuer: Some(licence.state.clone()),
        first_name: Some(licence.first_name.clone()),
        middle_name: licence.middle_name.clone(),
        last_name: Some(licence.last_name.clone()),
        date_of_birth: Some(licence.date_of_birth),
        document_number: Some(licence.number.clone()),
        issued_on: Some(licence.issued_on),
        expires_on: Some(licence.expires_on),
        sex: Some(licence.sex.letter().into()),
        address_line_1: Some(licence.street.clone()),
        city: Some(licence.city.clone()),
        state: Some(licence.state.clone()),
        postal: Some(licence.postal.clone()),
        country: Some(licence.country().into()),
        marked_ages: licence.marked_ages(),
    }
}

fn grey(card: &RgbImage) -> GrayImage {
    DynamicImage::ImageRgb8(card.clone()).into_luma8()
}

/// A photo of the card lying on a darker table, turned clockwise by `degrees`, with room
/// around it so that no corner leaves the frame.
fn photo(card: &RgbImage, degrees: f32) -> GrayImage {
    let card = grey(card);
    let margin = card.width() / 3;
    let mut table = GrayImage::from_pixel(
        card.width() + 2 * margin,
        card.height() + 2 * margin,
        Luma([90]),
    );
    imageops::replace(&mut table, &card, i64::from(margin), i64::from(margin));
    rotate_about_center(
        &table,
        degrees.to_radians(),
        Interpolation::Bilinear,
        Luma([90]),
    )
}

/// Reading without [`read_barcode`]'s budget: these tests are about what is read, and a
/// build with less optimisation would spend more processor time on it.
fn read(image: &GrayImage) -> BarcodeReading {
    read_barcode_within(image, &Budget::start(Duration::from_secs(300)))
}

fn assert_reads(image: &GrayImage, licence: &Licence, case: &str) {
    match read(image) {
        BarcodeReading::Read(read) => assert_eq!(read, expected(licence), "{case}"),
        other => panic!("{case}: {other:?}"),
    }
}

#[test]
fn a_clean_back_reads_every_field_as_the_licence_states_it() {
    let licence = Licence::sample();
    assert_reads(&grey(&licence.back()), &licence, "clean");
    // Dates year first, a Canadian postal code, no middle name, an ID card.
    let ontario = Licence {
        kind: Kind::IdCard,
        ..Licence::ontario_sample()
    };
    assert_reads(&grey(&ontario.back()), &ontario, "ontario");
}

#[test]
fn a_turned_photo_reads_once_straightened() {
    let licence = Licence::sample();
    let back = licence.back();
    for degrees in [3.0, -9.0, 15.0, 30.0] {
        assert_reads(
            &photo(&back, degrees),
            &licence,
            &format!("{degrees} degrees"),
        );
    }
}

#[test]
fn a_card_turned_on_a_striped_table_reads() {
    // The table's stripes outvote the card's edges: the card's turn is the second guess.
    let licence = Licence::sample();
    let mut image = photo(&licence.back(), 10.0);
    let (sin, cos) = 35f32.to_radians().sin_cos();
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
    assert_reads(&image, &licence, "striped table");
}

#[test]
fn a_smaller_photo_reads() {
    let licence = Licence::sample();
    let back = grey(&licence.back());
    let (w, h) = (back.width() * 6 / 10, back.height() * 6 / 10);
    let small = imageops::resize(&back, w, h, imageops::FilterType::Triangle);
    assert_reads(&small, &licence, "60 %");
}

#[test]
fn a_jpeg_compressed_photo_reads() {
    let licence = Licence::sample();
    let mut jpeg = Vec::new();
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(Cursor::new(&mut jpeg), 70);
    photo(&licence.back(), 5.0)
        .write_with_encoder(encoder)
        .expect("JPEG encoding");
    let decoded = image::load_from_memory(&jpeg).expect("JPEG decoding");
    assert_reads(&decoded.into_luma8(), &licence, "JPEG quality 70");
}

#[test]
fn a_card_without_barcode_is_not_found_and_a_foreign_one_is_invalid() {
    let licence = Licence::sample();
    assert_eq!(read(&grey(&licence.front(None))), BarcodeReading::NotFound);
    assert_eq!(
        read_barcode(&GrayImage::from_pixel(1200, 760, Luma([235]))),
        BarcodeReading::NotFound
    );
    let foreign = licence.back_carrying("BOARDING PASS M1SAMPLE/ALEXANDRA EABC123 SFOJFK");
    assert_eq!(read(&grey(&foreign)), BarcodeReading::Invalid);
}
