//! A reviewer's day in a real browser (headless Chromium over WebDriver): sign in, find a
//! client who submitted a quiz, look at their passport, approve it and them, write a
//! note and send a new link; then the signed API shows all of it.

use fantoccini::{Client, Locator};
use fixtures::degrade;
use serde_json::{Value, json};

use crate::browser::{Driver, Screen, click, drive, fill, screenshot, session, wait_for};
use crate::client_pages::{post_json, send_quiz, upload};
use crate::dashboard::reviewer;
use crate::documents_read;
use crate::support::{Backend, Env};
use crate::templates::create_template;
use crate::verification::completed;

/// A specimen passport page (rendered once by Chromium from an SVG drawing).
const PASSPORT: &[u8] = include_bytes!("../fixtures/specimen-passport.png");
const EMAIL: &str = "rev@example.com";

/// Chooses `value` in the `<select>` that `css` finds.
async fn choose(browser: &Client, css: &str, value: &str) {
    let select = browser.find(Locator::Css(css)).await.expect(css);
    select.select_by_value(value).await.expect("chosen");
}

async fn text_of(browser: &Client, css: &str) -> String {
    browser
        .find(Locator::Css(css))
        .await
        .expect(css)
        .text()
        .await
        .expect("text")
}

pub fn a_reviewer_works_in_a_real_browser(backend: Backend) {
    let env = Env::start(backend);
    let password = reviewer(&env, EMAIL);
    let template = create_template(&env, "Passport check", json!({"passport_upload": 1}));
    // Ada completes a quiz: her passport and her date of birth.
    let (token, _, _) = send_quiz(
        &env,
        json!({"passport_upload": 1, "date_of_birth_submit": 1}),
    );
    upload(
        &env,
        &token,
        "passport_upload",
        &[("passport.png", PASSPORT)],
    )
    .assert_status(200);
    post_json(
        &env,
        &format!("/quiz/{token}/fields"),
        json!({"date_of_birth": "1990-12-10"}),
    )
    .assert_status(200);
    post_json(&env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);
    // Someone else, so that the search has something to leave out.
    env.client()
        .call(
            "profile/create",
            &json!({"email_address": "grace@example.com", "mobile_number": "4165550188",
                "first_name": "Grace", "last_name": "Hopper"}),
        )
        .assert_status(201);

    let scratch = tempfile::tempdir().expect("scratch folder");
    let driver = Driver::start();
    let tiny_url = drive(async {
        let browser = session(&driver, &scratch.path().join("profile"), Screen::Desktop).await;
        browser
            .goto(&format!("{}/dashboard", env.server.base_url))
            .await
            .expect("dashboard");
        wait_for(&browser, "Sign in").await;
        browser.set_window_size(320, 844).await.expect("narrow");
        let overflow = crate::accessibility::sideways(&browser).await;
        assert_eq!(overflow, None, "the sign-in page at 320 px");
        browser.set_window_size(1280, 1000).await.expect("desktop");
        sign_in(&browser, &env, password).await;
        wait_for(&browser, "grace@example.com").await;

        fill(&browser, "#q", "lovelace").await;
        click(&browser, "form[role=search] button").await;
        wait_for(&browser, "1 of 2").await;
        let source = browser.source().await.expect("source");
        assert!(
            !source.contains("grace@example.com"),
            "the search leaves her out"
        );
        click(&browser, "a[href^='/dashboard/profiles/']").await;
        wait_for(&browser, "What the client submitted").await;
        let profile_url = browser.current_url().await.expect("url");

        // The passport is shown: the browser loaded and decoded it.
        let loaded: Value = browser
            .execute(
                "const img = document.querySelector('img.document-image');\
                 return img && img.complete ? img.naturalWidth : 0;",
                vec![],
            )
            .await
            .expect("script");
        assert_eq!(loaded, json!(600), "the passport image is shown");
        screenshot(&browser, "dashboard-profile-desktop.png").await;
        browser
            .set_window_size(390, 844)
            .await
            .expect("phone width");
        screenshot(&browser, "dashboard-profile-phone.png").await;
        // Reflow (WCAG 2.2, 1.4.10): at 320, 390 and 1280 px no page of the dashboard scrolls
        // sideways (a wide table scrolls in its own box).
        let quiz_url: Value = browser
            .execute(
                "const a = document.querySelector(\"a[href^='/dashboard/quizzes/']\");\
                 return a ? a.href : null;",
                vec![],
            )
            .await
            .expect("script");
        let quiz_url = quiz_url
            .as_str()
            .expect("the profile lists its quiz")
            .to_owned();
        let page = |path: &str| format!("{}/dashboard/{path}", env.server.base_url);
        let pages = [
            profile_url.to_string(),
            quiz_url,
            page("profiles"),
            page("templates"),
            page("audit"),
            page("settings"),
        ];
        for width in [320, 390, 1280] {
            browser.set_window_size(width, 844).await.expect("narrow");
            for url in &pages {
                browser.goto(url).await.expect("page");
                wait_for(&browser, "</main>").await;
                let overflow = crate::accessibility::sideways(&browser).await;
                assert_eq!(overflow, None, "{url} at {width} px");
            }
        }
        browser.goto(profile_url.as_str()).await.expect("back");
        browser.set_window_size(1280, 1000).await.expect("desktop");

        // Open the passport on its own.
        click(&browser, "a:has(> img.document-image)").await;
        let image_url = browser.current_url().await.expect("url");
        assert!(image_url.path().contains("/files/"), "{image_url}");
        browser.goto(profile_url.as_str()).await.expect("back");
        wait_for(&browser, "What the client submitted").await;

        choose(&browser, "select[id^='doc-status-']", "Approved").await;
        click(&browser, "form[action^='/dashboard/documents/'] button").await;
        wait_for(&browser, "<span class=\"badge\">Approved</span>").await;

        choose(&browser, "#status", "Approved").await;
        click(
            &browser,
            "form[action$='/status'][action^='/dashboard/profiles/'] button",
        )
        .await;
        wait_for(&browser, "profile_status_changed").await;

        fill(
            &browser,
            "#note",
            "Passport matches the selfie taken in branch",
        )
        .await;
        click(&browser, "form[action$='/notes'] button").await;
        wait_for(&browser, "Passport matches the selfie taken in branch").await;

        choose(&browser, "#template_id", &template).await;
        click(&browser, "form[action$='/quizzes'] button").await;
        wait_for(&browser, "Quiz for Ada Lovelace").await;
        let qr: Value = browser
            .execute(
                "const img = document.querySelector('img.qr');\
                 return img && img.complete ? img.naturalWidth : 0;",
                vec![],
            )
            .await
            .expect("script");
        assert!(
            qr.as_u64().is_some_and(|w| w > 0),
            "a QR code is shown: {qr}"
        );
        let tiny_url = text_of(&browser, "#tiny-url").await;

        click(&browser, "form[action='/dashboard/logout'] button").await;
        wait_for(&browser, "Sign in").await;
        browser.goto(profile_url.as_str()).await.expect("profile");
        wait_for(&browser, "Sign in").await;
        browser.close().await.expect("session closed");
        tiny_url
    });

    // What the signed API shows afterwards.
    let c = env.client();
    let ada = json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    let profile = c.call("profile/get", &ada);
    assert_eq!(profile.assert_status(200)["profile"]["status"], "Approved");
    let documents = c.call("document/read", &ada);
    let documents = documents.assert_status(200)["documents"].clone();
    assert_eq!(documents[0]["name"], "passport_upload");
    assert_eq!(documents[0]["status"], "Approved");
    let notes = c.call("note/read", &ada);
    assert_eq!(
        notes.assert_status(200)["notes"][0]["note"],
        "Passport matches the selfie taken in branch"
    );
    let quiz = c.call("quiz/get", &json!({"url": tiny_url}));
    assert_eq!(
        quiz.assert_status(200)["quiz"]["template"]["template_id"],
        template.as_str()
    );
    let log = c.call("event/read", &crate::support::with(ada, "limit", json!(50)));
    let events = log.assert_status(200)["events"]
        .as_array()
        .expect("events")
        .clone();
    for activity in [
        "document_status_changed",
        "profile_status_changed",
        "note_created",
        "quiz_created",
    ] {
        let by_reviewer = events.iter().any(|e| {
            e["activity"] == activity
                && e["details"]
                    .as_str()
                    .is_some_and(|d| d.ends_with(&format!("by {EMAIL}")))
        });
        assert!(by_reviewer, "{activity} by the reviewer in {events:?}");
    }
}

