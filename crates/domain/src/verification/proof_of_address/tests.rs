use time::macros::date;

use super::*;
use crate::verification::matching::AddressParts;
use crate::verification::{CheckStatus, ImageReport};

const SUBMITTED: Date = date!(2026 - 11 - 20);

/// A bill as `pdftotext -layout` lays it out: the letterhead and the issuer's address on
/// the left, the statement's dates on the right, the addressee block below.
const BILL: &str = "\
NORTHWIND ENERGY                                   Statement date: November 2, 2026
PO Box 4400, Dallas, TX 75201                      Account number: 4410-2231-09
                                                   Payment due: December 1, 2026
Mr Jane Q Doe                                      Amount due: $120.50
1234 N Main Street
San Francisco, CA 94105-1234

Billing period 09/28/2026 to 10/27/2026";

fn claimed() -> Claimed {
    Claimed {
        first_name: "Jane".into(),
        last_name: "Doe".into(),
        licence_number: None,
        address: AddressParts::of_one_line("1234 North Main St, San Francisco, CA 94105, US"),
        country: Some("US".into()),
    }
}

fn proof(step: Feature, document: &str, reading: TextReading) -> Examined {
    Examined {
        document_id: document.into(),
        step,
        side: None,
        report: ImageReport {
            text: Some(reading),
            ..ImageReport::default()
        },
    }
}

fn text(text: &str) -> TextReading {
    TextReading::Read(DocumentText {
        text: text.into(),
        edits: Vec::new(),
    })
}

fn bill(text_of: TextReading) -> Vec<Examined> {
    vec![proof(Feature::UtilityBillUpload, "d1", text_of)]
}

fn judged(images: &[Examined]) -> Check {
    proof_of_address(images, &claimed(), SUBMITTED, MaxAge::DEFAULT)
}

#[test]
fn a_bill_naming_the_client_at_their_address_recently_passes_and_says_what_it_read() {
    let check = judged(&bill(text(BILL)));
    assert_eq!(check.status, CheckStatus::Passed, "{check:?}");
    assert_eq!(check.document_id, Some("d1".into()));
    assert!(
        check
            .details
            .contains(&("age_days".to_owned(), Detail::Number(18)))
    );
    let reads = reads(&bill(text(BILL)), &claimed(), SUBMITTED);
    let [(document, read)] = reads.as_slice() else {
        panic!("one read: {reads:?}");
    };
    assert_eq!(document, &DocumentId::from("d1"));
    assert_eq!(
        read,
        &DocumentRead {
            source: Some(ReadSource::Text),
            document_type: Some("utility_bill".into()),
            issuer: Some("NORTHWIND ENERGY".into()),
            first_name: Some("Jane".into()),
            last_name: Some("Doe".into()),
            issued_on: Some(date!(2026 - 11 - 02)),
            address_line_1: Some("1234 N Main Street".into()),
            city: Some("San Francisco".into()),
            state: Some("CA".into()),
            postal: Some("94105-1234".into()),
            ..DocumentRead::default()
        }
    );
}

#[test]
fn a_scan_read_by_ocr_in_one_column_and_a_one_line_address_pass() {
    // OCR gives the blocks one under the other, the label above its value.
    let scanned = "BANCO DEL NORTE\nExtracto de cuenta\n\nSra. Jane Doe\n\
                   1234 North Main St., San Francisco, CA 94105\n\nFecha de emisión\n\
                   15 de octubre de 2026\n";
    let images = vec![proof(Feature::BankStatementUpload, "d2", text(scanned))];
    let check = judged(&images);
    assert_eq!(check.status, CheckStatus::Passed, "{check:?}");
    let read = &reads(&images, &claimed(), SUBMITTED)[0].1;
    assert_eq!(read.document_type.as_deref(), Some("bank_statement"));
    assert_eq!(read.issued_on, Some(date!(2026 - 10 - 15)));
    assert_eq!(read.city.as_deref(), Some("San Francisco"));
}

#[test]
fn a_postal_code_is_found_through_ocrs_usual_confusions() {
    for misread in ["San Francisco, CA 9410S", "San Francisco, CA 94IO5-1234"] {
        let scanned = BILL.replace("San Francisco, CA 94105-1234", misread);
        assert_eq!(
            judged(&bill(text(&scanned))).status,
            CheckStatus::Passed,
            "{misread}"
        );
    }
    let other = BILL.replace("94105-1234", "94106");
    assert_eq!(
        judged(&bill(text(&other))).reasons,
        [Reason::PoaAddressMismatch]
    );
}

#[test]
fn the_reviewers_marks_on_a_bills_reading_agree_with_the_check() {
    // The state is not read, the family name is two words, the zip carries its +4.
    let read = DocumentRead {
        source: Some(ReadSource::Text),
        first_name: Some("JANE".into()),
        last_name: Some("VAN DOE".into()),
        address_line_1: Some("1234 N Main Street".into()),
        postal: Some("94105-1234".into()),
        ..DocumentRead::default()
    };
    let claimed = Claimed {
        last_name: "Van Doe".into(),
        ..claimed()
    };
    assert_eq!(claimed.names_agree(&read), Some(true));
    assert_eq!(claimed.address_agrees(&read), Some(true));
    let moved = DocumentRead {
        address_line_1: Some("77 Elm Road".into()),
        ..read.clone()
    };
    assert_eq!(claimed.address_agrees(&moved), Some(false));
    let no_street = DocumentRead {
        address_line_1: None,
        ..read
    };
    assert_eq!(claimed.address_agrees(&no_street), None);
}

