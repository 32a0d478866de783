//! A real browser: headless Chromium driven over WebDriver (chromedriver) through the
//! quiz as a client on a phone would go through it.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

use crate::client_pages::send_quiz;
use crate::support::{Backend, Env, jpeg};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// A common phone's viewport width, in CSS pixels.
const PHONE_WIDTH: u32 = 390;

/// The narrowest screen a page must fit without scrolling sideways (WCAG 2.2's Reflow,
/// 1.4.10: 320 CSS pixels).
const NARROW_WIDTH: u32 = 320;

/// Whether the browser and its driver are installed (`.ci/run` installs them).
pub fn available() -> bool {
    std::path::Path::new(CHROMIUM).exists() && std::path::Path::new(CHROMEDRIVER).exists()
}

/// A running chromedriver, stopped when dropped.
pub struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    pub fn start() -> Self {
        let port = free_port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        Self { child, port }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The screen a session emulates.
#[derive(Clone, Copy)]
pub enum Screen {
    /// A phone, touch and all, [`PHONE_WIDTH`] wide.
    Phone,
    /// A small phone, [`NARROW_WIDTH`] wide.
    NarrowPhone,
    /// A laptop's window.
    Desktop,
}

/// A browser session through `driver`, its profile kept in `profile_dir`.
pub async fn session(driver: &Driver, profile_dir: &std::path::Path, screen: Screen) -> Client {
    session_with(driver, profile_dir, screen, &[]).await
}

/// A browser session given Chromium's `extra` arguments too (a fake camera, say).
pub async fn session_with(
    driver: &Driver,
    profile_dir: &std::path::Path,
    screen: Screen,
    extra: &[String],
) -> Client {
    // The closed network here refuses Chromium's background traffic: turn it off.
    let mut args = vec![
        "--headless=new".to_owned(),
        "--no-sandbox".to_owned(),
        "--disable-gpu".to_owned(),
        "--disable-dev-shm-usage".to_owned(),
        "--disable-background-networking".to_owned(),
        "--disable-component-update".to_owned(),
        "--disable-sync".to_owned(),
        "--no-first-run".to_owned(),
        "--disable-quic".to_owned(),
        "--window-size=1280,1000".to_owned(),
        format!("--user-data-dir={}", profile_dir.display()),
    ];
    args.extend_from_slice(extra);
    let mut options = json!({ "binary": CHROMIUM, "args": args });
    let phone = match screen {
        Screen::Phone => Some(PHONE_WIDTH),
        Screen::NarrowPhone => Some(NARROW_WIDTH),
        Screen::Desktop => None,
    };
    if let Some(width) = phone {
        options["mobileEmulation"] =
            json!({"deviceMetrics": {"width": width, "height": 844, "pixelRatio": 2.0}});
    }
    let capabilities = json!({ "goog:chromeOptions": options });
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let attempt = ClientBuilder::native()
            .capabilities(capabilities.as_object().cloned().unwrap_or_default())
            .connect(&format!("http://127.0.0.1:{}", driver.port))
            .await;
        match attempt {
            Ok(client) => return client,
            Err(e) if Instant::now() > deadline => panic!("no WebDriver session: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

/// Runs a browser scenario to its end on a runtime of its own (the tests are
/// synchronous; WebDriver's client is async).
pub fn drive<T>(scenario: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(scenario)
}

/// Saves a screenshot as `name` in `IDV_SCREENSHOT_DIR`, when that is set (`just
/// screenshot` sets it to `docs/`).
pub async fn screenshot(browser: &Client, name: &str) {
    if let Some(dir) = std::env::var_os("IDV_SCREENSHOT_DIR") {
        let png = browser.screenshot().await.expect("screenshot");
        std::fs::write(PathBuf::from(dir).join(name), png).expect("screenshot written");
    }
}

/// Waits until the page's source contains `text` (after a form post and its redirect).
pub async fn wait_for(browser: &Client, text: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let source = browser.source().await.expect("page source");
        if source.contains(text) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "page never showed {text:?}:\n{source}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub async fn fill(browser: &Client, css: &str, text: &str) {
    browser
        .find(Locator::Css(css))
        .await
        .expect(css)
        .send_keys(text)
        .await
        .expect("typed");
}

/// Sets the list of id `id` to its option `value`. (An emulated phone opens its own
/// picker for a list, which WebDriver cannot operate; the page's script plays no part.)
pub async fn choose(browser: &Client, id: &str, value: &str) {
    browser
        .execute(
            "document.getElementById(arguments[0]).value = arguments[1];",
            vec![json!(id), json!(value)],
        )
        .await
        .expect("option chosen");
}

pub async fn click(browser: &Client, css: &str) {
    browser
        .find(Locator::Css(css))
        .await
        .expect(css)
        .click()
        .await
        .expect("clicked");
}

pub fn quiz_in_a_real_browser(backend: Backend) {
    let env = Env::start(backend);
    let (_, long_url, _) = send_quiz(
        &env,
        json!({"passport_upload": 1, "selfie_upload": 2, "address_submit": 1,
        "date_of_birth_submit": 2, "agreement_sign": 1}),
    );
    let scratch = tempfile::tempdir().expect("scratch folder");
    let photo = scratch.path().join("passport.jpg");
    std::fs::write(&photo, jpeg(20_000)).expect("photo written");
    let driver = Driver::start();
    drive(async {
        let browser = session(&driver, &scratch.path().join("profile"), Screen::Phone).await;
        browser.goto(&long_url).await.expect("quiz page");
        wait_for(&browser, "0 of 5 steps done").await;
        screenshot(&browser, "quiz-page-phone.png").await;
        browser
            .goto(&format!("{long_url}?lang=fr"))
            .await
            .expect("the page in French");
        wait_for(&browser, "0 étape(s) terminée(s) sur 5").await;
        // The page's script names the countries in the page's language, sorted so (in
        // English, Egypt comes before Germany).
        let germany = browser
            .execute(
                "const list = document.getElementById('country');
                 const names = Array.from(list.options).slice(1).map(o => o.textContent);
                 return [list.querySelector('option[value=DE]').textContent,
                         names.indexOf('Allemagne') < names.indexOf('Égypte')];",
                vec![],
            )
            .await
            .expect("list read");
        assert_eq!(germany, json!(["Allemagne", true]));
        screenshot(&browser, "quiz-page-phone-fr.png").await;
        browser.goto(&long_url).await.expect("quiz page");
        wait_for(&browser, "0 of 5 steps done").await;

        fill(&browser, "#address_line_1", "1 Main St").await;
        fill(&browser, "#city", "Toronto").await;
        choose(&browser, "state", "ON").await;
        choose(&browser, "country", "CA").await;
        // Enter in a field sends its form, as a keyboard user does (WebDriver's Enter key).
        fill(&browser, "#postal", "M5V 2T6\u{E007}").await;
        wait_for(&browser, "1 of 5 steps done").await;

        fill(
            &browser,
            "#file-passport_upload",
            &photo.display().to_string(),
        )
        .await;
        click(&browser, "#passport_upload button[type=submit]").await;
        wait_for(&browser, "2 of 5 steps done").await;

        // The keyboard: Space ticks the box, Enter sends the form.
        fill(&browser, "#agreement_sign input[name=consent]", " ").await;
        fill(&browser, "#full_name", "Ada Lovelace\u{E007}").await;
        wait_for(&browser, "3 of 5 steps done").await;

        fill(&browser, "form[action$='/submit'] button", "\u{E007}").await;
        wait_for(&browser, "Thank you").await;
        browser.close().await.expect("session closed");
    });

    let c = env.client();
    let key = json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    let docs = c.call("document/read", &key);
    let mut names: Vec<String> = docs.assert_status(200)["documents"]
        .as_array()
        .expect("array")
        .iter()
        .map(|d| d["name"].as_str().expect("name").to_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["agreement_sign", "passport_upload"]);
    let profile = c.call("profile/get", &key);
    assert_eq!(
        profile.assert_status(200)["profile"]["customer_submitted_form_fields"]["address"],
        "1 Main St, Toronto, ON M5V 2T6, CA"
    );
    let quiz = c.call("quiz/get", &json!({"url": long_url}));
    assert_eq!(quiz.assert_status(200)["quiz"]["expired"], 0);
}

/// The API's docs (Swagger UI, served from the binary) render in a browser under their
/// own Content-Security-Policy, which refuses nothing they use.
pub fn the_docs_render_under_their_policy(backend: Backend) {
    let env = Env::start(backend);
    let profile_dir = tempfile::tempdir().expect("profile dir");
    let out = Command::new(CHROMIUM)
        .args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            // Lets the page fetch the OpenAPI document and render it before the dump.
            "--virtual-time-budget=10000",
            "--enable-logging=stderr",
            "--v=0",
            &format!("--user-data-dir={}", profile_dir.path().display()),
            "--dump-dom",
            &format!("{}/docs/", env.server.base_url),
        ])
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&out.stdout);
    let console = String::from_utf8_lossy(&out.stderr);
    assert!(
        dom.contains("/api/v1/profile/create"),
        "the operations are shown:\n{dom}\n{console}"
    );
    let refused: Vec<&str> = console
        .lines()
        .filter(|l| l.contains("Content Security Policy"))
        .collect();
    assert!(refused.is_empty(), "refused by the policy: {refused:#?}");
}
