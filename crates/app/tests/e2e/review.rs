//! The merchant's review: documents, downloads, notes and the whole event log.

use ring::digest;
use serde_json::{Value, json};

use crate::Scenario;
use crate::client_pages::{standard_quiz, upload};
use crate::support::{Backend, Env, jpeg, profile};

pub const SCENARIOS: &[Scenario] = &[
    (
        "document_read_and_get_show_the_document_layout_of_the_profile",
        read_and_get_layout,
    ),
    (
        "documents_of_another_profile_or_merchant_are_not_found",
        documents_are_scoped,
    ),
    (
        "a_download_gives_the_uploaded_bytes_as_an_attachment",
        download_gives_the_bytes,
    ),
    (
        "document_update_status_sets_any_of_the_four_statuses",
        document_statuses,
    ),
    (
        "document_delete_removes_the_record_and_the_file_at_once",
        delete_removes_the_file,
    ),
    (
        "profile_delete_leaves_no_file_behind",
        profile_delete_leaves_no_file,
    ),
    ("notes_are_kept_exactly_and_refuse_markup_and_length", notes),
    (
        "event_read_gives_the_whole_history_from_creation_to_review",
        whole_history,
    ),
];

fn ada(extra: Value) -> Value {
    let mut body = json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    for (k, v) in extra.as_object().expect("object") {
        body[k] = v.clone();
    }
    body
}

/// A quiz with one uploaded passport of several sealed chunks (64 KiB each), so that
/// downloads cross piece boundaries; returns (token, document id, the bytes).
fn uploaded(env: &Env) -> (String, String, Vec<u8>) {
    let (token, _, _) = standard_quiz(env);
    let bytes = jpeg(700_000);
    let reply = upload(env, &token, "passport_upload", &[("passport.jpg", &bytes)]);
    let id = reply.assert_status(200)["document_id"]
        .as_str()
        .expect("id")
        .to_owned();
    (token, id, bytes)
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect()
}

