//! ID cards under `other_id_upload` (contract §18), over HTTP with generated cards: a TD1
//! ID card and a TD2 residence permit read by their zone, a broken composite check
//! digit named, and a US ID card read by its barcode. Nothing here is a real person's ID.

use fixtures::degrade;
use fixtures::id_card::{Format, IdCard};
use fixtures::licence::{Kind, Licence};
use serde_json::json;

use crate::client_pages::post_json;
use crate::documents_read::{
    document, documents, failed, holder, outcome, passed, passport_of, quiz, read_from,
    upload_usable,
};
use crate::support::{Backend, Env};
use crate::verification::completed;

/// The quiz of `email` asking for an other ID, its back uploaded as `bytes`, submitted
/// and verified: the verification.
fn verified_with_back(env: &Env, email: &str, bytes: &[u8]) -> serde_json::Value {
    let (token, url) = quiz(env, email, &holder().number, json!({"other_id_upload": 1}));
    upload_usable(env, &token, "other_id_upload", Some("back"), bytes);
    post_json(env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);
    completed(&env.client(), &url)
}

/// The sample holder's card of `format`.
fn card_of_holder(format: Format) -> IdCard {
    let mut card = IdCard::sample(format);
    card.holder = passport_of(&holder());
    card.holder.number = "D23145890".into();
    card.holder.personal_number = String::new();
    card
}

pub fn id_cards_read(backend: Backend) {
    let env = Env::start(backend);
    let not_applicable = || ("not_applicable".to_owned(), json!(["no_document"]));
    for (email, card, document_type) in [
        ("td1@example.com", card_of_holder(Format::Td1), "id_card"),
        (
            "td2@example.com",
            card_of_holder(Format::Td2).residence_permit(),
            "residence_permit",
        ),
    ] {
        let back = card.back().expect("the OCR-B typeface");
        let verification = verified_with_back(&env, email, &degrade::png(&back));
        passed(&verification, "mrz");
        assert_eq!(outcome(&verification, "barcode"), not_applicable());
        passed(&verification, "name_match");
        let all = documents(&env, email);
        let read = read_from(document(&all, "other_id_upload"), "mrz");
        assert_eq!(read["document_type"], document_type, "{read}");
        assert_eq!(read["document_number"], "D23145890", "{read}");
        assert_eq!(read["last_name"], card.holder.surname, "{read}");
    }
    // A composite check digit printed one off.
    let broken = card_of_holder(Format::Td1).with_broken_composite();
    let back = broken.back().expect("the OCR-B typeface");
    let verification = verified_with_back(&env, "broken@example.com", &degrade::png(&back));
    failed(&verification, "mrz", "mrz_check_digit_invalid");
    // A US ID card: its PDF417 read, no zone looked for.
    let us = Licence {
        kind: Kind::IdCard,
        ..holder()
    };
    let verification = verified_with_back(&env, "us@example.com", &degrade::png(&us.back()));
    passed(&verification, "barcode");
    assert_eq!(outcome(&verification, "mrz"), not_applicable());
    let all = documents(&env, "us@example.com");
    let read = read_from(document(&all, "other_id_upload"), "barcode");
    assert_eq!(read["document_type"], "id_card", "{read}");
}
