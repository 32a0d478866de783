//! Verification reads the documents (contract §13, §14), over HTTP with generated
//! documents: a licence's PDF417 (AAMVA), a passport's MRZ in OCR-B read by the real
//! `tesseract`, photo quality judged at upload and again by the checks, faces found in
//! PyPI's `face_recognition` test portraits. Nothing here is a real person's ID.

use fixtures::degrade;
use fixtures::licence::Licence;
use fixtures::passport::Passport;
use image::RgbImage;
use serde_json::{Value, json};
use time::{Date, Duration, OffsetDateTime};

use crate::Scenario;
use crate::client_pages::{post_json, upload_side as upload};
use crate::dashboard;
use crate::support::{Backend, Client, Env, leaks};
use crate::verification::{CHECKS, check, completed};

pub const SCENARIOS: &[Scenario] = &[
    (
        "a_clean_licence_passport_and_selfie_pass_every_document_check_and_what_was_read_joins_the_documents",
        clean_documents,
    ),
    (
        "a_licence_photographed_askew_is_read_and_each_wrong_licence_fails_its_own_check",
        wrong_licences,
    ),
    (
        "a_broken_mrz_check_digit_a_faceless_selfie_and_a_blurred_small_photo_fail_and_the_upload_says_so_at_once",
        bad_images,
    ),
    (
        "licences_photographed_turned_9_25_and_40_degrees_tilted_a_quarter_turn_off_with_and_without_exif_or_scanned_as_a_pdf_are_read",
        crate::photos_read::licences_photographed,
    ),
    (
        "passport_pages_photographed_turned_10_and_25_degrees_or_scanned_as_a_pdf_are_read",
        crate::photos_read::passports_photographed,
    ),
    (
        "a_td1_id_card_and_a_td2_residence_permit_pass_mrz_a_broken_composite_is_named_and_a_us_id_cards_barcode_is_read",
        crate::id_cards::id_cards_read,
    ),
    (
        "a_bill_pdf_a_statement_scan_and_a_photo_of_a_bill_prove_an_address_and_old_foreign_moved_edited_and_hostile_ones_are_named",
        crate::proof_of_address::proofs_of_address_read,
    ),
    (
        "the_analysis_process_is_bounded_by_the_kernel_and_it_and_tesseract_are_given_none_of_the_servers_secrets",
        crate::children::analysis_sees_no_secret,
    ),
];

