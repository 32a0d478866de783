//! Several `idv serve` instances over one PostgreSQL database behave as one service.

use std::time::{Duration, Instant};

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

/// Two instances over one database, with these extra settings on both.
fn pair_of_instances(backend: Backend, env: &[(&str, &str)]) -> (Server, Server) {
    let db = TestDatabase::create(backend);
    let shared = db.share();
    let first = Server::start_with(db, env);
    let second = Server::start_with(shared, env);
    (first, second)
}

/// A key's rate limit is one budget, whichever instance a request reaches.
pub fn the_rate_limit_holds_across_instances(backend: Backend) {
    let (first, second) = pair_of_instances(backend, &[("IDV_API_RATE_LIMIT", "2")]);
    let merchant = first.create_merchant("Acme");
    let clients = [first.client(&merchant), second.client(&merchant)];
    let key = json!({"email_address": "ada@example.com", "mobile_number": "4165550123"});
    let started = Instant::now();
    let accepted = (0..24)
        .filter(|n| clients[n % 2].call("profile/get", &key).status != 429)
        .count();
    // 2 per second in bursts of 4, counted once for both instances (counted apart, each
    // would take its own burst of 4 and its own 2 per second).
    let allowed = 4 + (2.0 * started.elapsed().as_secs_f64()).ceil() as usize;
    assert!(
        accepted <= allowed,
        "{accepted} accepted in {:?}; at most {allowed} may be",
        started.elapsed()
    );
    assert!(accepted >= 4, "the burst passes: {accepted}");
}

/// A key disabled on the shared database is refused by every instance within 1 s, also
/// by one that holds it in memory.
pub fn a_disabled_key_is_refused_by_every_instance_within_a_second(backend: Backend) {
    let (first, second) = pair_of_instances(backend, &[]);
    let merchant = first.create_merchant("Acme");
    // Both hold the key in memory now.
    for server in [&first, &second] {
        server
            .client(&merchant)
            .call("merchant/settings/get", &json!({}))
            .assert_status(200);
    }
    second.run(&["merchant", "key", "disable", "--key", &merchant.api_key]);
    let disabled = Instant::now();
    loop {
        let reply = first
            .client(&merchant)
            .call("merchant/settings/get", &json!({}));
        if reply.status == 401 {
            reply.assert_error(401, &["API_KEY_DISABLED"]);
            break;
        }
        // The contract's bound is 1 s; the margin covers this loop's own requests.
        assert!(
            disabled.elapsed() < Duration::from_millis(1500),
            "the first instance still accepted it {:?} after",
            disabled.elapsed()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
