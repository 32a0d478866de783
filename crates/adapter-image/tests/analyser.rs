//! The analysis end to end on generated documents and real tesseract: what a passport
//! page's or an ID card's zone says, each way an image fails, and faces. A test whose programs or photos
//! are missing is reported ignored, with the reason ([`fixtures::needs`]).

use std::time::{Duration, Instant};

use adapter_image::Analyser;
use domain::ports::ImageAnalysis;
use domain::verification::{
    DocumentRead, FaceDescriptor, ImageReport, MrzReading, QualityIssue, ReadSource, Wanted,
};
use fixtures::degrade;
use fixtures::id_card::{Format, IdCard};
use fixtures::needs::{Need, trial};
use fixtures::passport::Passport;
use image::RgbImage;

const MRZ: Wanted = Wanted {
    barcode: false,
    mrz: true,
    faces: false,
    text: false,
};
const FACES: Wanted = Wanted {
    barcode: false,
    mrz: false,
    faces: true,
    text: false,
};

fn page(passport: &Passport, portrait: Option<&RgbImage>) -> RgbImage {
    passport.page(portrait).expect("the OCR-B typeface")
}

fn analysed(img: &RgbImage, wanted: Wanted) -> ImageReport {
    let started = Instant::now();
    // A generous budget: these tests are about what is read, whatever the build's
    // optimisation makes it cost (the budget has its own test).
    let analyser = Analyser::default().with_budget(Duration::from_secs(300));
    let report = analyser.analyse(&degrade::jpeg(img, 85), wanted);
    eprintln!("analysed in {:?}", started.elapsed());
    report
}

/// A face photo from `IDV_TEST_FACES` (see `scripts/face_photos.sh`): the tests that
/// call this need [`Need::FacePhotos`].
fn photo(name: &str) -> RgbImage {
    fixtures::faces::photo(name).unwrap_or_else(|| panic!("{name} in IDV_TEST_FACES"))
}

fn a_clean_passport_page_reads_with_every_field() {
    let passport = Passport::sample();
    let report = analysed(&page(&passport, None), MRZ);
    assert_eq!(report.quality, []);
    assert_eq!((report.barcode, report.faces), (None, None));
    let expected = DocumentRead {
        source: Some(ReadSource::Mrz),
        document_type: Some("passport".into()),
        issuer: Some(passport.nationality.clone()),
        first_name: Some("ANNA".into()),
        middle_name: Some("MARIA".into()),
        last_name: Some(passport.surname.clone()),
        date_of_birth: Some(passport.birth),
        document_number: Some(passport.number.clone()),
        expires_on: Some(passport.expiry),
        sex: Some(passport.sex.to_string()),
        country: Some(passport.nationality.clone()),
        ..DocumentRead::default()
    };
    assert_eq!(report.mrz, Some(MrzReading::Read(expected)));
}

fn a_page_photographed_askew_reads_too() {
    for degrees in [-7.0, 4.0] {
        let turned = degrade::rotate(&page(&Passport::sample(), None), degrees);
        let report = analysed(&turned, MRZ);
        assert!(
            matches!(report.mrz, Some(MrzReading::Read(_))),
            "{degrees}: {report:?}"
        );
    }
}

fn a_page_photographed_on_a_table_reads_too() {
    let page = degrade::scale(&page(&Passport::sample(), None), 0.6);
    let mut photo = RgbImage::from_pixel(1600, 1200, image::Rgb([60, 50, 45]));
    let (left, top) = ((1600 - page.width()) / 2, (1200 - page.height()) / 2);
    image::imageops::overlay(&mut photo, &page, i64::from(left), i64::from(top));
    let report = analysed(&degrade::rotate(&photo, 3.0), MRZ);
    assert!(
        matches!(report.mrz, Some(MrzReading::Read(_))),
        "{report:?}"
    );
}