#[test]
fn each_difference_fails_with_its_own_reason() {
    let edited = TextReading::Read(DocumentText {
        text: BILL.into(),
        edits: vec![PdfEdit::IncrementalUpdate],
    });
    let cases: [(&str, TextReading, Vec<Reason>); 6] = [
        (
            "another person",
            text(&BILL.replace("Jane Q Doe", "John Roe")),
            vec![Reason::PoaNameMismatch],
        ),
        (
            "another street",
            text(&BILL.replace("1234 N Main Street", "77 Elm Road")),
            vec![Reason::PoaAddressMismatch],
        ),
        (
            "another zip",
            text(&BILL.replace("94105-1234", "10001")),
            vec![Reason::PoaAddressMismatch],
        ),
        (
            "200 days old",
            text(
                &BILL
                    .replace("November 2, 2026", "May 4, 2026")
                    .replace("10/27/2026", "05/03/2026"),
            ),
            vec![Reason::PoaTooOld],
        ),
        (
            "undated",
            text(
                &BILL
                    .replace("Statement date: November 2, 2026", "")
                    .replace("Payment due: December 1, 2026", "")
                    .replace("Billing period 09/28/2026 to 10/27/2026", ""),
            ),
            vec![Reason::PoaDateNotFound],
        ),
        ("edited", edited, vec![Reason::PoaPdfModified]),
    ];
    for (case, reading, reasons) in cases {
        let check = judged(&bill(reading));
        assert_eq!(
            (check.status, check.reasons),
            (CheckStatus::Failed, reasons),
            "{case}"
        );
    }
}

#[test]
fn the_merchants_max_age_is_counted_to_the_submission() {
    let images = bill(text(BILL));
    let strict = MaxAge::new(10).expect("valid");
    let check = proof_of_address(&images, &claimed(), SUBMITTED, strict);
    assert_eq!(check.reasons, [Reason::PoaTooOld]);
    let on_the_day = proof_of_address(&images, &claimed(), date!(2026 - 11 - 12), strict);
    assert_eq!(on_the_day.status, CheckStatus::Passed);
    for days in [0, 366, -1] {
        assert!(MaxAge::new(days).is_err(), "{days}");
    }
    assert_eq!(MaxAge::default().days(), 90);
}

#[test]
fn nothing_to_read_is_said_so() {
    let cases = [
        (Vec::new(), CheckStatus::NotApplicable, Reason::NoDocument),
        (
            bill(TextReading::OcrUnavailable),
            CheckStatus::NotApplicable,
            Reason::OcrUnavailable,
        ),
        (
            bill(TextReading::Unreadable),
            CheckStatus::Failed,
            Reason::PoaUnreadable,
        ),
    ];
    for (images, status, reason) in cases {
        let check = judged(&images);
        assert_eq!((check.status, check.reasons), (status, vec![reason]));
    }
}

#[test]
fn a_documents_files_are_read_together_and_every_document_must_pass() {
    // Two pages photographed apart: the date on the first, the addressee on the second.
    let (top, bottom) = BILL.split_at(BILL.find("Mr Jane").expect("the addressee"));
    let pages = vec![
        proof(Feature::UtilityBillUpload, "d1", text(top)),
        proof(Feature::UtilityBillUpload, "d1", text(bottom)),
    ];
    assert_eq!(judged(&pages).status, CheckStatus::Passed);
    let mut two = pages.clone();
    two.push(proof(
        Feature::BankStatementUpload,
        "d2",
        text(&BILL.replace("Jane Q Doe", "John Roe")),
    ));
    let check = judged(&two);
    assert_eq!(check.reasons, [Reason::PoaNameMismatch]);
    assert_eq!(check.document_id, Some("d2".into()));
}

#[test]
fn a_name_is_found_through_ocrs_confusions_and_one_letter_of_a_long_last_name() {
    let client = |first: &str, last: &str| Claimed {
        first_name: first.into(),
        last_name: last.into(),
        ..claimed()
    };
    let cases = [
        ("Chinedu", "Okafor", "MR CHINEDU OKAPOR", true),
        ("Chinedu", "Okafor", "CH1NEDU 0KAF0R", true),
        ("Liam", "O'Brien", "Mr LlAM 0 BRIEN", true),
        ("Chinedu", "Okafor", "MR CHINEDU OKAPQR", false),
        ("Jane", "Doe", "Mr Jane Q Dae", false),
        ("Maria", "Dupont", "Mme MARIE DUPONT", false),
    ];
    for (first, last, line, found) in cases {
        let named = BILL.replace("Mr Jane Q Doe", line);
        let check = proof_of_address(
            &bill(text(&named)),
            &client(first, last),
            SUBMITTED,
            MaxAge::DEFAULT,
        );
        let reasons = if found {
            vec![]
        } else {
            vec![Reason::PoaNameMismatch]
        };
        assert_eq!(check.reasons, reasons, "{line} for {first} {last}");
        // The reviewer's mark on the name read agrees with the check.
        let read = &reads(&bill(text(&named)), &client(first, last), SUBMITTED)[0].1;
        assert_eq!(client(first, last).names_agree(read), Some(found), "{line}");
    }
}
