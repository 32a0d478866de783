//! Several `idv serve` instances over one PostgreSQL database behave as one service.

use serde_json::json;

use crate::support::{Backend, Server, TestDatabase, profile};

/// Two instances started at the same instant on a fresh database: one migrates and
/// records the master key, the other waits for it; both serve the same data.
pub fn started_together_they_migrate_one_fresh_database(backend: Backend) {
    let db = TestDatabase::create(backend);
    let shared = db.share();
    let (first, second) = std::thread::scope(|s| {
        let first = s.spawn(|| Server::start_with(db, &[]));
        let second = s.spawn(|| Server::start_with(shared, &[]));
        (
            first.join().expect("the first instance starts"),
            second.join().expect("the second instance starts"),
        )
    });
    let merchant = first.create_merchant("Acme");
    let body = profile("ada@example.com", "4165550123");
    first
        .client(&merchant)
        .call("profile/create", &body)
        .assert_status(201);
    let key = json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    let got = second.client(&merchant).call("profile/get", &key);
    assert_eq!(got.assert_status(200)["profile"]["first_name"], "Ada");
}
