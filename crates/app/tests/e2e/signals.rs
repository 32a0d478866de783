//! Signals across clients (contract §20), over HTTP: another client's selfie sent again,
//! resized and re-compressed, fails `photo_reuse`, as does another client's licence and a
//! selfie that is a photo of the licence's own portrait; another person, another holder's
//! licence of the same design, another merchant's client and a deleted profile's photo
//! pass. With the `face-match` feature and `face_search` on, the
//! same person's other photo under a second identity fails `duplicate_face`, as does a
//! face a reviewer blocked in the dashboard; `face_search` off is `not_applicable`.

use std::time::{Duration, Instant};

use fixtures::degrade;
use fixtures::licence::Licence;
use image::{RgbImage, imageops};
use serde_json::{Value, json};

use crate::Scenario;
use crate::client_pages::{post_json, upload_side};
use crate::dashboard::{csrf_of, first_profile_link, page, post_form, reviewer, signed_in};
use crate::documents_read::{face, holder, mobile_of, outcome, quiz, quiz_of, upload_usable};
use crate::support::{Backend, Client, Env};
use crate::verification::{check, completed};

pub const SCENARIOS: &[Scenario] = &[
    (
        "photo_reuse_finds_another_clients_selfie_resized_and_recompressed_and_a_selfie_taken_of_the_licence_portrait",
        photos,
    ),
    (
        "photo_reuse_finds_a_profiles_photo_no_more_once_retention_erased_it",
        erased_by_retention,
    ),
];

/// How long the restarted server may take to erase what retention owes.
const ERASED_WITHIN: Duration = Duration::from_secs(60);

/// Run with the `face-match` feature (their names hold "face").
pub const FACE_SCENARIOS: &[Scenario] = &[(
    "duplicate_face_finds_the_same_face_under_a_second_identity_and_a_face_a_reviewer_blocked",
    faces,
)];

/// A quiz of the test's merchant asking `email`'s client for a selfie alone, sent
/// `selfie`; its verification.
fn selfie_quiz(env: &Env, email: &str, selfie: &[u8]) -> Value {
    selfie_quiz_of(env, &env.client(), email, selfie)
}

/// The same for the merchant `client` signs for.
fn selfie_quiz_of(env: &Env, client: &Client, email: &str, selfie: &[u8]) -> Value {
    let steps = json!({"selfie_upload": 1});
    let (token, url) = quiz_of(client, email, &holder().number, steps);
    // A copy may be judged blurry (one enlarged, one re-compressed): it is still
    // verified, which is what is tested.
    upload_side(env, &token, "selfie_upload", None, selfie).assert_status(200);
    post_json(env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);
    completed(client, &url)
}

fn profiles(verification: &Value, name: &str) -> Value {
    check(verification, name)["details"]["profiles"].clone()
}

/// A quiz of the merchant `client` signs for, asking `email`'s client for `licence`'s two
/// sides, its portrait the face photo `portrait`; its verification.
fn licence_quiz(
    env: &Env,
    client: &Client,
    email: &str,
    licence: &Licence,
    portrait: &str,
) -> Value {
    let steps = json!({"driver_licence_upload": 1});
    let (token, url) = quiz_of(client, email, &licence.number, steps);
    let front = degrade::jpeg(&licence.front(Some(&face(portrait))), 90);
    upload_usable(env, &token, "driver_licence_upload", Some("front"), &front);
    let back = degrade::png(&licence.back());
    upload_usable(env, &token, "driver_licence_upload", Some("back"), &back);
    post_json(env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);
    completed(client, &url)
}

/// The licence's portrait, as a phone photographs the card's corner: cut out of the
/// card's front and enlarged.
fn photo_of_the_portrait(front: &RgbImage) -> RgbImage {
    let portrait = imageops::crop_imm(front, 20, 130, 370, 460).to_image();
    imageops::resize(&portrait, 740, 920, imageops::FilterType::CatmullRom)
}

