//! End-to-end tests: the real `idv` binary over HTTP, on SQLite and on PostgreSQL.
//!
//! Every scenario runs once per backend (`sqlite::...`, `postgres::...`). When PostgreSQL
//! cannot be reached its tests are reported as ignored, never as passed; with
//! `IDV_TEST_REQUIRE_POSTGRES=1` (as in CI) they run and fail instead.

mod accessibility;
mod auth;
mod backup;
mod browser;
mod browser_dashboard;
mod camera;
mod children;
mod client_abuse;
mod client_pages;
mod connections;
mod dashboard;
mod dashboard_review;
mod documents_read;
mod durability;
mod edge;
mod events;
mod face_match;
mod id_cards;
mod instances;
mod languages;
mod metrics;
mod outage;
mod photos_read;
mod php;
mod profiles;
mod proof_of_address;
mod quiz_lifecycle;
mod quizzes;
mod rekey;
mod restricted_keys;
mod retention;
mod review;
mod screening;
mod settings;
mod sign_in;
mod signals;
mod storage;
mod support;
mod templates;
mod tooling;
mod transport;
mod trust;
mod verification;
mod webhooks;

use std::time::{Duration, Instant};

use libtest_mimic::{Arguments, Trial};
use support::Backend;

/// A test written once, run on each backend.
pub type Scenario = (&'static str, fn(Backend));

/// How long a trial may take before the log says so: CI's log then shows where the
/// suite's time goes.
const SLOW: Duration = Duration::from_secs(20);

/// `scenario` run on `backend` as the trial `name`, its time told when it is slow.
fn timed(name: impl Into<String>, backend: Backend, scenario: fn(Backend)) -> Trial {
    let name = name.into();
    let told = name.clone();
    Trial::test(name, move || {
        let started = Instant::now();
        scenario(backend);
        let took = started.elapsed();
        if took >= SLOW {
            eprintln!("slow: {told} took {} s", took.as_secs());
        }
        Ok(())
    })
}

fn main() {
    let args = Arguments::from_args();
    let scenarios: Vec<Scenario> = [
        profiles::SCENARIOS,
        screening::SCENARIOS,
        events::SCENARIOS,
        templates::SCENARIOS,
        quizzes::SCENARIOS,
        quiz_lifecycle::SCENARIOS,
        client_pages::SCENARIOS,
        languages::SCENARIOS,
        client_abuse::SCENARIOS,
        review::SCENARIOS,
        settings::SCENARIOS,
        auth::SCENARIOS,
        restricted_keys::SCENARIOS,
        transport::SCENARIOS,
        durability::SCENARIOS,
        trust::SCENARIOS,
        connections::SCENARIOS,
        edge::SCENARIOS,
        tooling::SCENARIOS,
        webhooks::SCENARIOS,
        dashboard::SCENARIOS,
        dashboard_review::SCENARIOS,
        sign_in::SCENARIOS,
        verification::SCENARIOS,
        metrics::SCENARIOS,
        backup::SCENARIOS,
        retention::SCENARIOS,
        rekey::SCENARIOS,
    ]
    .concat();

    let require_postgres = std::env::var("IDV_TEST_REQUIRE_POSTGRES").is_ok_and(|v| v == "1");
    let skip_postgres = match support::database::postgres_reachable() {
        Ok(()) => false,
        Err(e) if !require_postgres => {
            eprintln!("PostgreSQL is not reachable ({e}); its tests are reported as ignored.");
            true
        }
        Err(_) => false,
    };

    let mut trials = Vec::new();
    for backend in [Backend::Sqlite, Backend::Postgres] {
        for &(name, scenario) in &scenarios {
            let trial = timed(format!("{}::{name}", backend.name()), backend, scenario);
            trials.push(trial.with_ignored_flag(backend == Backend::Postgres && skip_postgres));
        }
    }
    // Only PostgreSQL's database can be taken away from a running server and given back.
    let outage = timed(
        "postgres::database_outage_is_503_and_recovers",
        Backend::Postgres,
        outage::database_outage_is_503_and_recovers,
    );
    trials.push(outage.with_ignored_flag(skip_postgres));
    // Only PostgreSQL's backups run other programs.
    let tools = timed(
        backup::POSTGRES_TOOLS,
        Backend::Postgres,
        backup::postgres_tools_see_no_secret,
    );
    trials.push(tools.with_ignored_flag(skip_postgres));
    // Several instances share a database only on PostgreSQL.
    let instances: [Scenario; 6] = [
        (
            "postgres::two_instances_deliver_each_webhook_event_once",
            webhooks::two_instances_deliver_each_event_once,
        ),
        (
            "postgres::two_instances_hold_at_most_4_of_one_merchants_deliveries",
            webhooks::slow_merchant_across_instances,
        ),
        (
            "postgres::two_instances_started_together_migrate_one_fresh_database",
            instances::started_together_they_migrate_one_fresh_database,
        ),
        (
            "postgres::the_rate_limit_of_a_key_holds_across_instances",
            instances::the_rate_limit_holds_across_instances,
        ),
        (
            "postgres::a_disabled_key_is_refused_by_every_instance_within_a_second",
            instances::a_disabled_key_is_refused_by_every_instance_within_a_second,
        ),
        (
            "postgres::two_instances_verify_each_submitted_quiz_once",
            verification::two_instances_verify_each_quiz_once,
        ),
    ];
    for (name, test) in instances {
        let trial = timed(name, Backend::Postgres, test);
        trials.push(trial.with_ignored_flag(skip_postgres));
    }

    // S3 needs moto; with IDV_TEST_REQUIRE_S3=1 (as in CI) its absence is a failure.
    let require_s3 = std::env::var("IDV_TEST_REQUIRE_S3").is_ok_and(|v| v == "1");
    let skip_s3 = !fixtures::moto::available() && !require_s3;
    if skip_s3 {
        eprintln!("moto_server is not installed; the S3 tests are reported as ignored.");
    }
    for backend in [Backend::Sqlite, Backend::Postgres] {
        for &(name, scenario) in storage::SCENARIOS {
            let trial = timed(format!("{}::{name}", backend.name()), backend, scenario);
            let skip_backend = backend == Backend::Postgres && skip_postgres;
            trials.push(trial.with_ignored_flag(skip_s3 || skip_backend));
        }
    }
    let trial = timed(
        "postgres::a_quiz_crosses_instances_sharing_one_database_and_one_bucket",
        Backend::Postgres,
        storage::a_quiz_crosses_instances,
    );
    trials.push(trial.with_ignored_flag(skip_s3 || skip_postgres));

    // Reading documents needs tesseract, poppler and the face photos; with
    // IDV_TEST_REQUIRE_OCR=1 or IDV_TEST_REQUIRE_FACES=1 (as in CI) their absence fails.
    let require_reading = ["IDV_TEST_REQUIRE_OCR", "IDV_TEST_REQUIRE_FACES"]
        .iter()
        .any(|flag| std::env::var(flag).is_ok_and(|v| v == "1"));
    let skip_reading = !documents_read::available() && !require_reading;
    if skip_reading {
        eprintln!(
            "tesseract, poppler-utils or the face photos (scripts/face_photos.sh, IDV_TEST_FACES) \
             are missing; the document-reading tests are reported as ignored."
        );
    }
    for backend in [Backend::Sqlite, Backend::Postgres] {
        for &(name, scenario) in documents_read::SCENARIOS.iter().chain(signals::SCENARIOS) {
            let trial = timed(format!("{}::{name}", backend.name()), backend, scenario);
            let skip_backend = backend == Backend::Postgres && skip_postgres;
            trials.push(trial.with_ignored_flag(skip_reading || skip_backend));
        }
    }

    // Matching faces needs a build with the feature, dlib's models (IDV_FACE_MODELS) and
    // what reading documents needs; IDV_TEST_REQUIRE_FACE_MATCH=1 (as in CI's run with
    // the feature) makes their absence a failure. The default build has no such tests.
    if cfg!(feature = "face-match") {
        let require = std::env::var("IDV_TEST_REQUIRE_FACE_MATCH").is_ok_and(|v| v == "1");
        let ready = face_match::matching() && documents_read::available();
        let skip = !ready && !require;
        if skip {
            eprintln!(
                "dlib's face models (scripts/face_models.sh, IDV_FACE_MODELS) or the document \
                 tools are missing; the face-matching tests are reported as ignored."
            );
        }
        for backend in [Backend::Sqlite, Backend::Postgres] {
            for &(name, scenario) in face_match::SCENARIOS.iter().chain(signals::FACE_SCENARIOS) {
                let trial = timed(format!("{}::{name}", backend.name()), backend, scenario);
                let skip_backend = backend == Backend::Postgres && skip_postgres;
                trials.push(trial.with_ignored_flag(skip || skip_backend));
            }
        }
    }

    // The browser does the same on either backend: it runs once, on SQLite.
    let require_browser = std::env::var("IDV_TEST_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
    let browser_ready = browser::available() && accessibility::available();
    if !browser_ready && !require_browser {
        eprintln!(
            "Chromium, chromedriver or axe-core (npm ci in crates/app/tests/e2e/axe) is not \
             installed; the browser tests are reported as ignored."
        );
    }
    let browser_tests: [Scenario; 8] = [
        (
            "browser::quiz_in_a_real_browser",
            browser::quiz_in_a_real_browser,
        ),
        (
            "browser::the_docs_render_under_their_policy",
            browser::the_docs_render_under_their_policy,
        ),
        (
            "browser::a_reviewer_works_in_the_dashboard_in_a_real_browser",
            browser_dashboard::a_reviewer_works_in_a_real_browser,
        ),
        (
            "browser::a_licence_is_one_card_with_its_sides_and_what_was_read",
            browser_dashboard::a_licence_is_one_card_with_its_sides_and_what_was_read,
        ),
        (
            "browser::every_client_page_passes_axe_and_reflows_in_each_language_at_each_width",
            accessibility::every_client_page_passes_axe_and_reflows_in_each_language_at_each_width,
        ),
        (
            "browser::a_client_completes_a_whole_quiz_with_the_keyboard_alone",
            accessibility::a_client_completes_a_whole_quiz_with_the_keyboard_alone,
        ),
        (
            "browser::the_camera_guide_refuses_a_blurred_card_and_takes_the_sharp_one",
            camera::the_camera_guide_refuses_a_blurred_card_and_takes_the_sharp_one,
        ),
        (
            "browser::with_the_camera_refused_the_file_input_still_works",
            camera::with_the_camera_refused_the_file_input_still_works,
        ),
    ];
    for (name, test) in browser_tests {
        let trial = timed(name, Backend::Sqlite, test);
        trials.push(trial.with_ignored_flag(!browser_ready && !require_browser));
    }
    // The selfie's camera guide plays a test portrait: it needs the face photos too.
    let selfie = "browser::the_camera_guide_takes_a_selfie";
    let no_photos = fixtures::needs::missing(&[fixtures::needs::Need::FacePhotos]);
    if let Some(why) = &no_photos {
        eprintln!("{selfie}: ignored, {why}");
    }
    let trial = timed(
        selfie,
        Backend::Sqlite,
        camera::the_camera_guide_takes_a_selfie,
    );
    trials
        .push(trial.with_ignored_flag((!browser_ready && !require_browser) || no_photos.is_some()));

    // PHP signs the compatibility scheme's corpus; the server's side is the same on
    // either backend: it runs once, on SQLite.
    let require_php = std::env::var("IDV_TEST_REQUIRE_PHP").is_ok_and(|v| v == "1");
    if !php::available() && !require_php {
        eprintln!("php is not installed; the PHP signing test is reported as ignored.");
    }
    let trial = timed(
        "php::php_signs_like_the_hosted_products_sample_code",
        Backend::Sqlite,
        php::php_signs_like_the_hosted_products_sample_code,
    );
    trials.push(trial.with_ignored_flag(!php::available() && !require_php));
    libtest_mimic::run(&args, trials).exit();
}