/// Signs `EMAIL` in with `password` on the dashboard's sign-in page.
async fn sign_in(browser: &Client, env: &Env, password: &str) {
    browser
        .goto(&format!("{}/dashboard", env.server.base_url))
        .await
        .expect("dashboard");
    wait_for(browser, "Sign in").await;
    fill(browser, "#email", EMAIL).await;
    fill(browser, "#password", password).await;
    click(browser, "form[action='/dashboard/login'] button").await;
    wait_for(browser, "Signed in as").await;
}

/// A verified licence on the profile's page: one card holding both sides, what was read
/// from its barcode beside what was typed across the card's whole width, and the failed
/// check first in the verification's table.
pub fn a_licence_is_one_card_with_its_sides_and_what_was_read(backend: Backend) {
    let env = Env::start(backend);
    let password = reviewer(&env, EMAIL);
    let licence = documents_read::holder();
    let (token, url) = documents_read::quiz(
        &env,
        "jane@example.com",
        &licence.number,
        json!({"driver_licence_upload": 1, "address_submit": 1}),
    );
    let front = degrade::jpeg(&licence.front(None), 90);
    let back = degrade::png(&licence.back());
    documents_read::upload_usable(&env, &token, "driver_licence_upload", Some("front"), &front);
    documents_read::upload_usable(&env, &token, "driver_licence_upload", Some("back"), &back);
    // Another postal code than the card's: `address_match` fails.
    documents_read::type_and_submit(&env, &token, &licence, "90210", None);
    let verification = completed(&env.client(), &url);
    documents_read::failed(&verification, "address_match", "address_mismatch");

    let scratch = tempfile::tempdir().expect("scratch folder");
    let driver = Driver::start();
    drive(async {
        let browser = session(&driver, &scratch.path().join("profile"), Screen::Desktop).await;
        sign_in(&browser, &env, password).await;
        click(&browser, "a[href^='/dashboard/profiles/']").await;
        wait_for(&browser, "What the client submitted").await;
        let layout = browser
            .execute(
                "const cards = [...document.querySelectorAll('article.document')];
                 const card = cards[0];
                 const table = card.querySelector('table.read');
                 const inner = card.clientWidth
                     - parseFloat(getComputedStyle(card).paddingLeft)
                     - parseFloat(getComputedStyle(card).paddingRight);
                 return {
                     cards: cards.map(c => c.querySelector('h3').textContent.trim()),
                     sides: [...card.querySelectorAll('.side h4')]
                         .map(h => h.firstChild.textContent.trim()),
                     side_by_side: card.querySelectorAll('.side')[0].getBoundingClientRect().top
                         === card.querySelectorAll('.side')[1].getBoundingClientRect().top,
                     read_caption: table.caption.textContent,
                     read_share: Math.round(table.getBoundingClientRect().width / inner * 100),
                     first_check: document.querySelector('#verification ~ div tbody tr, \
                         section[aria-labelledby=verification] tbody tr').className,
                 };",
                vec![],
            )
            .await
            .expect("layout read");
        assert_eq!(layout["cards"], json!(["Driver's licence"]), "{layout}");
        assert_eq!(layout["sides"], json!(["Front", "Back"]), "{layout}");
        assert_eq!(layout["side_by_side"], json!(true), "{layout}");
        assert_eq!(
            layout["read_caption"],
            "Read from the barcode, beside what was typed"
        );
        assert!(
            layout["read_share"].as_u64().is_some_and(|s| s >= 99),
            "the read table spans the card: {layout}"
        );
        assert_eq!(layout["first_check"], "failed", "{layout}");
        screenshot(&browser, "dashboard-verification-desktop.png").await;
        browser
            .execute(
                "document.getElementById('documents').scrollIntoView();",
                vec![],
            )
            .await
            .expect("scrolled");
        screenshot(&browser, "dashboard-licence-desktop.png").await;
        browser.close().await.expect("session closed");
    });
}