fn id_cards_of_both_sizes_read_and_a_broken_composite_is_named() {
    for (card, document_type) in [
        (IdCard::sample(Format::Td1), "id_card"),
        (
            IdCard::sample(Format::Td2).residence_permit(),
            "residence_permit",
        ),
    ] {
        let back = card.back().expect("the OCR-B typeface");
        let report = analysed(&back, MRZ);
        let Some(MrzReading::Read(read)) = report.mrz else {
            panic!("{:?}: the zone was not read: {:?}", card.format, report.mrz);
        };
        assert_eq!(read.document_type.as_deref(), Some(document_type));
        assert_eq!(read.document_number.as_deref(), Some("D23145890"));
        assert_eq!(
            read.date_of_birth,
            Some(time::macros::date!(1974 - 08 - 12))
        );
        assert_eq!(read.expires_on, Some(card.holder.expiry));
        assert_eq!(
            (read.first_name.as_deref(), read.last_name.as_deref()),
            (Some("ANNA"), Some("ERIKSSON"))
        );
        let broken = card.with_broken_composite();
        let report = analysed(&broken.back().expect("the OCR-B typeface"), MRZ);
        assert_eq!(
            report.mrz,
            Some(MrzReading::CheckDigitInvalid),
            "{:?}",
            broken.format
        );
    }
}

fn a_broken_check_digit_is_named() {
    let passport = Passport::sample().with_broken_check_digit();
    let report = analysed(&page(&passport, None), MRZ);
    assert_eq!(report.mrz, Some(MrzReading::CheckDigitInvalid));
}

fn a_page_without_a_zone_has_none() {
    let report = analysed(
        &Passport::sample().page_without_mrz(None).expect("the font"),
        MRZ,
    );
    assert_eq!(report.mrz, Some(MrzReading::NotFound));
}

fn without_tesseract_the_zone_cannot_be_read_and_that_is_no_error() {
    let analyser = Analyser::new(Some("/nonexistent/bin/tesseract".into()));
    let report = analyser.analyse(&degrade::jpeg(&page(&Passport::sample(), None), 85), MRZ);
    assert_eq!(report.mrz, Some(MrzReading::OcrUnavailable));
    assert_eq!(report.quality, []);
}

fn each_fault_of_an_image_is_reported() {
    let clean = page(&Passport::sample(), None);
    let quality = |img: &RgbImage| analysed(img, Wanted::default()).quality;
    assert_eq!(quality(&clean), []);
    assert_eq!(quality(&degrade::blur(&clean, 3.0)), [QualityIssue::Blurry]);
    assert_eq!(
        quality(&degrade::darken(&clean, 0.3)),
        [QualityIssue::TooDark]
    );
    assert_eq!(quality(&degrade::glare(&clean)), [QualityIssue::TooBright]);
    assert_eq!(
        quality(&degrade::scale(&clean, 0.5)),
        [QualityIssue::TooSmall]
    );
}

fn bombs_garbage_and_pdfs_are_unreadable_without_being_decoded() {
    let analyser = Analyser::default();
    let wanted = Wanted {
        barcode: true,
        mrz: true,
        faces: true,
        text: false,
    };
    for bytes in [
        degrade::png_bomb(),
        b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n".to_vec(),
        b"not an image at all".to_vec(),
        Vec::new(),
    ] {
        let started = Instant::now();
        // Nothing found, and no face matcher to describe one with.
        let expected = ImageReport {
            descriptor: Some(FaceDescriptor::Unavailable),
            ..ImageReport::unreadable(wanted)
        };
        assert_eq!(analyser.analyse(&bytes, wanted), expected);
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
    }
}