/// Whether this machine can run these scenarios: `tesseract`, poppler's `pdftoppm`, the
/// OCR-B font (unless `IDV_OCRB_FONT` names a missing one) and the face photos
/// (`scripts/face_photos.sh`, `IDV_TEST_FACES`).
pub fn available() -> bool {
    let runs = |command: &str, flag: &str| {
        std::process::Command::new(command)
            .arg(flag)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    runs("tesseract", "--version")
        && runs("pdftoppm", "-v")
        && fixtures::passport::ocrb_font().is_ok()
        && fixtures::faces::photo("obama.jpg").is_some()
}

fn today() -> Date {
    OffsetDateTime::now_utc().date()
}

fn iso(day: Date) -> String {
    format!(
        "{:04}-{:02}-{:02}",
        day.year(),
        u8::from(day.month()),
        day.day()
    )
}

pub fn face(name: &str) -> RgbImage {
    fixtures::faces::photo(name).unwrap_or_else(|| panic!("{name} in IDV_TEST_FACES"))
}

/// A licence holder whose card is valid today, born in 1990.
pub fn holder() -> Licence {
    Licence::sample()
}

/// The passport of the licence's holder.
pub fn passport_of(licence: &Licence) -> Passport {
    let mut passport = Passport::sample();
    passport.surname = licence.last_name.clone();
    passport.given_names = match &licence.middle_name {
        Some(middle) => format!("{} {middle}", licence.first_name),
        None => licence.first_name.clone(),
    };
    passport.birth = licence.date_of_birth;
    passport.expiry = today() + Duration::days(3 * 365);
    passport
}

/// The mobile number of the client with this e-mail (each client its own).
pub fn mobile_of(email: &str) -> String {
    let n: u32 = email.bytes().map(u32::from).sum();
    format!("416555{:04}", n % 10_000)
}

/// Sends the sample holder a quiz asking for `steps`, the profile keeping the holder's
/// names and `number`; returns the token and the long address.
pub fn quiz(env: &Env, email: &str, number: &str, steps: Value) -> (String, String) {
    quiz_of(&env.client(), email, number, steps)
}

/// The same, for the merchant `client` signs for.
pub fn quiz_of(client: &Client, email: &str, number: &str, steps: Value) -> (String, String) {
    let licence = holder();
    let body = json!({
        "email_address": email,
        "mobile_number": mobile_of(email),
        "first_name": titled(&licence.first_name),
        "last_name": titled(&licence.last_name),
        "driver_licence_id": number,
        "template": {"list": steps},
    });
    let out = client.call("quiz/create", &body);
    let long = out.assert_status(201)["long_url"]
        .as_str()
        .expect("long url")
        .to_owned();
    let token = long.rsplit('/').next().expect("token").to_owned();
    (token, long)
}

/// "JANE" as a client types it: "Jane".
pub fn titled(name: &str) -> String {
    let lower = name.to_lowercase();
    let mut chars = lower.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Uploads and expects the quality check to pass at once.
pub fn upload_usable(env: &Env, token: &str, step: &str, side: Option<&str>, bytes: &[u8]) {
    let reply = upload(env, token, step, side, bytes);
    let out = reply.assert_status(200);
    assert_eq!(
        out["quality"],
        json!({"status": "passed", "reasons": []}),
        "{step} {side:?}: {out}"
    );
}

/// Types the licence's address and `born`, then submits.
pub fn type_and_submit(
    env: &Env,
    token: &str,
    licence: &Licence,
    postal: &str,
    born: Option<Date>,
) {
    let mut fields = json!({
        "address_line_1": titled(&licence.street),
        "city": titled(&licence.city),
        "state": licence.state,
        "postal": postal,
        "country": "US",
    });
    if let Some(born) = born {
        fields["date_of_birth"] = json!(iso(born));
    }
    post_json(env, &format!("/quiz/{token}/fields"), fields).assert_status(200);
    post_json(env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);
}

pub fn outcome(verification: &Value, name: &str) -> (String, Value) {
    let c = check(verification, name);
    (
        c["status"].as_str().expect("status").to_owned(),
        c["reasons"].clone(),
    )
}

pub fn passed(verification: &Value, name: &str) {
    assert_eq!(
        outcome(verification, name),
        ("passed".to_owned(), json!([])),
        "{name}: {verification}"
    );
}

pub fn failed(verification: &Value, name: &str, reason: &str) {
    let (status, reasons) = outcome(verification, name);
    assert_eq!(status, "failed", "{name}: {verification}");
    assert!(
        reasons
            .as_array()
            .expect("reasons")
            .contains(&json!(reason)),
        "{name} for {reason}: {verification}"
    );
}

/// The profile's documents, newest first.
pub fn documents(env: &Env, email: &str) -> Vec<Value> {
    let out = env.client().call(
        "document/read",
        &json!({"email_address": email, "mobile_number": mobile_of(email), "limit": 25}),
    );
    out.assert_status(200)["documents"]
        .as_array()
        .expect("documents")
        .clone()
}

pub fn document<'a>(all: &'a [Value], step: &str) -> &'a Value {
    all.iter()
        .find(|d| d["name"] == step)
        .unwrap_or_else(|| panic!("a {step} among {all:?}"))
}

/// What a document's `data` says was read from `source`.
pub fn read_from<'a>(document: &'a Value, source: &str) -> &'a Value {
    document["data"]
        .as_array()
        .expect("data")
        .iter()
        .find(|e| e["source"] == source)
        .unwrap_or_else(|| panic!("a {source} entry in {document}"))
}