fn photos(backend: Backend) {
    let env = Env::start(backend);
    let original = face("obama.jpg");

    let first = selfie_quiz(&env, "first@example.com", &degrade::jpeg(&original, 90));
    assert_eq!(
        outcome(&first, "photo_reuse"),
        ("passed".to_owned(), json!([])),
        "{first}"
    );
    assert_eq!(profiles(&first, "photo_reuse"), json!(0));
    assert_eq!(
        outcome(&first, "duplicate_face"),
        ("not_applicable".to_owned(), json!(["face_search_off"])),
        "face search is off by default"
    );

    let copy = degrade::jpeg(&degrade::scale(&original, 0.8), 70);
    let second = selfie_quiz(&env, "second@example.com", &copy);
    assert_eq!(
        outcome(&second, "photo_reuse"),
        (
            "failed".to_owned(),
            json!(["photo_used_by_another_profile"])
        ),
        "{second}"
    );
    assert_eq!(profiles(&second, "photo_reuse"), json!(1));
    assert_eq!(second["status"], "review", "{second}");

    let other = selfie_quiz(
        &env,
        "other@example.com",
        &degrade::jpeg(&face("biden.jpg"), 90),
    );
    assert_eq!(
        outcome(&other, "photo_reuse"),
        ("passed".to_owned(), json!([])),
        "{other}"
    );

    // Two clients' licences of one design, another holder and portrait each, are not one
    // picture; a licence another client sent is (a merchant of their own: the portraits
    // are the selfies' pictures above).
    let cards = env.server.client(&env.server.create_merchant("Cards"));
    let licence = holder();
    let mut robert = holder();
    robert.first_name = "ROBERT".into();
    robert.last_name = "MARTINEZ".into();
    robert.number = "B7654321".into();
    let first_card = licence_quiz(&env, &cards, "card1@example.com", &licence, "obama.jpg");
    assert_eq!(
        outcome(&first_card, "photo_reuse"),
        ("passed".to_owned(), json!([])),
        "{first_card}"
    );
    let other_card = licence_quiz(&env, &cards, "card2@example.com", &robert, "obama2.jpg");
    assert_eq!(
        outcome(&other_card, "photo_reuse"),
        ("passed".to_owned(), json!([])),
        "another holder's licence of the same design: {other_card}"
    );
    let same_card = licence_quiz(&env, &cards, "card3@example.com", &licence, "obama.jpg");
    assert_eq!(
        outcome(&same_card, "photo_reuse"),
        (
            "failed".to_owned(),
            json!(["photo_used_by_another_profile"])
        ),
        "{same_card}"
    );

    // Another merchant's clients are never searched.
    let elsewhere = env.server.client(&env.server.create_merchant("Elsewhere"));
    let theirs = selfie_quiz_of(&env, &elsewhere, "first@example.com", &copy);
    assert_eq!(
        outcome(&theirs, "photo_reuse"),
        ("passed".to_owned(), json!([])),
        "{theirs}"
    );

    // A selfie that is a photo of the card's portrait.
    let licence = holder();
    let front = licence.front(Some(&face("obama2.jpg")));
    let (token, url) = quiz(
        &env,
        "card@example.com",
        &licence.number,
        json!({"driver_licence_upload": 1, "selfie_upload": 1}),
    );
    let selfie = photo_of_the_portrait(&front);
    upload_usable(
        &env,
        &token,
        "driver_licence_upload",
        Some("front"),
        &degrade::jpeg(&front, 90),
    );
    upload_usable(
        &env,
        &token,
        "driver_licence_upload",
        Some("back"),
        &degrade::png(&licence.back()),
    );
    upload_side(
        &env,
        &token,
        "selfie_upload",
        None,
        &degrade::jpeg(&selfie, 85),
    )
    .assert_status(200);
    post_json(&env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);
    let card = completed(&env.client(), &url);
    assert_eq!(
        outcome(&card, "photo_reuse"),
        ("failed".to_owned(), json!(["selfie_is_document_photo"])),
        "{card}"
    );

    // Once the profiles that sent it are deleted, the photo is found no more.
    for email in ["first@example.com", "second@example.com"] {
        env.client()
            .call(
                "profile/delete",
                &json!({"email_address": email, "mobile_number": mobile_of(email)}),
            )
            .assert_status(200);
    }
    let after = selfie_quiz(&env, "after@example.com", &copy);
    assert_eq!(
        outcome(&after, "photo_reuse"),
        ("passed".to_owned(), json!([])),
        "{after}"
    );
}

/// Turns the merchant's face search on or off.
fn face_search(env: &Env, on: bool) {
    env.client()
        .call(
            "merchant/settings/update",
            &json!({"face_search": u8::from(on)}),
        )
        .assert_status(200);
}

