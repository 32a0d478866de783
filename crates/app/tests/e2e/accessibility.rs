//! Access (contract §14), in a real Chromium: every client page passes axe-core's WCAG 2.2
//! A and AA rules in each language at 320 and 390 px (phones) and 1280 px, and fits the
//! window there without scrolling sideways (Reflow, which axe does not test); and a
//! client completes a whole quiz with the keyboard alone.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fantoccini::Client;
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use serde_json::{Value, json};

use crate::browser::{Driver, Screen, drive, fill, session, wait_for};
use crate::client_pages::{post_json, send_quiz};
use crate::support::{Backend, Env, jpeg};

/// axe-core's tags for the WCAG 2.0, 2.1 and 2.2 success criteria of levels A and AA.
const WCAG_22_AA: [&str; 5] = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

const LANGUAGES: [&str; 3] = ["en", "fr", "es"];

/// axe-core as `.ci/run` installs it (`npm ci` beside this file's `axe/package.json`), or
/// where `IDV_AXE_CORE` points.
pub fn axe_path() -> PathBuf {
    std::env::var_os("IDV_AXE_CORE").map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("tests/e2e/axe/node_modules/axe-core/axe.min.js")
        },
        PathBuf::from,
    )
}

/// Whether axe-core is installed (the browser's own check is `browser::available`).
pub fn available() -> bool {
    axe_path().is_file()
}

/// Every step a page can show, so that each of its forms is audited.
fn every_step() -> Value {
    json!({"driver_licence_upload": 1, "selfie_upload": 2, "bank_statement_upload": 2,
        "address_submit": 1, "mobile_phone_submit": 2, "email_address_submit": 2,
        "date_of_birth_submit": 2, "ssn_submit": 2, "agreement_sign": 1,
        "device_finger_print": 2, "google_login": 2})
}

/// Runs axe-core on the page shown; the violations, one line per element at fault.
async fn violations(browser: &Client, axe: &str) -> Vec<String> {
    let script = format!(
        "{axe}\n;const done = arguments[arguments.length - 1];
        axe.run(document, {{runOnly: {{type: 'tag', values: arguments[0]}},
                           resultTypes: ['violations']}})
          .then(r => done(r.violations.flatMap(v => v.nodes.map(n =>
              `${{v.id}} (${{v.impact}}): ${{v.help}} at ${{n.target.join(' ')}}: ${{n.failureSummary}}`))))
          .catch(e => done(['axe failed: ' + e]));"
    );
    let out = browser
        .execute_async(&script, vec![json!(WCAG_22_AA)])
        .await
        .expect("axe ran");
    serde_json::from_value(out).expect("a list of violations")
}

/// Opens `url`, waits until it `shows` its content and audits it as `name`.
async fn audit(browser: &Client, axe: &str, name: &str, url: &str, found: &mut Vec<String>) {
    browser.goto(url).await.expect("page opened");
    wait_for(browser, "</main>").await;
    audit_shown(browser, axe, name, found).await;
}

/// Adds what axe finds on the page shown to `found`, each line named by the page, and
/// whether the page scrolls sideways (WCAG 2.2's Reflow, 1.4.10, which axe does not test).
pub async fn audit_shown(browser: &Client, axe: &str, name: &str, found: &mut Vec<String>) {
    for violation in violations(browser, axe).await {
        found.push(format!("{name}: {violation}"));
    }
    if let Some(overflow) = sideways(browser).await {
        found.push(format!("{name}: reflow: {overflow}"));
    }
}

