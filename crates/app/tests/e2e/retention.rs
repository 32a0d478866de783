//! Retention (contract §15): a profile `Approved` or `Declined` for `retention_days` loses
//! its documents' files, its sealed values and what was read from its documents, checked
//! at start and hourly; its row, statuses and log stay, with `personal_data_erased`. The
//! test owns the database: it makes a decision 31 days old by moving its time back, then
//! restarts the server, which checks at start.

use std::time::{Duration, Instant};

use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Nullable, Text};
use fixtures::degrade;
use serde_json::{Value, json};

use crate::Scenario;
use crate::client_pages::{post_json, upload};
use crate::documents_read::{holder, upload_usable};
use crate::support::{Backend, Client, Env, Server, jpeg, leaks};
use crate::verification::completed;

pub const SCENARIOS: &[Scenario] = &[
    (
        "retention_erases_files_sealed_values_and_what_was_read_once_and_keeps_the_row_statuses_and_log",
        erases_what_is_due,
    ),
    (
        "retention_days_are_one_to_3650_days_or_null_to_keep",
        retention_setting,
    ),
    (
        "the_dashboard_sets_retention_for_admins_only",
        dashboard_retention,
    ),
];

/// How long the server may take to start checking and erase.
const WAIT: Duration = Duration::from_secs(60);
const SSN: &str = "219099999";
const TYPED_SSN: &str = "219098888";
const DATE_OF_BIRTH: &str = "1990-03-04";
const LICENCE_NUMBER: &str = "D1234-56789-01234";
const DAY: i64 = 24 * 60 * 60;

/// A client of the tests: the pair that names the profile.
struct Person {
    email: &'static str,
    mobile: &'static str,
}

impl Person {
    fn with(&self, extra: Value) -> Value {
        let mut body = json!({"email_address": self.email, "mobile_number": self.mobile});
        for (k, v) in extra.as_object().expect("an object") {
            body[k] = v.clone();
        }
        body
    }
}

const DUE: Person = Person {
    email: "due@example.com",
    mobile: "4165550101",
};
const PENDING: Person = Person {
    email: "pending@example.com",
    mobile: "4165550102",
};
const RECENT: Person = Person {
    email: "recent@example.com",
    mobile: "4165550103",
};
const KEPT: Person = Person {
    email: "kept@example.com",
    mobile: "4165550104",
};

/// A quiz for `person` (a profile with an SSN, a date of birth and a licence number)
/// asking for a licence, a passport and the SSN typed; returns its token and address.
fn quiz(client: &Client, person: &Person) -> (String, String) {
    let body = person.with(json!({
        "first_name": "Jane",
        "last_name": "Sample",
        "ssn": SSN,
        "date_of_birth": DATE_OF_BIRTH,
        "driver_licence_id": LICENCE_NUMBER,
        "template": {"list": {"driver_licence_upload": 1, "passport_upload": 1, "ssn_submit": 1}},
    }));
    let out = client.call("quiz/create", &body);
    let long = out.assert_status(201)["long_url"]
        .as_str()
        .expect("long url")
        .to_owned();
    let token = long.rsplit('/').next().expect("token").to_owned();
    (token, long)
}

/// A quiz for `person` with a passport photo handed in.
fn handed_in(env: &Env, client: &Client, person: &Person) {
    let (token, _) = quiz(client, person);
    upload(
        env,
        &token,
        "passport_upload",
        &[("passport.jpg", &jpeg(20_000))],
    )
    .assert_status(200);
}

fn set_status(client: &Client, person: &Person, status: &str) {
    client
        .call(
            "profile/update-status",
            &person.with(json!({"status": status})),
        )
        .assert_status(200);
}

fn profile(client: &Client, person: &Person) -> Value {
    client
        .call("profile/get", &person.with(json!({})))
        .assert_status(200)["profile"]
        .clone()
}

fn documents(client: &Client, person: &Person) -> Vec<Value> {
    client
        .call("document/read", &person.with(json!({"limit": 50})))
        .assert_status(200)["documents"]
        .as_array()
        .expect("documents")
        .clone()
}