fn faces(backend: Backend) {
    let env = Env::start(backend);
    face_search(&env, true);
    let jpeg = |name: &str| degrade::jpeg(&face(name), 90);

    let first = selfie_quiz(&env, "a@example.com", &jpeg("obama.jpg"));
    assert_eq!(
        outcome(&first, "duplicate_face"),
        ("passed".to_owned(), json!([])),
        "{first}"
    );
    assert_eq!(profiles(&first, "duplicate_face"), json!(0));

    // The same man in another photo, under a second identity.
    let second = selfie_quiz(&env, "b@example.com", &jpeg("obama2.jpg"));
    assert_eq!(
        outcome(&second, "duplicate_face"),
        ("failed".to_owned(), json!(["face_used_by_another_profile"])),
        "{second}"
    );
    assert_eq!(profiles(&second, "duplicate_face"), json!(1));
    assert_eq!(second["status"], "review", "{second}");
    assert_eq!(
        outcome(&second, "photo_reuse"),
        ("passed".to_owned(), json!([])),
        "another photo, not the same picture"
    );

    let other = selfie_quiz(&env, "c@example.com", &jpeg("biden.jpg"));
    assert_eq!(
        outcome(&other, "duplicate_face"),
        ("passed".to_owned(), json!([])),
        "{other}"
    );

    // A reviewer blocks that face in the dashboard.
    let password = reviewer(&env, "rev@example.com");
    let cookie = signed_in(&env, "rev@example.com", password);
    let list = page(&env, "/dashboard/profiles?q=c%40example.com", &cookie);
    let profile = first_profile_link(&list);
    let shown = page(&env, &profile, &cookie);
    assert!(shown.text().contains("Block this face"), "{}", shown.text());
    let csrf = csrf_of(&shown);
    let blocked = post_form(
        &env,
        &format!("{profile}/face/block"),
        &cookie,
        &format!("csrf_token={csrf}"),
    );
    assert_eq!(blocked.status, 303, "{}", blocked.text());
    let again = selfie_quiz(
        &env,
        "d@example.com",
        &degrade::jpeg(&degrade::scale(&face("biden.jpg"), 0.9), 80),
    );
    let (status, reasons) = outcome(&again, "duplicate_face");
    assert_eq!(status, "failed", "{again}");
    assert!(
        reasons
            .as_array()
            .is_some_and(|r| r.contains(&json!("face_on_blocklist"))),
        "{again}"
    );

    face_search(&env, false);
    let off = selfie_quiz(&env, "e@example.com", &jpeg("obama2.jpg"));
    assert_eq!(
        outcome(&off, "duplicate_face"),
        ("not_applicable".to_owned(), json!(["face_search_off"])),
        "{off}"
    );
}

/// A client approved 31 days ago under a retention of 30 days: once the restarted server
/// has erased its personal data, its selfie is another client's no more.
fn erased_by_retention(backend: Backend) {
    let mut env = Env::start(backend);
    let c = env.client();
    c.call("merchant/settings/update", &json!({"retention_days": 30}))
        .assert_status(200);
    let original = face("obama.jpg");
    let email = "gone@example.com";
    selfie_quiz(&env, email, &degrade::jpeg(&original, 90));
    let who = json!({"email_address": email, "mobile_number": mobile_of(email)});
    let mut decided = who.clone();
    decided["status"] = json!("Approved");
    c.call("profile/update-status", &decided).assert_status(200);
    let copy = degrade::jpeg(&degrade::scale(&original, 0.8), 70);
    let before = selfie_quiz(&env, "before@example.com", &copy);
    assert_eq!(
        outcome(&before, "photo_reuse"),
        (
            "failed".to_owned(),
            json!(["photo_used_by_another_profile"])
        ),
        "{before}"
    );

    let moved = env.server.db.execute(&format!(
        "UPDATE profiles SET status_changed_at = status_changed_at - {} \
         WHERE email_address = '{email}'",
        31 * 24 * 60 * 60
    ));
    assert_eq!(moved, 1);
    env.server.kill();
    env.server.restart();
    let c = env.client();
    let deadline = Instant::now() + ERASED_WITHIN;
    loop {
        let mut read = who.clone();
        read["limit"] = json!(50);
        let events = c.call("event/read", &read);
        let erased = events.assert_status(200)["events"]
            .as_array()
            .is_some_and(|e| e.iter().any(|e| e["activity"] == "personal_data_erased"));
        if erased {
            break;
        }
        assert!(Instant::now() < deadline, "no personal_data_erased event");
        std::thread::sleep(Duration::from_millis(100));
    }
    let after = selfie_quiz(&env, "after@example.com", &copy);
    let (status, reasons) = outcome(&after, "photo_reuse");
    assert_eq!(status, "failed", "{after}");
    assert_eq!(
        reasons,
        json!(["photo_used_by_another_profile"]),
        "the copy sent before is still another client's: {after}"
    );
    assert_eq!(
        profiles(&after, "photo_reuse"),
        json!(1),
        "but the erased client's is found no more: {after}"
    );
}