fn clean_documents(backend: Backend) {
    // Everything logged, to show that nothing read is.
    let env = Env::start_with(backend, &[("IDV_LOG", "debug")]);
    let licence = holder();
    let passport = passport_of(&licence);
    let (token, url) = quiz(
        &env,
        "jane@example.com",
        &licence.number,
        json!({"driver_licence_upload": 1, "passport_upload": 1, "selfie_upload": 1,
               "address_submit": 1, "date_of_birth_submit": 1}),
    );
    // The ID's portraits are another photo of the selfie's man: a selfie that is the
    // portrait's own picture fails `photo_reuse` (selfie_is_document_photo).
    let selfie = face("obama.jpg");
    let front = degrade::jpeg(&licence.front(Some(&face("obama2.jpg"))), 90);
    let back = degrade::png(&licence.back());
    let page = passport
        .page(Some(&face("obama2.jpg")))
        .expect("OCR-B font");
    upload_usable(&env, &token, "driver_licence_upload", Some("front"), &front);
    upload_usable(&env, &token, "driver_licence_upload", Some("back"), &back);
    upload_usable(&env, &token, "passport_upload", None, &degrade::png(&page));
    upload_usable(
        &env,
        &token,
        "selfie_upload",
        None,
        &degrade::jpeg(&selfie, 90),
    );
    type_and_submit(
        &env,
        &token,
        &licence,
        &licence.postal,
        Some(licence.date_of_birth),
    );

    let verification = completed(&env.client(), &url);
    // Every check passes but those with nothing to look at here: no SSN was asked, no
    // device fingerprint taken, no bill sent, the merchant does not screen nor search
    // faces, and this build matches no faces.
    let not_asked = [
        "ssn_format",
        "duplicate_device",
        "face_match",
        "proof_of_address",
        "watchlist",
        "duplicate_face",
    ];
    for name in CHECKS.iter().filter(|name| !not_asked.contains(name)) {
        passed(&verification, name);
    }
    // The portraits are another photo of the selfie's man.
    if crate::face_match::matching() {
        passed(&verification, "face_match");
    } else {
        assert_eq!(
            outcome(&verification, "face_match"),
            (
                "not_applicable".to_owned(),
                json!(["face_matcher_unavailable"])
            )
        );
    }
    assert_eq!(verification["status"], "passed", "{verification}");
    let text = verification.to_string();
    assert!(
        !text.contains(&licence.number) && !text.contains(&passport.number),
        "no document number in a verification: {text}"
    );

    // What was read joins each document's data, beside its files and their sides.
    let all = documents(&env, "jane@example.com");
    let licences: Vec<&Value> = all
        .iter()
        .filter(|d| d["name"] == "driver_licence_upload")
        .collect();
    let sides: Vec<&Value> = licences
        .iter()
        .flat_map(|d| d["data"].as_array().expect("data"))
        .filter_map(|e| e.get("side"))
        .collect();
    assert!(
        sides.contains(&&json!("front")) && sides.contains(&&json!("back")),
        "{all:?}"
    );
    let barcode = licences
        .iter()
        .find_map(|d| {
            d["data"]
                .as_array()
                .expect("data")
                .iter()
                .find(|e| e["source"] == "barcode")
        })
        .unwrap_or_else(|| panic!("a barcode entry in {licences:?}"));
    assert_eq!(barcode["first_name"], licence.first_name);
    assert_eq!(barcode["last_name"], licence.last_name);
    assert_eq!(barcode["document_number"], licence.number);
    assert_eq!(barcode["date_of_birth"], iso(licence.date_of_birth));
    assert_eq!(barcode["expires_on"], iso(licence.expires_on));
    assert_eq!(barcode["state"], licence.state);
    assert_eq!(barcode["postal"], licence.postal);
    let mrz = read_from(document(&all, "passport_upload"), "mrz");
    assert_eq!(mrz["document_type"], "passport");
    assert_eq!(mrz["document_number"], passport.number);
    assert_eq!(mrz["date_of_birth"], iso(passport.birth));
    assert_eq!(mrz["expires_on"], iso(passport.expiry));

    let born = iso(licence.date_of_birth);
    let read_values = [&*licence.number, &passport.number, &*licence.street, &*born];
    let html = sealed_and_reviewed(&env, &read_values);
    assert!(
        html.contains("Read from the barcode, beside what was typed"),
        "{html}"
    );
    assert!(
        html.contains("Read from the machine-readable zone"),
        "{html}"
    );
    assert!(html.contains(&licence.number), "the number read is shown");
    assert!(
        html.contains("Agrees") && !html.contains("Differs"),
        "{html}"
    );
    assert!(
        html.contains("(front)") && html.contains("(back)"),
        "each file's side"
    );

    // Checks that decoded every photo kept the server well within its memory budget.
    let peak = env.server.peak_memory_bytes();
    assert!(
        peak < 400 * 1024 * 1024,
        "peak resident memory {peak} bytes"
    );
}