/// How the page shown is wider than the window, with the widest elements at fault; `None`
/// when it fits.
pub async fn sideways(browser: &Client) -> Option<String> {
    let script = "const w = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth <= w) return null;
        const wide = [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > w + 1)
            .map(e => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} (${Math.round(e.getBoundingClientRect().right)} px)`)
            .slice(0, 5);
        return `${document.documentElement.scrollWidth} px wide in a ${w} px window: ${wide.join(', ')}`;";
    let out = browser.execute(script, vec![]).await.expect("measured");
    out.as_str().map(str::to_owned)
}

pub fn every_client_page_passes_axe_and_reflows_in_each_language_at_each_width(backend: Backend) {
    let axe = std::fs::read_to_string(axe_path()).expect("axe-core installed (.ci/run)");
    let env = Env::start(backend);
    let scratch = tempfile::tempdir().expect("scratch folder");
    let photo = scratch.path().join("small.jpg");
    std::fs::write(&photo, jpeg(2_000)).expect("photo written");
    let base = env.server.base_url.clone();
    let driver = Driver::start();
    let mut found = Vec::new();
    drive(async {
        let screens = [
            (Screen::NarrowPhone, "320"),
            (Screen::Phone, "390"),
            (Screen::Desktop, "1280"),
        ];
        for (screen, width) in screens {
            let profile = scratch.path().join(format!("profile-{width}"));
            let browser = session(&driver, &profile, screen).await;
            for lang in LANGUAGES {
                let at = |page: &str| format!("{page} ({lang}, {width} px)");
                let (_, long, _) = send_quiz(&env, every_step());
                let url = format!("{long}?lang={lang}");
                audit(&browser, &axe, &at("quiz page"), &url, &mut found).await;
                // The form's errors, told next to the fields.
                fill(&browser, "#mobile_number", "12").await;
                fill(&browser, "#ssn", "1\u{E007}").await;
                wait_for(&browser, "class=\"error\"").await;
                audit_shown(&browser, &axe, &at("errors"), &mut found).await;
                // An upload's quality notice.
                browser.goto(&url).await.expect("page");
                fill(
                    &browser,
                    "#file-driver_licence_upload-front",
                    &photo.display().to_string(),
                )
                .await;
                fill(&browser, "#driver_licence_upload form button", "\u{E007}").await;
                wait_for(&browser, "class=\"notice").await;
                audit_shown(&browser, &axe, &at("upload notice"), &mut found).await;

                let (token, _, _) = send_quiz(&env, json!({"email_address_submit": 2}));
                post_json(&env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);
                let thanks = format!("{base}/quiz/{token}?lang={lang}");
                audit(&browser, &axe, &at("thank-you page"), &thanks, &mut found).await;

                let (_, long, _) = send_quiz(&env, json!({"email_address_submit": 2}));
                let expire = env.client().call("quiz/expire", &json!({"url": long}));
                expire.assert_status(200);
                let expired = format!("{long}?lang={lang}");
                audit(&browser, &axe, &at("expired page"), &expired, &mut found).await;

                let missing = format!("{base}/quiz/no-such-link?lang={lang}");
                audit(&browser, &axe, &at("not-found page"), &missing, &mut found).await;
            }
            browser.close().await.expect("session closed");
        }
    });
    assert!(
        found.is_empty(),
        "WCAG 2.2 A/AA violations:\n{}",
        found.join("\n")
    );
}

/// Presses `keys` one after the other on whatever has the focus, as a keyboard does.
async fn press(browser: &Client, keys: &str) {
    let mut actions = KeyActions::new("keyboard".into());
    for key in keys.chars() {
        actions = actions
            .then(KeyAction::Down { value: key })
            .then(KeyAction::Up { value: key });
    }
    browser
        .perform_actions(actions)
        .await
        .expect("keys pressed");
}

/// Whether the focused element matches `css`.
async fn focused(browser: &Client, css: &str) -> bool {
    let out = browser
        .execute(
            "return document.activeElement !== null && document.activeElement.matches(arguments[0]);",
            vec![json!(css)],
        )
        .await
        .expect("focus read");
    out.as_bool().unwrap_or(false)
}

/// Presses Tab until the element matching `css` has the focus: it must be reachable.
async fn tab_to(browser: &Client, css: &str) {
    for _ in 0..400 {
        if focused(browser, css).await {
            return;
        }
        press(browser, &char::from(Key::Tab).to_string()).await;
    }
    panic!("Tab never reached {css}");
}

/// Tabs to `css` and types `text` there.
async fn type_at(browser: &Client, css: &str, text: &str) {
    tab_to(browser, css).await;
    press(browser, text).await;
}

/// Tabs to the file field `css` and picks `file`. The system's file dialog, which Enter
/// opens for a keyboard user, is out of WebDriver's reach: the driver sets the file on
/// the focused field instead, which is what that dialog does.
async fn pick_file(browser: &Client, css: &str, file: &std::path::Path) {
    tab_to(browser, css).await;
    let field = browser.active_element().await.expect("focused field");
    field
        .send_keys(&file.display().to_string())
        .await
        .expect("file picked");
}

/// Waits until the browser's address contains `part` (a form post and its redirect).
async fn wait_for_address(browser: &Client, part: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let address = browser.current_url().await.expect("address");
        if address.as_str().contains(part) {
            return;
        }
        assert!(Instant::now() < deadline, "never at {part}: {address}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn value_of(browser: &Client, id: &str) -> String {
    let out = browser
        .execute(
            "return document.getElementById(arguments[0]).value;",
            vec![json!(id)],
        )
        .await
        .expect("value read");
    out.as_str().unwrap_or_default().to_owned()
}

pub fn a_client_completes_a_whole_quiz_with_the_keyboard_alone(backend: Backend) {
    let env = Env::start(backend);
    let (_, long_url, _) = send_quiz(
        &env,
        json!({"driver_licence_upload": 1, "selfie_upload": 1, "address_submit": 1,
            "date_of_birth_submit": 1, "ssn_submit": 1, "agreement_sign": 1,
            "device_finger_print": 1}),
    );
    let scratch = tempfile::tempdir().expect("scratch folder");
    let photo = scratch.path().join("photo.jpg");
    std::fs::write(&photo, jpeg(20_000)).expect("photo written");
    let (enter, space) = (char::from(Key::Enter), ' ');
    let driver = Driver::start();
    drive(async {
        let browser = session(&driver, &scratch.path().join("profile"), Screen::Desktop).await;
        browser.goto(&long_url).await.expect("quiz page");
        wait_for(&browser, "0 of 7 steps done").await;

        // After an upload the page comes back naming it in its address.
        let uploads = [
            (
                "#file-driver_licence_upload-front",
                "uploaded=driver_licence_upload&side=front",
            ),
            (
                "#file-driver_licence_upload-back",
                "uploaded=driver_licence_upload&side=back",
            ),
            ("#file-selfie_upload", "uploaded=selfie_upload"),
        ];
        for (field, back_at) in uploads {
            pick_file(&browser, field, &photo).await;
            // The form's own button comes next in the tab order.
            press(&browser, &char::from(Key::Tab).to_string()).await;
            assert!(
                focused(&browser, "button[type=submit]").await,
                "{field}'s button"
            );
            press(&browser, &enter.to_string()).await;
            wait_for_address(&browser, back_at).await;
        }
        wait_for(&browser, "2 of 7 steps done").await;

        type_at(&browser, "#address_line_1", "1 Main St").await;
        type_at(&browser, "#city", "Toronto").await;
        // A closed list takes the first letters typed of an option.
        type_at(&browser, "#state", "Ontario").await;
        type_at(&browser, "#postal", "M5V 2T6").await;
        type_at(&browser, "#country", "Canada").await;
        // The date's parts in the browser's order (month, day, year in English).
        type_at(&browser, "#date_of_birth", "01151990").await;
        type_at(&browser, "#ssn", "123456789").await;
        let chosen = [
            ("state", value_of(&browser, "state").await),
            ("country", value_of(&browser, "country").await),
            ("date_of_birth", value_of(&browser, "date_of_birth").await),
        ];
        assert_eq!(
            chosen.map(|(id, v)| format!("{id}={v}")),
            ["state=ON", "country=CA", "date_of_birth=1990-01-15"]
        );
        // Enter in a field sends its form.
        press(&browser, &enter.to_string()).await;
        wait_for(&browser, "5 of 7 steps done").await;

        type_at(&browser, "#full_name", "Ada Lovelace").await;
        tab_to(&browser, "input[name=consent]").await;
        press(&browser, &space.to_string()).await;
        tab_to(&browser, "#agreement_sign button[type=submit]").await;
        press(&browser, &enter.to_string()).await;
        wait_for(&browser, "6 of 7 steps done").await;

        tab_to(&browser, "#fingerprint-button").await;
        press(&browser, &enter.to_string()).await;
        wait_for(&browser, "7 of 7 steps done").await;

        tab_to(&browser, "form[action*='/submit'] button").await;
        press(&browser, &enter.to_string()).await;
        wait_for(&browser, "Thank you").await;
        browser.close().await.expect("session closed");
    });

    let c = env.client();
    let key = json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    let docs = c.call("document/read", &key);
    let mut handed_in: Vec<String> = docs.assert_status(200)["documents"]
        .as_array()
        .expect("array")
        .iter()
        .map(|d| {
            let side = d["data"][0]["side"].as_str().unwrap_or("");
            format!("{} {side}", d["name"].as_str().expect("name"))
                .trim()
                .to_owned()
        })
        .collect();
    handed_in.sort();
    assert_eq!(
        handed_in,
        [
            "agreement_sign",
            "device_finger_print",
            "driver_licence_upload back",
            "driver_licence_upload front",
            "selfie_upload",
        ]
    );
    let profile = c.call("profile/get", &key);
    let fields = &profile.assert_status(200)["profile"]["customer_submitted_form_fields"];
    assert_eq!(fields["address"], "1 Main St, Toronto, ON M5V 2T6, CA");
    assert_eq!(fields["date_of_birth"], "1990-01-15");
    let path = long_url
        .rsplit_once("/quiz/")
        .map(|(_, t)| format!("/quiz/{t}"));
    let state = c.send(
        "GET",
        &path.expect("a quiz address"),
        &[("Accept", "application/json")],
        b"",
    );
    assert_eq!(state.assert_status(200)["status"], "submitted");
}