fn activities(client: &Client, person: &Person) -> Vec<String> {
    client
        .call("event/read", &person.with(json!({"limit": 50})))
        .assert_status(200)["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["activity"].as_str().expect("activity").to_owned())
        .collect()
}

/// The ids of the files the documents list.
fn file_ids(documents: &[Value]) -> Vec<(String, String)> {
    documents
        .iter()
        .flat_map(|d| {
            let document = d["id"].as_str().expect("id").to_owned();
            d["data"]
                .as_array()
                .expect("data")
                .iter()
                .filter_map(move |e| Some((document.clone(), e["file_id"].as_str()?.to_owned())))
        })
        .collect()
}

/// Waits for the server's log to say that a retention run finished: the start's check is
/// over, whatever it found.
fn checked(server: &Server) {
    let deadline = Instant::now() + WAIT;
    loop {
        let log = std::fs::read_to_string(server.db.data_dir.path().join("server.log"))
            .unwrap_or_default();
        if log.contains("retention checked") {
            return;
        }
        assert!(Instant::now() < deadline, "no retention run logged:\n{log}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The personal columns of a stored profile, as the database holds them.
#[derive(QueryableByName, Debug, PartialEq)]
struct Stored {
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = Nullable<Text>)]
    ssn: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    date_of_birth: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    driver_licence_id: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    submitted_ssn: Option<String>,
    #[diesel(sql_type = Nullable<BigInt>)]
    erased_at: Option<i64>,
}

fn stored(server: &Server, person: &Person) -> Stored {
    let sql = format!(
        "SELECT status, ssn, date_of_birth, driver_licence_id, submitted_ssn, erased_at \
         FROM profiles WHERE email_address = '{}'",
        person.email
    );
    let mut rows: Vec<Stored> = server.db.select(&sql);
    assert_eq!(rows.len(), 1, "the row of {}", person.email);
    rows.remove(0)
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// How many identity digests the profile still has (the duplicate checks' blind index).
fn digests(server: &Server, person: &Person) -> i64 {
    let sql = format!(
        "SELECT COUNT(*) AS n FROM identity_index WHERE profile_id = \
         (SELECT id FROM profiles WHERE email_address = '{}')",
        person.email
    );
    server.db.select::<Count>(&sql)[0].n
}

fn erases_what_is_due(backend: Backend) {
    let mut env = Env::start_with(backend, &[("IDV_LOG", "info")]);
    let c = env.client();
    let set = c.call("merchant/settings/update", &json!({"retention_days": 30}));
    assert_eq!(set.assert_status(200)["retention_days"], 30);

    // Due: Approved, with a licence whose barcode was read, a passport, a typed SSN.
    let (token, url) = quiz(&c, &DUE);
    let back = degrade::png(&holder().back());
    upload_usable(&env, &token, "driver_licence_upload", Some("back"), &back);
    upload(
        &env,
        &token,
        "passport_upload",
        &[("passport.jpg", &jpeg(20_000))],
    )
    .assert_status(200);
    post_json(
        &env,
        &format!("/quiz/{token}/fields"),
        json!({"ssn": TYPED_SSN}),
    )
    .assert_status(200);
    post_json(&env, &format!("/quiz/{token}/submit"), json!({})).assert_status(200);
    completed(&c, &url);
    let before = documents(&c, &DUE);
    let read = before
        .iter()
        .flat_map(|d| d["data"].as_array().expect("data"))
        .find(|e| e["source"] == "barcode")
        .unwrap_or_else(|| panic!("the barcode was read: {before:?}"));
    assert!(read["document_number"].is_string(), "{read}");
    set_status(&c, &DUE, "Approved");
    let due_files = file_ids(&before);
    assert_eq!(due_files.len(), 2, "{before:?}");
    for (_, file) in &due_files {
        assert!(env.server.stored_files().contains(file), "{file} stored");
    }
    let profile_before = profile(&c, &DUE);
    assert_eq!(
        profile_before["customer_submitted_form_fields"]["ssn"],
        TYPED_SSN
    );

    // Kept: Pending as long; Approved too recently; a merchant that keeps everything.
    handed_in(&env, &c, &PENDING);
    handed_in(&env, &c, &RECENT);
    set_status(&c, &RECENT, "Approved");
    let keeper = env.server.create_merchant("Keeper");
    let k = env.server.client(&keeper);
    k.call("merchant/settings/update", &json!({"retention_days": 30}))
        .assert_status(200);
    let cleared = k.call("merchant/settings/update", &json!({"retention_days": null}));
    assert_eq!(cleared.assert_status(200)["retention_days"], Value::Null);
    handed_in(&env, &k, &KEPT);
    set_status(&k, &KEPT, "Declined");
    let before_events = activities(&c, &DUE);

    // 31 days pass for every decision but the recent one; the server starts again.
    let backdated = env.server.db.execute(&format!(
        "UPDATE profiles SET status_changed_at = status_changed_at - {} \
         WHERE email_address IN ('{}', '{}', '{}')",
        31 * DAY,
        DUE.email,
        PENDING.email,
        KEPT.email
    ));
    assert_eq!(backdated, 3);
    env.server.kill();
    env.server.restart();
    let (c, k) = (env.client(), env.server.client(&keeper));
    let deadline = Instant::now() + WAIT;
    while !activities(&c, &DUE).contains(&"personal_data_erased".to_owned()) {
        assert!(Instant::now() < deadline, "no personal_data_erased event");
        std::thread::sleep(Duration::from_millis(100));
    }
    checked(&env.server);

    // The row, its status and its log stay; the erasure is the log's newest event.
    let after = activities(&c, &DUE);
    assert_eq!(after[0], "personal_data_erased", "{after:?}");
    assert_eq!(after[1..], before_events[..], "earlier events kept");
    let p = profile(&c, &DUE);
    assert_eq!(
        (&p["status"], &p["first_name"]),
        (&json!("Approved"), &json!("Jane"))
    );
    for field in ["ssn", "date_of_birth", "driver_licence_id"] {
        assert_eq!(p[field], Value::Null, "{field}: {p}");
    }
    for (field, value) in p["customer_submitted_form_fields"]
        .as_object()
        .expect("submitted fields")
    {
        assert_eq!(
            value,
            &Value::Null,
            "customer_submitted_form_fields.{field}"
        );
    }
    // The documents stay listed with their statuses, holding nothing; their files are
    // gone from the store and refused for download.
    let now_listed = documents(&c, &DUE);
    assert_eq!(now_listed.len(), before.len());
    for document in &now_listed {
        assert_eq!(document["data"], json!([]), "{document}");
    }
    let stored_now = env.server.stored_files();
    for (document, file) in &due_files {
        assert!(!stored_now.contains(file), "{file} removed from the store");
        c.call(
            "document/download",
            &DUE.with(json!({"document_id": document, "file_id": file})),
        )
        .assert_error(400, &["FILE_NOT_FOUND"]);
    }
    let row = stored(&env.server, &DUE);
    assert_eq!(
        (
            &row.ssn,
            &row.date_of_birth,
            &row.driver_licence_id,
            &row.submitted_ssn
        ),
        (&None, &None, &None, &None),
        "sealed columns emptied"
    );
    assert_eq!(row.status, "Approved");
    assert!(row.erased_at.is_some());
    assert_eq!(
        digests(&env.server, &DUE),
        0,
        "its identity digests forgotten"
    );

    // What was not due keeps everything.
    for (client, person) in [(&c, &PENDING), (&c, &RECENT), (&k, &KEPT)] {
        let p = profile(client, person);
        assert_eq!(p["ssn"], SSN, "{}: {p}", person.email);
        let listed = documents(client, person);
        let files = file_ids(&listed);
        assert_eq!(files.len(), 1, "{}: {listed:?}", person.email);
        assert!(
            stored_now.contains(&files[0].1),
            "{} keeps its file",
            person.email
        );
        assert!(!activities(client, person).contains(&"personal_data_erased".to_owned()));
        assert_eq!(stored(&env.server, person).erased_at, None);
    }

    // Checked again at the next start: nothing is erased twice.
    env.server.kill();
    env.server.restart();
    let c = env.client();
    checked(&env.server);
    let erasures = activities(&c, &DUE)
        .iter()
        .filter(|a| *a == "personal_data_erased")
        .count();
    assert_eq!(erasures, 1);
    leaks::assert_not_logged(&env, &[SSN, TYPED_SSN, DATE_OF_BIRTH, LICENCE_NUMBER]);
}

fn retention_setting(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let got = c.call("merchant/settings/get", &json!({}));
    assert_eq!(
        got.assert_status(200)["retention_days"],
        Value::Null,
        "kept by default"
    );
    for refused in [json!(0), json!(3651), json!(-1), json!("30"), json!(1.5)] {
        c.call(
            "merchant/settings/update",
            &json!({"retention_days": refused, "minimum_age": 21}),
        )
        .assert_error(400, &["RETENTION_DAYS_INVALID"]);
    }
    let got = c.call("merchant/settings/get", &json!({}));
    let settings = got.assert_status(200);
    assert_eq!(
        (&settings["retention_days"], &settings["minimum_age"]),
        (&Value::Null, &json!(18)),
        "nothing changed"
    );
    for (sent, kept) in [(json!(3650), json!(3650)), (json!(1), json!(1))] {
        let set = c.call("merchant/settings/update", &json!({"retention_days": sent}));
        assert_eq!(set.assert_status(200)["retention_days"], kept);
    }
    let other = c.call("merchant/settings/update", &json!({"minimum_age": 19}));
    assert_eq!(
        other.assert_status(200)["retention_days"],
        1,
        "absent keeps"
    );
    let cleared = c.call("merchant/settings/update", &json!({"retention_days": null}));
    assert_eq!(cleared.assert_status(200)["retention_days"], Value::Null);
}

fn dashboard_retention(backend: Backend) {
    use crate::dashboard::{admin_of, csrf_of, page, post_form, reviewer, signed_in};
    let env = Env::start(backend);
    let retention = || {
        let got = env.client().call("merchant/settings/get", &json!({}));
        got.assert_status(200)["retention_days"].clone()
    };
    let post = |cookie: &str, days: &str| {
        let csrf = csrf_of(&page(&env, "/dashboard/settings", cookie));
        post_form(
            &env,
            "/dashboard/settings/retention",
            cookie,
            &format!("csrf_token={csrf}&retention_days={days}"),
        )
    };

    // A reviewer sees the setting but may not change it.
    let password = reviewer(&env, "rev@example.com");
    let cookie = signed_in(&env, "rev@example.com", password);
    let shown = page(&env, "/dashboard/settings", &cookie).text();
    assert!(shown.contains("name=\"retention_days\""), "{shown}");
    assert_eq!(post(&cookie, "30").status, 403);
    assert_eq!(retention(), Value::Null, "nothing changed");

    let password = admin_of(&env.server, &env.merchant.id, "boss@example.com");
    let admin = signed_in(&env, "boss@example.com", password);
    for refused in ["0", "3651", "ten"] {
        assert_eq!(post(&admin, refused).status, 400, "{refused}");
    }
    assert_eq!(retention(), Value::Null, "nothing changed");
    assert_eq!(post(&admin, "90").status, 303);
    assert_eq!(retention(), 90);
    let shown = page(&env, "/dashboard/settings", &admin).text();
    assert!(
        shown.contains(
            "name=\"retention_days\" type=\"number\" min=\"1\" max=\"3650\" step=\"1\" value=\"90\""
        ),
        "{shown}"
    );
    assert_eq!(post(&admin, "").status, 303, "empty keeps personal data");
    assert_eq!(retention(), Value::Null);
}