/// Checks that `read_values` are sealed where they are stored and never logged, then
/// signs a reviewer in: the page of the first profile listed, where what was read is set
/// beside what was typed, each comparison marked.
pub fn sealed_and_reviewed(env: &Env, read_values: &[&str]) -> String {
    leaks::assert_stored_sealed(env, read_values);
    leaks::assert_not_logged(env, read_values);
    let password = dashboard::reviewer(env, "rita@example.com");
    let cookie = dashboard::signed_in(env, "rita@example.com", password);
    let list = dashboard::page(env, "/dashboard/profiles", &cookie);
    dashboard::page(env, &dashboard::first_profile_link(&list), &cookie).text()
}

/// One licence per failure, each for its own client: (what is wrong, its card, the
/// number the profile keeps, the postal code typed, the birth date typed, the check that
/// must fail, its reason).
type WrongLicence = (
    &'static str,
    Licence,
    String,
    String,
    Option<Date>,
    &'static str,
    &'static str,
);

fn wrong_licences(backend: Backend) {
    let env = Env::start(backend);
    let sample = holder();
    let fifteen = Licence {
        date_of_birth: today() - Duration::days(15 * 365 + 30),
        issued_on: today() - Duration::days(30),
        with_marked_ages: false,
        ..holder()
    };
    let expired = Licence {
        issued_on: today() - Duration::days(6 * 365),
        expires_on: today() - Duration::days(10),
        ..holder()
    };
    let other_name = Licence {
        last_name: "ROE".to_owned(),
        ..holder()
    };
    let cases: Vec<WrongLicence> = vec![
        (
            "fifteen",
            fifteen,
            sample.number.clone(),
            sample.postal.clone(),
            None,
            "minimum_age",
            "minimum_age_not_met",
        ),
        (
            "expired",
            expired,
            sample.number.clone(),
            sample.postal.clone(),
            Some(sample.date_of_birth),
            "document_expiry",
            "document_expired",
        ),
        (
            "name",
            other_name,
            sample.number.clone(),
            sample.postal.clone(),
            Some(sample.date_of_birth),
            "name_match",
            "name_mismatch",
        ),
        (
            "birth",
            holder(),
            sample.number.clone(),
            sample.postal.clone(),
            Some(sample.date_of_birth + Duration::days(1)),
            "date_of_birth_match",
            "date_of_birth_mismatch",
        ),
        (
            "number",
            holder(),
            "X9999999".to_owned(),
            sample.postal.clone(),
            Some(sample.date_of_birth),
            "document_number_match",
            "document_number_mismatch",
        ),
        (
            "address",
            holder(),
            sample.number.clone(),
            "10001".to_owned(),
            Some(sample.date_of_birth),
            "address_match",
            "address_mismatch",
        ),
    ];
    let steps = json!({"driver_licence_upload": 1, "address_submit": 1, "date_of_birth_submit": 2});
    let mut sent = Vec::new();
    for (what, card, number, postal, born, _, _) in &cases {
        let (token, url) = quiz(&env, &format!("{what}@example.com"), number, steps.clone());
        upload_usable(
            &env,
            &token,
            "driver_licence_upload",
            Some("back"),
            &degrade::png(&card.back()),
        );
        type_and_submit(&env, &token, card, postal, *born);
        sent.push(url);
    }
    // A clean card photographed 9 degrees askew, as a JPEG.
    let askew = degrade::jpeg(&degrade::rotate(&sample.back(), 9.0), 85);
    let (token, askew_url) = quiz(&env, "askew@example.com", &sample.number, steps);
    upload_usable(&env, &token, "driver_licence_upload", Some("back"), &askew);
    type_and_submit(
        &env,
        &token,
        &sample,
        &sample.postal,
        Some(sample.date_of_birth),
    );

    for ((what, _, _, _, _, name, reason), url) in cases.iter().zip(&sent) {
        let verification = completed(&env.client(), url);
        failed(&verification, name, reason);
        passed(&verification, "barcode");
        // Only what is wrong fails: the card's own dates still agree.
        if *what != "fifteen" {
            passed(&verification, "document_dates");
        }
    }
    let askew = completed(&env.client(), &askew_url);
    for name in [
        "barcode",
        "name_match",
        "document_number_match",
        "address_match",
    ] {
        passed(&askew, name);
    }
}