fn a_tiny_image_is_too_small_and_nothing_breaks() {
    let wanted = Wanted {
        barcode: true,
        mrz: true,
        faces: true,
        text: false,
    };
    for (width, height) in [(1, 1), (5, 3), (300, 2)] {
        let tiny = RgbImage::from_pixel(width, height, image::Rgb([120, 130, 140]));
        let report = Analyser::default().analyse(&degrade::png(&tiny), wanted);
        assert!(report.quality.contains(&QualityIssue::TooSmall));
        assert_eq!(
            (report.mrz, report.faces),
            (Some(MrzReading::NotFound), Some(0))
        );
    }
}

fn pages_without_a_portrait_have_no_face_and_a_page_with_one_has_it() {
    assert_eq!(
        analysed(&page(&Passport::sample(), None), FACES).faces,
        Some(0)
    );
    let blank = RgbImage::from_pixel(1000, 700, image::Rgb([236, 238, 230]));
    assert_eq!(analysed(&blank, FACES).faces, Some(0));
    let portrait = photo("obama.jpg");
    let faces = analysed(&page(&Passport::sample(), Some(&portrait)), FACES).faces;
    assert!(faces >= Some(1), "{faces:?}");
}

fn a_selfie_shows_one_face_and_two_people_two() {
    for name in fixtures::faces::NAMES {
        let selfie = photo(name);
        assert_eq!(analysed(&selfie, FACES).faces, Some(1), "{name}");
    }
    let both = fixtures::faces::two_faces().expect("the photos");
    assert_eq!(analysed(&both, FACES).faces, Some(2));
}

fn the_port_answers_off_the_runtime_and_within_its_budget() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let bytes = degrade::jpeg(&page(&Passport::sample(), None), 85);
        let analyser = Analyser::default();
        let merchant = domain::merchant::MerchantId::new("m1");
        let report = analyser
            .examine(analyser.room(&merchant).await, bytes.clone(), MRZ)
            .await;
        assert!(matches!(report.mrz, Some(MrzReading::Read(_))));
        let hurried = Analyser::default().with_budget(Duration::from_millis(1));
        assert_eq!(
            hurried
                .examine(hurried.room(&merchant).await, bytes, MRZ)
                .await,
            ImageReport::unreadable(MRZ)
        );
    });
}

fn a_report_from_a_process_of_its_own_is_the_report_read_on_this_thread() {
    let passport = Passport::sample();
    let image = degrade::jpeg(&page(&passport, None), 85);
    let analyser = Analyser::default().with_budget(Duration::from_secs(300));
    let mut answer = Vec::new();
    adapter_image::isolated::serve(&analyser, MRZ, &image[..], &mut answer).expect("served");
    let sent: ImageReport = serde_json::from_slice(&answer).expect("a report");
    assert!(
        matches!(sent.mrz, Some(MrzReading::Read(_))),
        "the zone read, dates and all: {:?}",
        sent.mrz.as_ref().map(std::mem::discriminant)
    );
    assert_eq!(sent, analyser.analyse(&image, MRZ));
}

fn a_photo_whose_barcode_was_read_is_never_called_blurry() {
    let barcode = Wanted {
        barcode: true,
        mrz: false,
        faces: false,
        text: false,
    };
    let soft = degrade::blur(&fixtures::licence::Licence::sample().back(), 1.2);
    // Judged alone, the photo is too soft to pass...
    assert!(
        analysed(&soft, FACES)
            .quality
            .contains(&QualityIssue::Blurry),
        "the blur is one quality judges blurry"
    );
    // ...but its barcode reads, so a person could read it too.
    let report = analysed(&soft, barcode);
    assert!(
        matches!(
            report.barcode,
            Some(domain::verification::BarcodeReading::Read(_))
        ),
        "{:?}",
        report.barcode
    );
    assert!(
        !report.quality.contains(&QualityIssue::Blurry),
        "{:?}",
        report.quality
    );
}

