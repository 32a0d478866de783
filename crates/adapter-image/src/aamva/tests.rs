//! Records as real cards write them, quirks included, all of fictional people.

use time::macros::date;

use super::*;

/// A record with a well-formed header whose designators give each subfile's true offset
/// and length (each subfile is its type, its elements separated by LF, then CR).
fn record(version: u8, iin: &str, subfiles: &[(&str, &str)]) -> String {
    let jurisdiction_version = if version >= 2 { "00" } else { "" };
    let header_len = 9 + 6 + 2 + jurisdiction_version.len() + 2 + 10 * subfiles.len();
    let mut designators = String::new();
    let mut bodies = String::new();
    for (kind, elements) in subfiles {
        let body = format!("{kind}{elements}\r");
        let offset = header_len + bodies.len();
        designators.push_str(&format!("{kind}{offset:04}{:04}", body.len()));
        bodies.push_str(&body);
    }
    format!(
        "@\n\x1e\rANSI {iin}{version:02}{jurisdiction_version}{:02}{designators}{bodies}",
        subfiles.len()
    )
}

const V10_DL: &str = "DAQD1234567\nDCSSAMPLE\nDDEN\nDACALEXANDRA\nDDFN\nDADMARIE\nDDGN\n\
    DCAC\nDCBNONE\nDCDNONE\nDBD06012021\nDBB04121990\nDBA04122029\nDBC2\nDAU065 IN\n\
    DAYBRO\nDAG1234 ELM STREET\nDAISACRAMENTO\nDAJCA\nDAK958140000  \nDCF0123456789\n\
    DCGUSA\nDDH04122008\nDDI04122009\nDDJ04122011\nDDAF\nDDB08292017";

const JURISDICTION_SUBFILE: &str = "ZCAGRN\nZCBBLK";

fn v10_read() -> DocumentRead {
    DocumentRead {
        source: Some(ReadSource::Barcode),
        document_type: Some("licence".into()),
        issuer: Some("CA".into()),
        first_name: Some("ALEXANDRA".into()),
        middle_name: Some("MARIE".into()),
        last_name: Some("SAMPLE".into()),
        date_of_birth: Some(date!(1990 - 04 - 12)),
        document_number: Some("D1234567".into()),
        issued_on: Some(date!(2021 - 06 - 01)),
        expires_on: Some(date!(2029 - 04 - 12)),
        sex: Some("F".into()),
        address_line_1: Some("1234 ELM STREET".into()),
        city: Some("SACRAMENTO".into()),
        state: Some("CA".into()),
        postal: Some("95814".into()),
        country: Some("USA".into()),
        marked_ages: vec![
            (18, date!(2008 - 04 - 12)),
            (19, date!(2009 - 04 - 12)),
            (21, date!(2011 - 04 - 12)),
        ],
    }
}

#[test]
fn version_10_with_true_offsets_reads_every_field() {
    let text = record(
        10,
        "636014",
        &[("DL", V10_DL), ("ZC", JURISDICTION_SUBFILE)],
    );
    assert_eq!(parse(&text), Some(v10_read()));
}

#[test]
fn versions_8_and_9_read_alike_and_an_id_subfile_is_an_id_card() {
    let v8 = record(8, "636014", &[("DL", V10_DL)]);
    assert_eq!(parse(&v8), Some(v10_read()));
    let v9 = record(9, "636014", &[("ID", V10_DL), ("ZC", JURISDICTION_SUBFILE)]);
    let read = parse(&v9).expect("an ID card");
    assert_eq!(read.document_type.as_deref(), Some("id_card"));
    assert_eq!(read.document_number.as_deref(), Some("D1234567"));
}

#[test]
fn wrong_offsets_fall_back_to_splitting_on_separators() {
    let good = record(
        10,
        "636014",
        &[("DL", V10_DL), ("ZC", JURISDICTION_SUBFILE)],
    );
    // Offsets past the end, into the middle of an element, and 0.
    for offset in ["9999", "0050", "0000"] {
        let bad = good.replacen("DL0041", &format!("DL{offset}"), 1);
        assert_ne!(bad, good, "the designator is where the test expects it");
        assert_eq!(parse(&bad), Some(v10_read()), "offset {offset}");
    }
}

#[test]
fn a_mangled_compliance_indicator_and_header_still_read() {
    let good = record(10, "636014", &[("DL", V10_DL)]);
    let variants = [
        good.replacen("@\n\x1e\r", "@\n\r", 1),
        good.replacen("@\n\x1e\r", "", 1),
        good.replacen("ANSI ", "ANSI", 1),
        good.replacen("@\n\x1e\r", "@\r\n\x1e\r", 1),
    ];
    for text in variants {
        assert_eq!(parse(&text), Some(v10_read()), "{text:?}");
    }
}

#[test]
fn carriage_returns_and_record_separators_separate_elements_too() {
    let cr = record(10, "636014", &[("DL", &V10_DL.replace('\n', "\r"))]);
    assert_eq!(parse(&cr), Some(v10_read()));
    let rs = record(10, "636014", &[("DL", &V10_DL.replace('\n', "\x1e"))]);
    assert_eq!(parse(&rs), Some(v10_read()));
}

