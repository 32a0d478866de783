//! Screening against sanctions, PEP and internal lists (contract §19), over HTTP and the
//! `idv screening` command: lists imported from files written as the real ones are
//! (`fixtures::lists`), a client on a list found whatever the order and accents of the
//! name, a reviewer's disposition kept until the entry changes, the `watchlist` check.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use ::screening::{BirthDate, Entry};
use fixtures::lists;
use serde_json::{Value, json};

use crate::Scenario;
use crate::dashboard::{
    admin_of, csrf_of, first_profile_link, page, post_form, reviewer_of, signed_in,
};
use crate::support::receiver::Receiver;
use crate::support::{Backend, Client, Env, profile, with};
use crate::verification::{answer, check, completed, quiz_for};

pub const SCENARIOS: &[Scenario] = &[
    (
        "screening_finds_a_listed_client_whatever_the_names_order_and_a_dismissal_holds_until_the_entry_changes",
        found_and_disposed,
    ),
    (
        "screening_a_profile_made_before_an_import_is_found_after_it_and_another_merchants_list_is_never_used",
        found_after_import,
    ),
    (
        "screening_refuses_a_truncated_or_unknown_list_whole_and_the_version_in_force_stays",
        refused_imports,
    ),
    (
        "screening_in_the_dashboard_an_admin_turns_it_on_and_a_reviewer_decides_a_match",
        dashboard,
    ),
    (
        "screening_the_watchlist_check_fails_a_listed_client_by_the_lists_kind_and_is_off_by_default",
        watchlist_check,
    ),
];

/// How long a test waits for the re-screening loop (a round every 2 s).
const WAIT: Duration = Duration::from_secs(30);

fn person(id: &str, names: &[&str], year: i32) -> Entry {
    Entry {
        id: id.into(),
        names: names.iter().map(|n| (*n).to_owned()).collect(),
        dates_of_birth: vec![BirthDate {
            year,
            month_day: Some((3, 14)),
        }],
        countries: vec!["UA".into()],
    }
}

fn sanctioned() -> Vec<Entry> {
    vec![
        person(
            "1001",
            &["KOVALENKO, Dmitri Ivanovich", "KOVALENKO, Dima"],
            1961,
        ),
        person("1002", &["AL-RASHID, Abdul Karim"], 1970),
    ]
}

/// Writes `files` into the test's data directory; returns their paths.
fn written(env: &Env, files: &[(&str, &str)]) -> Vec<PathBuf> {
    let dir = env.server.db.data_dir.path().join("lists");
    std::fs::create_dir_all(&dir).expect("a folder for the lists");
    files
        .iter()
        .map(|(name, text)| {
            let path = dir.join(name);
            std::fs::write(&path, text).expect("list written");
            path
        })
        .collect()
}