fn bad_images(backend: Backend) {
    let env = Env::start(backend);
    let licence = holder();
    let passport = passport_of(&licence).with_broken_check_digit();
    let (token, url) = quiz(
        &env,
        "jane@example.com",
        &licence.number,
        json!({"driver_licence_upload": 1, "passport_upload": 1, "selfie_upload": 1}),
    );
    // A blurred, small photo of the back: the answer says at once what is wrong.
    let small = degrade::scale(&degrade::blur(&licence.back(), 4.0), 0.4);
    let reply = upload(
        &env,
        &token,
        "driver_licence_upload",
        Some("back"),
        &degrade::jpeg(&small, 80),
    );
    let out = reply.assert_status(200);
    assert_eq!(out["quality"]["status"], "failed", "{out}");
    let reasons = out["quality"]["reasons"]
        .as_array()
        .expect("reasons")
        .clone();
    assert!(
        reasons.contains(&json!("image_too_small")) && reasons.contains(&json!("image_blurry")),
        "{out}"
    );
    // A side is only a licence's or another ID's, and only front or back.
    upload(
        &env,
        &token,
        "driver_licence_upload",
        Some("top"),
        &degrade::png(&licence.back()),
    )
    .assert_error(400, &["SIDE_INVALID"]);
    let page = passport
        .page(Some(&face("obama2.jpg")))
        .expect("OCR-B font");
    upload(
        &env,
        &token,
        "passport_upload",
        Some("front"),
        &degrade::png(&page),
    )
    .assert_error(400, &["SIDE_INVALID"]);
    upload_usable(&env, &token, "passport_upload", None, &degrade::png(&page));
    // The PNG bomb (874 KB declaring 30000 x 30000 pixels) never reaches the analysis:
    // the upload reads its header and refuses it (the analysis would call it unreadable).
    upload(&env, &token, "selfie_upload", None, &degrade::png_bomb())
        .assert_error(400, &["FILE_INVALID"]);
    // A "selfie" of the card's back: usable, but nobody in it.
    upload_usable(
        &env,
        &token,
        "selfie_upload",
        None,
        &degrade::png(&licence.back()),
    );
    post_json(&env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);

    let verification = completed(&env.client(), &url);
    failed(&verification, "document_quality", "image_blurry");
    failed(&verification, "document_quality", "image_too_small");
    failed(&verification, "barcode", "barcode_not_found");
    failed(&verification, "mrz", "mrz_check_digit_invalid");
    failed(&verification, "selfie_face", "no_face");
    assert_eq!(verification["status"], "review", "{verification}");
    let peak = env.server.peak_memory_bytes();
    assert!(
        peak < 400 * 1024 * 1024,
        "peak resident memory {peak} bytes"
    );
}