#[test]
fn version_3_splits_given_names_of_dct() {
    let dl = "DCTJOHN,QUINCY\nDCSPUBLIC\nDAQ123456789\nDBB07041976\nDBA07042027\n\
        DBD01022019\nDBC1\nDAG42 MAPLE AVE\nDAIALBANY\nDAJNY\nDAK122070000\nDCGUSA";
    let read = parse(&record(3, "636001", &[("DL", dl)])).expect("a version 3 record");
    assert_eq!(read.first_name.as_deref(), Some("JOHN"));
    assert_eq!(read.middle_name.as_deref(), Some("QUINCY"));
    assert_eq!(read.last_name.as_deref(), Some("PUBLIC"));
    assert_eq!(read.issuer.as_deref(), Some("NY"));
    assert_eq!(read.sex.as_deref(), Some("M"));
    assert_eq!(read.date_of_birth, Some(date!(1976 - 07 - 04)));
    assert_eq!(read.postal.as_deref(), Some("12207"));

    let spaced = dl.replace("DCTJOHN,QUINCY", "DCTJOHN QUINCY ADAMS");
    let read = parse(&record(3, "636001", &[("DL", &spaced)])).expect("a version 3 record");
    assert_eq!(read.first_name.as_deref(), Some("JOHN"));
    assert_eq!(read.middle_name.as_deref(), Some("QUINCY ADAMS"));
}

#[test]
fn version_1_reads_the_full_name_and_its_dates() {
    // Version 1: no jurisdiction version in the header, a full name, dates CCYYMMDD,
    // a letter for sex, a zip padded to 9 digits; some cards write `AAMVA` as file type.
    let dl = "DAQ987654321\nDAAPUBLIC,JANE,Q\nDAG9 OAK ST\nDAIPHOENIX\nDAJAZ\n\
        DAK850040000\nDBA20280101\nDBB19800229\nDBD20200101\nDBCF";
    for text in [
        record(1, "636026", &[("DL", dl)]),
        record(1, "636026", &[("DL", dl)]).replacen("ANSI ", "AAMVA", 1),
    ] {
        let read = parse(&text).expect("a version 1 record");
        assert_eq!(read.last_name.as_deref(), Some("PUBLIC"));
        assert_eq!(read.first_name.as_deref(), Some("JANE"));
        assert_eq!(read.middle_name.as_deref(), Some("Q"));
        assert_eq!(read.date_of_birth, Some(date!(1980 - 02 - 29)));
        assert_eq!(read.expires_on, Some(date!(2028 - 01 - 01)));
        assert_eq!(read.sex.as_deref(), Some("F"));
        assert_eq!(read.postal.as_deref(), Some("85004"));
        assert_eq!(read.issuer.as_deref(), Some("AZ"));
        assert_eq!(read.country.as_deref(), Some("USA"));
    }
    let spaced = dl.replace("DAAPUBLIC,JANE,Q", "DAAPUBLIC JANE");
    let read = parse(&record(1, "636026", &[("DL", &spaced)])).expect("a version 1 record");
    assert_eq!(
        (
            read.last_name.as_deref(),
            read.first_name.as_deref(),
            read.middle_name
        ),
        (Some("PUBLIC"), Some("JANE"), None)
    );
}

#[test]
fn canadian_cards_write_dates_year_first_and_keep_their_postal_codes() {
    let dl = "DAQS1234-56789-01234\nDCSTREMBLAY\nDACLUC\nDADNONE\nDBB19850315\n\
        DBA20300315\nDBD20250110\nDBC1\nDAG100 QUEEN ST W\nDAITORONTO\nDAJON\n\
        DAKm5v 2t6\nDCGCAN";
    let read = parse(&record(10, "636012", &[("DL", dl)])).expect("an Ontario record");
    assert_eq!(read.issuer.as_deref(), Some("ON"));
    assert_eq!(read.country.as_deref(), Some("CAN"));
    assert_eq!(read.date_of_birth, Some(date!(1985 - 03 - 15)));
    assert_eq!(read.expires_on, Some(date!(2030 - 03 - 15)));
    assert_eq!(read.issued_on, Some(date!(2025 - 01 - 10)));
    assert_eq!(read.postal.as_deref(), Some("M5V2T6"));
    assert_eq!(read.middle_name, None);
    assert_eq!(read.document_number.as_deref(), Some("S1234-56789-01234"));
}

#[test]
fn missing_optional_fields_are_absent_and_an_unknown_iin_falls_back_to_the_state() {
    let dl = "DAQX99\nDCSDOE\nDACJO\nDBB12311999\nDAJTX";
    let read = parse(&record(10, "999999", &[("DL", dl)])).expect("a sparse record");
    assert_eq!(
        read,
        DocumentRead {
            source: Some(ReadSource::Barcode),
            document_type: Some("licence".into()),
            issuer: Some("TX".into()),
            first_name: Some("JO".into()),
            last_name: Some("DOE".into()),
            date_of_birth: Some(date!(1999 - 12 - 31)),
            document_number: Some("X99".into()),
            state: Some("TX".into()),
            country: Some("USA".into()),
            ..DocumentRead::default()
        }
    );
    // Unreadable dates and sex are absent rather than guessed.
    let bad = dl.replace("DBB12311999", "DBB13311999\nDBCQ");
    let read = parse(&record(10, "999999", &[("DL", &bad)])).expect("a sparse record");
    assert_eq!((read.date_of_birth, read.sex), (None, None));
}

#[test]
fn text_that_is_no_aamva_record_is_none() {
    let no_elements = record(10, "636014", &[("DL", "")]);
    let only_vehicle = record(10, "636014", &[("DL", "DCAC\nDCBNONE")]);
    for text in [
        "",
        "hello world",
        "https://example.com/ANSI",
        "ANSI",
        "@\n\x1e\rANSI ",
        "DAQD1234567\nDCSSAMPLE",
        &no_elements,
        &only_vehicle,
        "\u{1F600}ANSI 636014\u{e9}",
    ] {
        assert_eq!(parse(text), None, "{text:?}");
    }
}