fn read_and_get_layout(backend: Backend) {
    let env = Env::start(backend);
    let (token, id, _) = uploaded(&env);
    let c = env.client();
    c.call("profile/update", &json!({"email_address": "ada@example.com", "mobile_number": "4165550123",
        "first_name": "Ada", "last_name": "Lovelace", "address_line_2": "Apt 2", "postal": "M5V 2T6"})).assert_status(200);
    let _ = c.send("POST", &format!("/quiz/{token}/fields"), &[("Accept", "application/json"), ("Content-Type", "application/json")],
        br#"{"address_line_1":"1 Main St","city":"Toronto","state":"ON","postal":"M5V 2T6","country":"CA"}"#);
    let read = c.call("document/read", &ada(json!({})));
    let out = read.assert_status(200);
    assert_eq!(
        keys(out)[4..],
        [
            "total_count",
            "offset",
            "limit",
            "filtered",
            "email_address",
            "mobile_number",
            "profile",
            "documents"
        ]
    );
    assert_eq!(
        (
            out["total_count"].clone(),
            out["offset"].clone(),
            out["limit"].clone(),
            out["filtered"].clone()
        ),
        (json!(1), json!(0), json!(10), json!(1))
    );
    let p = &out["profile"];
    assert_eq!(
        keys(p),
        [
            "merchant_reference",
            "customer_id",
            "first_name",
            "middle_name",
            "last_name",
            "address_line_1",
            "address_lin_2",
            "city",
            "state",
            "country",
            "postal_code",
            "date_of_birth",
            "driver_licence_id",
            "ssn",
            "status",
            "created_at",
            "updated_at",
            "customer_submitted_form_fields"
        ]
    );
    assert_eq!(p["address_lin_2"], "Apt 2");
    assert_eq!(p["postal_code"], "M5V 2T6");
    assert_eq!(
        keys(&p["customer_submitted_form_fields"]),
        [
            "email",
            "mobile",
            "date_of_birth",
            "ssn",
            "full_address",
            "created_at",
            "updated_at"
        ]
    );
    assert_eq!(
        p["customer_submitted_form_fields"]["full_address"],
        "1 Main St, Toronto, ON M5V 2T6, CA"
    );
    let d = &out["documents"][0];
    assert_eq!(
        keys(d),
        ["id", "name", "status", "data", "created_at", "updated_at"]
    );
    assert_eq!(d["id"], id.as_str());
    let got = c.call("document/get", &ada(json!({"document_id": id})));
    let out = got.assert_status(200);
    assert_eq!(
        keys(out)[4..],
        ["email_address", "mobile_number", "profile", "document"]
    );
    assert_eq!(out["document"]["data"][0]["file_name"], "passport.jpg");
    c.call("document/get", &ada(json!({})))
        .assert_error(400, &["DOCUMENT_ID_REQUIRED"]);
    c.call("document/read", &ada(json!({"limit": 0})))
        .assert_error(400, &["LIMIT_INVALID"]);
}

fn documents_are_scoped(backend: Backend) {
    let env = Env::start(backend);
    let (_, id, _) = uploaded(&env);
    let c = env.client();
    // Another profile of the same merchant.
    c.call("profile/create", &profile("bob@example.com", "6475550100"))
        .assert_status(201);
    c.call("document/get", &json!({"email_address": "bob@example.com", "mobile_number": "6475550100", "document_id": id}))
        .assert_error(400, &["DOCUMENT_NOT_FOUND"]);
    // Another merchant, even with a profile of the same pair.
    let other = env.server.client(&env.server.create_merchant("Other"));
    other
        .call("document/get", &ada(json!({"document_id": id})))
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
    other
        .call("profile/create", &profile("ada@example.com", "4165550123"))
        .assert_status(201);
    for op in ["document/get", "document/delete"] {
        other
            .call(op, &ada(json!({"document_id": id})))
            .assert_error(400, &["DOCUMENT_NOT_FOUND"]);
    }
    other
        .call(
            "document/update-status",
            &ada(json!({"document_id": id, "status": "Approved"})),
        )
        .assert_error(400, &["DOCUMENT_NOT_FOUND"]);
    other
        .call(
            "document/download",
            &ada(json!({"document_id": id, "file_id": "x1"})),
        )
        .assert_error(400, &["DOCUMENT_NOT_FOUND"]);
    let theirs = other.call("document/read", &ada(json!({})));
    assert_eq!(theirs.assert_status(200)["total_count"], 0);
    let mine = c.call("document/get", &ada(json!({"document_id": id})));
    assert_eq!(
        mine.assert_status(200)["document"]["status"],
        "Pending",
        "untouched"
    );
}

fn download_gives_the_bytes(backend: Backend) {
    let env = Env::start(backend);
    let (_, id, bytes) = uploaded(&env);
    let c = env.client();
    let got = c.call("document/get", &ada(json!({"document_id": id})));
    let file = got.assert_status(200)["document"]["data"][0].clone();
    let file_id = file["file_id"].as_str().expect("file id");
    let reply = c.call(
        "document/download",
        &ada(json!({"document_id": id, "file_id": file_id})),
    );
    assert_eq!(reply.status, 200);
    assert_eq!(reply.bytes, bytes, "the bytes uploaded");
    assert_eq!(
        hex::encode(digest::digest(&digest::SHA256, &reply.bytes)),
        file["sha256"].as_str().expect("sha")
    );
    assert_eq!(reply.content_type, "image/jpeg");
    assert!(
        reply
            .header("Content-Disposition")
            .is_some_and(|d| d.starts_with("attachment") && d.contains("passport.jpg"))
    );
    assert_eq!(reply.header("X-Content-Type-Options"), Some("nosniff"));
    assert_eq!(reply.header("Cache-Control"), Some("no-store"));
    c.call(
        "document/download",
        &ada(json!({"document_id": id, "file_id": "01NOSUCHFILE"})),
    )
    .assert_error(400, &["FILE_NOT_FOUND"]);
    c.call("document/download", &ada(json!({"document_id": id})))
        .assert_error(400, &["FILE_ID_REQUIRED"]);
}

fn document_statuses(backend: Backend) {
    let env = Env::start(backend);
    let (_, id, _) = uploaded(&env);
    let c = env.client();
    for (sent, stored) in [
        ("reviewed", "Reviewed"),
        ("APPROVED", "Approved"),
        ("Declined", "Declined"),
        ("pending", "Pending"),
    ] {
        let reply = c.call(
            "document/update-status",
            &ada(json!({"document_id": id, "status": sent})),
        );
        let out = reply.assert_status(200);
        assert_eq!(
            keys(out)[4..],
            [
                "email_address",
                "mobile_number",
                "document_id",
                "status",
                "updated_at"
            ]
        );
        assert_eq!(out["status"], stored);
        let got = c.call("document/get", &ada(json!({"document_id": id})));
        assert_eq!(got.assert_status(200)["document"]["status"], stored);
    }
    c.call(
        "document/update-status",
        &ada(json!({"document_id": id, "status": "Done"})),
    )
    .assert_error(400, &["STATUS_INVALID"]);
    c.call("document/update-status", &ada(json!({"document_id": id})))
        .assert_error(400, &["STATUS_REQUIRED"]);
}

fn delete_removes_the_file(backend: Backend) {
    let env = Env::start(backend);
    let (_, id, _) = uploaded(&env);
    let c = env.client();
    let got = c.call("document/get", &ada(json!({"document_id": id})));
    let file_id = got.assert_status(200)["document"]["data"][0]["file_id"]
        .as_str()
        .expect("file")
        .to_owned();
    assert_eq!(env.server.stored_files(), std::slice::from_ref(&file_id));
    let reply = c.call("document/delete", &ada(json!({"document_id": id})));
    let out = reply.assert_status(200);
    assert_eq!(
        keys(out)[4..],
        [
            "email_address",
            "mobile_number",
            "document_id",
            "deleted",
            "deleted_at"
        ]
    );
    assert_eq!(out["deleted"], 1);
    assert!(
        env.server.stored_files().is_empty(),
        "the bytes are gone from disk"
    );
    c.call("document/get", &ada(json!({"document_id": id})))
        .assert_error(400, &["DOCUMENT_NOT_FOUND"]);
    c.call("document/delete", &ada(json!({"document_id": id})))
        .assert_error(400, &["DOCUMENT_NOT_FOUND"]);
}

fn profile_delete_leaves_no_file(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = uploaded(&env);
    upload(&env, &token, "selfie_upload", &[("me.jpg", &jpeg(500))]).assert_status(200);
    assert_eq!(env.server.stored_files().len(), 2);
    env.client()
        .call("note/create", &ada(json!({"note": "checked"})))
        .assert_status(201);
    env.client()
        .call("profile/delete", &ada(json!({})))
        .assert_status(200);
    assert!(env.server.stored_files().is_empty());
    env.client()
        .call("profile/create", &profile("ada@example.com", "4165550123"))
        .assert_status(201);
    let docs = env.client().call("document/read", &ada(json!({})));
    assert_eq!(docs.assert_status(200)["total_count"], 0);
    let notes = env.client().call("note/read", &ada(json!({})));
    assert_eq!(notes.assert_status(200)["total_count"], 0);
}

fn notes(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    c.call("profile/create", &profile("ada@example.com", "4165550123"))
        .assert_status(201);
    let text = "  Called the client: ID matches. R&D team < 5 people.  ";
    let reply = c.call("note/create", &ada(json!({"note": text})));
    let out = reply.assert_status(201);
    assert_eq!(
        keys(out)[4..],
        ["email_address", "mobile_number", "note", "created_at"]
    );
    assert_eq!(out["note"], text, "kept exactly");
    c.call("note/create", &ada(json!({"note": "é".repeat(255)})))
        .assert_status(201);
    c.call("note/create", &ada(json!({"note": "x".repeat(256)})))
        .assert_error(400, &["NOTE_INVALID"]);
    c.call("note/create", &ada(json!({"note": "<b>approved</b>"})))
        .assert_error(400, &["NOTE_INVALID"]);
    c.call("note/create", &ada(json!({"note": "   "})))
        .assert_error(400, &["NOTE_REQUIRED"]);
    c.call("note/create", &ada(json!({})))
        .assert_error(400, &["NOTE_REQUIRED"]);
    c.call(
        "note/create",
        &json!({"email_address": "eve@example.com", "mobile_number": "4165550999", "note": "x"}),
    )
    .assert_error(400, &["PROFILE_NOT_FOUND"]);
    let read = c.call("note/read", &ada(json!({"limit": 1})));
    let out = read.assert_status(200);
    assert_eq!(
        (out["total_count"].clone(), out["limit"].clone()),
        (json!(2), json!(1))
    );
    assert_eq!(out["notes"][0]["note"], "é".repeat(255), "newest first");
    assert_eq!(keys(&out["notes"][0]), ["note", "created_at"]);
    let rest = c.call("note/read", &ada(json!({"offset": 1})));
    assert_eq!(rest.assert_status(200)["notes"][0]["note"], text);
}

fn whole_history(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let (token, id, _) = uploaded(&env);
    let json_headers = [
        ("Accept", "application/json"),
        ("Content-Type", "application/json"),
    ];
    c.send("GET", &format!("/quiz/{token}"), &[], b"");
    c.send(
        "POST",
        &format!("/quiz/{token}/fields"),
        &json_headers,
        br#"{"address_line_1":"1 Main St","city":"Toronto","postal":"M5V 2T6","country":"CA"}"#,
    )
    .assert_status(200);
    c.send(
        "POST",
        &format!("/quiz/{token}/agreement"),
        &json_headers,
        br#"{"full_name":"Ada Lovelace","consent":true}"#,
    )
    .assert_status(200);
    c.send(
        "POST",
        &format!("/quiz/{token}/submit"),
        &json_headers,
        b"{}",
    )
    .assert_status(200);
    // The submission's verification runs in the background: its event comes next.
    crate::verification::completed(&c, &format!("{}/quiz/{token}", env.server.base_url));
    c.call(
        "document/update-status",
        &ada(json!({"document_id": id, "status": "Approved"})),
    )
    .assert_status(200);
    c.call("note/create", &ada(json!({"note": "All good."})))
        .assert_status(201);
    c.call("profile/update-status", &ada(json!({"status": "Approved"})))
        .assert_status(200);
    c.call("document/delete", &ada(json!({"document_id": id})))
        .assert_status(200);
    let events = c.call("event/read", &ada(json!({"limit": 50})));
    let list = events.assert_status(200)["events"]
        .as_array()
        .expect("array")
        .clone();
    let mut activities: Vec<&str> = list
        .iter()
        .map(|e| e["activity"].as_str().expect("activity"))
        .collect();
    activities.reverse();
    assert_eq!(
        activities,
        [
            "profile_created",
            "quiz_created",
            "document_uploaded",
            "quiz_opened",
            "form_fields_submitted",
            "document_uploaded",
            "quiz_submitted",
            "verification_completed",
            "document_status_changed",
            "note_created",
            "profile_status_changed",
            "document_deleted"
        ]
    );
    assert_eq!(
        list[0]["status"], "Approved",
        "the profile's status after the event"
    );
    assert_eq!(list.last().expect("first event")["status"], "Pending");
}