/// `idv screening ARGS`: its success, standard output and standard error.
fn screening_cmd(env: &Env, args: &[&str], files: &[PathBuf]) -> (bool, String, String) {
    let out = env
        .server
        .idv()
        .arg("screening")
        .args(args)
        .args(files)
        .output()
        .expect("idv runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn import(env: &Env, list: &str, kind: &str, format: &str, files: &[PathBuf]) -> Value {
    let args = ["import", "--list", list, "--kind", kind, "--format", format];
    let (ok, out, err) = screening_cmd(env, &args, files);
    assert!(ok, "import refused: {err}");
    serde_json::from_str(out.trim()).expect("one JSON line")
}

/// Imports a generic CSV as an internal list of `merchant`'s.
fn import_internal(env: &Env, list: &str, merchant: &str, files: &[PathBuf]) {
    let args = [
        "import",
        "--list",
        list,
        "--kind",
        "internal",
        "--format",
        "csv",
        "--merchant",
        merchant,
    ];
    let (ok, _, err) = screening_cmd(env, &args, files);
    assert!(ok, "import refused: {err}");
}

fn lists_in_force(env: &Env) -> Vec<Value> {
    let (ok, out, err) = screening_cmd(env, &["lists"], &[]);
    assert!(ok, "{err}");
    out.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The SHA-256 (hex) of the files, in order: a list's version.
fn version_of(files: &[PathBuf]) -> String {
    let mut digest = ring::digest::Context::new(&ring::digest::SHA256);
    for file in files {
        digest.update(&std::fs::read(file).expect("read back"));
    }
    hex::encode(digest.finish())
}

fn ofac_files(env: &Env, entries: &[Entry]) -> Vec<PathBuf> {
    let files = lists::ofac(entries);
    written(env, &[("sdn.csv", &files.sdn), ("alt.csv", &files.alt)])
}

fn key(email: &str, mobile: &str) -> Value {
    json!({"email_address": email, "mobile_number": mobile})
}

/// The profile's screening once `done` holds of it (the loop screens within seconds).
fn screening_when(client: &Client, key: &Value, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + WAIT;
    loop {
        let got = client.call("screening/get", key);
        let screening = got.assert_status(200)["screening"].clone();
        if done(&screening) {
            return screening;
        }
        assert!(Instant::now() < deadline, "not yet: {screening}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn matches(screening: &Value) -> Vec<(String, String)> {
    screening["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .map(|m| {
            let text = |k: &str| m[k].as_str().unwrap_or_default().to_owned();
            (text("entry_id"), text("disposition"))
        })
        .collect()
}

fn found_and_disposed(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    let got = client.call("merchant/settings/get", &json!({}));
    let got = got.assert_status(200);
    assert_eq!(
        (
            &got["screening"],
            &got["screening_lists"],
            &got["screening_threshold"]
        ),
        (&json!(0), &json!([]), &json!(90)),
        "off by default, every list, 90"
    );
    let files = ofac_files(&env, &sanctioned());
    let version = import(&env, "ofac-sdn", "sanctions", "ofac-csv", &files);
    assert_eq!(version["version"], version_of(&files));
    assert_eq!(version["entries"], 2);
    assert_eq!(lists_in_force(&env), std::slice::from_ref(&version));
    client
        .call("merchant/settings/update", &json!({"screening": 1}))
        .assert_status(200);

    // Given name first, no middle name, accents the list does not write.
    let dmitri = key("dmitri@example.com", "4165550101");
    let named = json!({"first_name": "Dmítri", "last_name": "Kovalenko"});
    client
        .call("profile/create", &with_key(&dmitri, named))
        .assert_status(201);
    let screening = screening_when(&client, &dmitri, |s| !matches(s).is_empty());
    assert_eq!(
        matches(&screening),
        [("1001".to_owned(), "open".to_owned())]
    );
    let hit = &screening["matches"][0];
    assert_eq!(hit["list"], "ofac-sdn");
    assert_eq!(hit["list_version"], version["version"]);
    assert_eq!(hit["kind"], "sanctions");
    assert!(
        hit["matched_name"]
            .as_str()
            .expect("name")
            .contains("KOVALENKO")
    );
    assert!(hit["score"].as_u64().expect("score") >= 90, "{hit}");
    assert_eq!(
        screening["lists"],
        json!([{"name": "ofac-sdn", "version": version["version"]}])
    );

    // An alias of the entry, and the name in Cyrillic (transliterated before it is
    // compared): the same entry.
    for (n, first, last) in [(4, "Dima", "Kovalenko"), (5, "Дмитрий", "Коваленко")]
    {
        let other = key(&format!("d{n}@example.com"), &format!("416555010{n}"));
        let named = json!({"first_name": first, "last_name": last});
        client
            .call("profile/create", &with_key(&other, named))
            .assert_status(201);
        let found = screening_when(&client, &other, |s| !matches(s).is_empty());
        assert_eq!(
            matches(&found),
            [("1001".to_owned(), "open".to_owned())],
            "{first} {last}"
        );
    }

    // Someone else is on no list.
    let ada = key("ada@example.com", "4165550102");
    client
        .call("profile/create", &profile("ada@example.com", "4165550102"))
        .assert_status(201);
    let clean = screening_when(&client, &ada, |s| s["screened_at"].is_string());
    assert!(matches(&clean).is_empty(), "{clean}");

    // The new match is in the log (and so in webhooks).
    let log = client.call("event/read", &with(dmitri.clone(), "limit", json!(50)));
    let activities: Vec<Value> = log.assert_status(200)["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["activity"].clone())
        .collect();
    assert_eq!(
        activities
            .iter()
            .filter(|a| **a == "screening_match")
            .count(),
        1,
        "{activities:?}"
    );

    // Refusals.
    let dispose = |list: &str, entry: &str, disposition: &str| {
        let body = json!({"list": list, "entry_id": entry, "disposition": disposition,
                          "note": "Born in 1988, not 1961"});
        client.call("screening/dispose", &with_key(&dmitri, body))
    };
    dispose("ofac-sdn", "9999", "false_positive").assert_error(400, &["MATCH_NOT_FOUND"]);
    dispose("un", "1001", "false_positive").assert_error(400, &["MATCH_NOT_FOUND"]);
    dispose("ofac-sdn", "1001", "maybe").assert_error(400, &["DISPOSITION_INVALID"]);
    let disposed = dispose("ofac-sdn", "1001", "false_positive");
    let disposed = disposed.assert_status(200)["screening"].clone();
    assert_eq!(
        matches(&disposed),
        [("1001".to_owned(), "false_positive".to_owned())]
    );

    // A new version with the entry unchanged: the dismissal holds.
    let mut more = sanctioned();
    more.push(person("1003", &["PETRENKO, Olena"], 1980));
    let files = ofac_files(&env, &more);
    let second = import(&env, "ofac-sdn", "sanctions", "ofac-csv", &files);
    let rescreened = screening_when(&client, &dmitri, |s| {
        s["lists"][0]["version"] == second["version"]
    });
    assert_eq!(
        matches(&rescreened),
        [("1001".to_owned(), "false_positive".to_owned())]
    );
    // The entry itself changes: raised again.
    more[0].names.push("KOVALENKO, Dmytro".into());
    let files = ofac_files(&env, &more);
    let third = import(&env, "ofac-sdn", "sanctions", "ofac-csv", &files);
    let raised = screening_when(&client, &dmitri, |s| {
        s["lists"][0]["version"] == third["version"]
    });
    assert_eq!(matches(&raised), [("1001".to_owned(), "open".to_owned())]);

    // A merchant that does not screen: a profile never screened has no screening.
    client
        .call("merchant/settings/update", &json!({"screening": 0}))
        .assert_status(200);
    let zoe = key("zoe@example.com", "4165550103");
    client
        .call("profile/create", &profile("zoe@example.com", "4165550103"))
        .assert_status(201);
    client
        .call("screening/get", &zoe)
        .assert_error(400, &["SCREENING_NOT_FOUND"]);
    client
        .call("screening/get", &key("nobody@example.com", "4165550199"))
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
}

fn with_key(key: &Value, mut body: Value) -> Value {
    for (k, v) in key.as_object().expect("a key") {
        body[k] = v.clone();
    }
    body
}

fn refused_imports(backend: Backend) {
    let env = Env::start(backend);
    let files = ofac_files(&env, &sanctioned());
    let version = import(&env, "ofac-sdn", "sanctions", "ofac-csv", &files);
    // The UN's file cut short: refused whole, naming where.
    let un = lists::un_xml(&sanctioned());
    let cut = &un[..un.len() / 2];
    let truncated = written(&env, &[("un.xml", cut)]);
    let args = [
        "import",
        "--list",
        "ofac-sdn",
        "--kind",
        "sanctions",
        "--format",
        "un-xml",
    ];
    let (ok, _, err) = screening_cmd(&env, &args, &truncated);
    assert!(!ok, "a truncated file was imported");
    assert!(err.contains("un.xml"), "names the file: {err}");
    assert_eq!(
        lists_in_force(&env),
        std::slice::from_ref(&version),
        "the version in force stays"
    );
    for (args, why) in [
        (
            [
                "import",
                "--list",
                "bad name",
                "--kind",
                "sanctions",
                "--format",
                "csv",
            ],
            "name",
        ),
        (
            [
                "import", "--list", "x", "--kind", "wanted", "--format", "csv",
            ],
            "kind",
        ),
        (
            ["import", "--list", "x", "--kind", "pep", "--format", "pdf"],
            "format",
        ),
    ] {
        let csv = written(&env, &[("list.csv", &lists::csv(&sanctioned()))]);
        let (ok, _, err) = screening_cmd(&env, &args, &csv);
        assert!(!ok && !err.is_empty(), "a bad {why} was taken");
    }
    let internal = written(&env, &[("vip.csv", &lists::csv(&sanctioned()))]);
    let args = [
        "import",
        "--list",
        "vip",
        "--kind",
        "internal",
        "--format",
        "csv",
        "--merchant",
        "nobody",
    ];
    let (ok, _, err) = screening_cmd(&env, &args, &internal);
    assert!(!ok && err.contains("merchant"), "{err}");
    assert_eq!(lists_in_force(&env), [version]);
}

/// The verification of a quiz answered by a client of these names, born then.
fn verified(
    env: &Env,
    (email, mobile): (&str, &str),
    (first, last): (&str, &str),
    born: &str,
) -> Value {
    let client = env.client();
    let url = quiz_for(&client, email, mobile);
    let named = json!({"first_name": first, "last_name": last});
    client
        .call("profile/update", &with_key(&key(email, mobile), named))
        .assert_status(200);
    answer(env, &url, "123456788", born);
    completed(&client, &url)
}

fn watchlist_check(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    let pep = vec![person("P-7", &["Marguerite Duval-Leclerc"], 1955)];
    let files = written(&env, &[("pep.csv", &lists::csv(&pep))]);
    import(&env, "pep-fr", "pep", "csv", &files);
    let internal = vec![person("X-1", &["Bruno Keller"], 1990)];
    let files = written(&env, &[("own.csv", &lists::csv(&internal))]);
    import_internal(&env, "own", &env.merchant.id, &files);

    // Off by default: not applicable.
    let off = verified(
        &env,
        ("marguerite@example.com", "4165550111"),
        ("Marguerite", "Duval Leclerc"),
        "1955-03-14",
    );
    assert_eq!(
        check(&off, "watchlist")["reasons"],
        json!(["screening_off"])
    );

    client
        .call("merchant/settings/update", &json!({"screening": 1}))
        .assert_status(200);
    let on = verified(
        &env,
        ("marguerite2@example.com", "4165550112"),
        ("Marguerite", "Duval-Leclerc"),
        "1955-03-14",
    );
    assert_eq!(on["status"], "review", "every reason goes to review: {on}");
    let watchlist = check(&on, "watchlist");
    assert_eq!(watchlist["status"], "failed");
    assert_eq!(watchlist["reasons"], json!(["pep_potential_match"]));
    let listed = &watchlist["details"]["matches"][0];
    assert_eq!(
        (&listed["list"], &listed["entry_id"], &listed["kind"]),
        (&json!("pep-fr"), &json!("P-7"), &json!("pep"))
    );
    assert!(
        listed["list_version"].is_string() && listed["score"].is_u64(),
        "{listed}"
    );

    // Only the lists the merchant chose: its own internal list.
    client
        .call(
            "merchant/settings/update",
            &json!({"screening_lists": ["own"]}),
        )
        .assert_status(200);
    let own = verified(
        &env,
        ("bruno@example.com", "4165550113"),
        ("Bruno", "Keller"),
        "1990-03-14",
    );
    assert_eq!(
        check(&own, "watchlist")["reasons"],
        json!(["internal_list_match"])
    );
    // Settings refused outside their bounds.
    for (body, code) in [
        (
            json!({"screening_threshold": 79}),
            "SCREENING_THRESHOLD_INVALID",
        ),
        (
            json!({"screening_threshold": 101}),
            "SCREENING_THRESHOLD_INVALID",
        ),
        (
            json!({"screening_lists": ["no spaces"]}),
            "SCREENING_LISTS_INVALID",
        ),
        (json!({"screening": 2}), "SCREENING_INVALID"),
    ] {
        client
            .call("merchant/settings/update", &body)
            .assert_error(400, &[code]);
    }
}

fn dashboard(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    let files = ofac_files(&env, &sanctioned());
    import(&env, "ofac-sdn", "sanctions", "ofac-csv", &files);
    let admin = admin_of(&env.server, &env.merchant.id, "boss@example.com");
    let boss = signed_in(&env, "boss@example.com", admin);
    let csrf = csrf_of(&page(&env, "/dashboard/settings", &boss));
    let saved = post_form(
        &env,
        "/dashboard/settings/verification",
        &boss,
        &format!(
            "csrf_token={csrf}&minimum_age=18&screening=1&screening_lists=ofac-sdn&screening_threshold=85"
        ),
    );
    assert_eq!(saved.status, 303, "{}", saved.text());
    let got = client.call("merchant/settings/get", &json!({}));
    let got = got.assert_status(200);
    assert_eq!(
        (
            &got["screening"],
            &got["screening_lists"],
            &got["screening_threshold"]
        ),
        (&json!(1), &json!(["ofac-sdn"]), &json!(85))
    );
    let refused = post_form(
        &env,
        "/dashboard/settings/verification",
        &boss,
        &format!("csrf_token={csrf}&minimum_age=18&screening_threshold=70"),
    );
    assert_eq!(refused.status, 400, "a threshold under 80 is refused");

    let abdul = key("abdul@example.com", "4165550121");
    let named = json!({"first_name": "Abdulkarim", "last_name": "Al Rashid"});
    client
        .call("profile/create", &with_key(&abdul, named))
        .assert_status(201);
    let found = screening_when(&client, &abdul, |s| !matches(s).is_empty());
    assert_eq!(matches(&found), [("1002".to_owned(), "open".to_owned())]);

    let password = reviewer_of(&env.server, &env.merchant.id, "rev@example.com");
    let cookie = signed_in(&env, "rev@example.com", password);
    let address = first_profile_link(&page(&env, "/dashboard/profiles", &cookie));
    let shown = page(&env, &address, &cookie);
    let text = shown.text();
    for expected in [
        "Screening",
        "AL-RASHID, Abdul Karim",
        "ofac-sdn (sanctions)",
    ] {
        assert!(text.contains(expected), "{expected} on the page");
    }
    let csrf = csrf_of(&shown);
    let decided = post_form(
        &env,
        &format!("{address}/screening"),
        &cookie,
        &format!(
            "csrf_token={csrf}&list=ofac-sdn&entry_id=1002&disposition=confirmed&note=Same+passport+number"
        ),
    );
    assert_eq!(decided.status, 303, "{}", decided.text());
    let after = client.call("screening/get", &abdul);
    let after = after.assert_status(200)["screening"].clone();
    assert_eq!(
        matches(&after),
        [("1002".to_owned(), "confirmed".to_owned())]
    );
    let unknown = post_form(
        &env,
        &format!("{address}/screening"),
        &cookie,
        &format!("csrf_token={csrf}&list=ofac-sdn&entry_id=1002&disposition=perhaps"),
    );
    assert_eq!(unknown.status, 400, "an unknown decision is refused");
}

fn found_after_import(backend: Backend) {
    let env = Env::start_with(backend, &[crate::webhooks::ALLOW_PRIVATE]);
    let client = env.client();
    let receiver = Receiver::start();
    crate::webhooks::register(&env, &receiver.url(), Some(&["screening_match"]));
    client
        .call("merchant/settings/update", &json!({"screening": 1}))
        .assert_status(200);
    // Another merchant's own list names our client: it is never used for us.
    let other = env.server.create_merchant("Other");
    let theirs = vec![person("T-1", &["Olena Petrenko"], 1980)];
    let files = written(&env, &[("theirs.csv", &lists::csv(&theirs))]);
    import_internal(&env, "theirs", &other.id, &files);

    let olena = key("olena@example.com", "4165550131");
    let named = json!({"first_name": "Olena", "last_name": "Petrenko"});
    client
        .call("profile/create", &with_key(&olena, named))
        .assert_status(201);
    // No list of ours is in force: she is not screened, whatever the other's list says.
    client
        .call("screening/get", &olena)
        .assert_error(400, &["SCREENING_NOT_FOUND"]);

    // Then a sanctions list naming her is imported: the loop finds her, with the event
    // and its webhook, without any call of ours.
    let mut listed = sanctioned();
    listed.push(person("1003", &["PETRENKO, Olena"], 1980));
    let files = ofac_files(&env, &listed);
    import(&env, "ofac-sdn", "sanctions", "ofac-csv", &files);
    let received = receiver.wait_until(WAIT, |r| !r.is_empty());
    let body: Value =
        serde_json::from_str(&received.first().expect("a delivery").body).expect("a JSON body");
    assert_eq!(body["type"], "screening_match", "{body}");
    assert_eq!(body["data"]["email_address"], "olena@example.com", "{body}");
    let text = body.to_string();
    assert!(
        !text.contains("Olena") && !text.contains("Petrenko"),
        "no name: {text}"
    );
    let after = client.call("screening/get", &olena);
    let after = after.assert_status(200)["screening"].clone();
    assert_eq!(matches(&after), [("1003".to_owned(), "open".to_owned())]);
    let lists: Vec<&str> = after["lists"]
        .as_array()
        .expect("lists")
        .iter()
        .map(|l| l["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(
        lists,
        ["ofac-sdn"],
        "another merchant's internal list is not ours"
    );
}
