//! Nothing acknowledged is lost: a server killed with SIGKILL mid-burst keeps every
//! profile whose creation it had answered 201, and SIGTERM stops it cleanly.

use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::json;

use crate::Scenario;
use crate::support::{Backend, Env, profile};

pub const SCENARIOS: &[Scenario] = &[
    (
        "every_acknowledged_profile_survives_a_sigkill",
        acknowledged_profiles_survive_sigkill,
    ),
    ("sigterm_stops_the_server_cleanly", sigterm_stops_cleanly),
];

const WRITERS: usize = 4;
const PER_WRITER: usize = 400;

fn acknowledged_profiles_survive_sigkill(backend: Backend) {
    let mut env = Env::start(backend);
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let writers: Vec<_> = (0..WRITERS)
        .map(|w| {
            let client = env.client();
            let acknowledged = acknowledged.clone();
            thread::spawn(move || {
                for i in 0..PER_WRITER {
                    let email = format!("w{w}n{i}@example.com");
                    let mobile = format!("4165{w}{i:05}");
                    // The server dies under us: a failed request is simply not acknowledged.
                    match client.try_call("profile/create", &profile(&email, &mobile)) {
                        Ok(reply) if reply.status == 201 => {
                            acknowledged.lock().expect("lock").push((email, mobile))
                        }
                        _ => return,
                    }
                }
            })
        })
        .collect();
    // Let the burst get going, then kill without warning.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while acknowledged.lock().expect("lock").len() < 50 && std::time::Instant::now() < deadline {
        thread::sleep(Duration::from_millis(5));
    }
    env.server.kill();
    for w in writers {
        w.join().expect("writer thread");
    }
    let acknowledged = acknowledged.lock().expect("lock").clone();
    assert!(
        acknowledged.len() >= 50,
        "the burst was under way: {}",
        acknowledged.len()
    );
    assert!(
        acknowledged.len() < WRITERS * PER_WRITER,
        "the kill came during the burst"
    );

    env.server.restart();
    let client = env.client();
    for (email, mobile) in &acknowledged {
        client
            .call(
                "profile/get",
                &json!({"email_address": email, "mobile_number": mobile}),
            )
            .assert_status(200);
    }
}

fn sigterm_stops_cleanly(backend: Backend) {
    let mut env = Env::start(backend);
    env.client()
        .call("profile/create", &profile("ada@example.com", "4165550123"))
        .assert_status(201);
    let status = env.server.terminate();
    assert!(status.success(), "a clean exit: {status}");
    env.server.restart();
    env.client()
        .call(
            "profile/get",
            &json!({"email_address": "ada@example.com", "mobile_number": "4165550123"}),
        )
        .assert_status(200);
}