fn pages_photographed_turned_and_on_tables_are_levelled_and_read() {
    use fixtures::corpus::{Shot, Table, photograph};
    let passport = Passport::sample();
    let page = page(&passport, None);
    for (degrees, stored_turns) in [(17.0, 0), (-28.0, 0), (3.0, 1)] {
        let shot = Shot {
            degrees,
            keystone: 0.04,
            far_edge: 2,
            share: 0.65,
            long_side: 3000,
            table: Table::Plain(image::Rgb([70, 60, 50])),
            shadow: 0.0,
            noise: 2.0,
            motion: 0,
            stored_turns,
            exif: false,
            jpeg: Some(88),
            pdf: false,
        };
        let analyser = Analyser::default().with_budget(Duration::from_secs(300));
        let report = analyser.analyse(&photograph(&page, &shot, 3), MRZ);
        match report.mrz {
            Some(MrzReading::Read(read)) => {
                assert_eq!(
                    read.document_number.as_deref(),
                    Some("L898902C3"),
                    "{degrees}"
                );
            }
            other => panic!("{degrees} degrees, {stored_turns} turns: {other:?}"),
        }
    }
}

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let tests = vec![
        trial(
            "a_clean_passport_page_reads_with_every_field",
            &[Need::Tesseract],
            a_clean_passport_page_reads_with_every_field,
        ),
        trial(
            "a_page_photographed_askew_reads_too",
            &[Need::Tesseract],
            a_page_photographed_askew_reads_too,
        ),
        trial(
            "a_page_photographed_on_a_table_reads_too",
            &[Need::Tesseract],
            a_page_photographed_on_a_table_reads_too,
        ),
        trial(
            "id_cards_of_both_sizes_read_and_a_broken_composite_is_named",
            &[Need::Tesseract],
            id_cards_of_both_sizes_read_and_a_broken_composite_is_named,
        ),
        trial(
            "a_broken_check_digit_is_named",
            &[Need::Tesseract],
            a_broken_check_digit_is_named,
        ),
        trial(
            "a_page_without_a_zone_has_none",
            &[Need::Tesseract],
            a_page_without_a_zone_has_none,
        ),
        trial(
            "without_tesseract_the_zone_cannot_be_read_and_that_is_no_error",
            &[],
            without_tesseract_the_zone_cannot_be_read_and_that_is_no_error,
        ),
        trial(
            "each_fault_of_an_image_is_reported",
            &[],
            each_fault_of_an_image_is_reported,
        ),
        trial(
            "bombs_garbage_and_pdfs_are_unreadable_without_being_decoded",
            &[],
            bombs_garbage_and_pdfs_are_unreadable_without_being_decoded,
        ),
        trial(
            "a_tiny_image_is_too_small_and_nothing_breaks",
            &[Need::Tesseract],
            a_tiny_image_is_too_small_and_nothing_breaks,
        ),
        trial(
            "pages_without_a_portrait_have_no_face_and_a_page_with_one_has_it",
            &[Need::FacePhotos],
            pages_without_a_portrait_have_no_face_and_a_page_with_one_has_it,
        ),
        trial(
            "a_selfie_shows_one_face_and_two_people_two",
            &[Need::FacePhotos],
            a_selfie_shows_one_face_and_two_people_two,
        ),
        trial(
            "the_port_answers_off_the_runtime_and_within_its_budget",
            &[Need::Tesseract],
            the_port_answers_off_the_runtime_and_within_its_budget,
        ),
        trial(
            "a_report_from_a_process_of_its_own_is_the_report_read_on_this_thread",
            &[Need::Tesseract],
            a_report_from_a_process_of_its_own_is_the_report_read_on_this_thread,
        ),
        trial(
            "a_photo_whose_barcode_was_read_is_never_called_blurry",
            &[],
            a_photo_whose_barcode_was_read_is_never_called_blurry,
        ),
        trial(
            "pages_photographed_turned_and_on_tables_are_levelled_and_read",
            &[Need::Tesseract],
            pages_photographed_turned_and_on_tables_are_levelled_and_read,
        ),
    ];
    libtest_mimic::run(&args, tests).exit();
}
