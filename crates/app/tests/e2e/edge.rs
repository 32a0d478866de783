//! The service's edge (contract §16): what every answer carries, what the API's request
//! log names, and the bounds on slow bodies and on connections per address, tried as an
//! abuser would.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::Scenario;
use crate::client_pages::send_quiz;
use crate::support::{Backend, Env, Reply, profile};

pub const SCENARIOS: &[Scenario] = &[
    (
        "every_api_answer_is_no_store_and_nosniff_errors_included",
        api_answers_headers,
    ),
    (
        "error_answers_of_the_quiz_pages_and_the_dashboard_keep_their_security_headers",
        scoped_errors_keep_headers,
    ),
    (
        "the_docs_have_their_own_content_security_policy",
        docs_policy,
    ),
    (
        "the_api_log_names_the_key_id_and_client_address_never_the_secret",
        api_log_names_key_and_address,
    ),
    (
        "a_body_trickled_past_its_deadline_is_answered_408",
        body_deadline,
    ),
    (
        "an_upload_slower_than_16_kib_a_second_is_answered_408",
        slow_upload,
    ),
    (
        "the_65th_connection_of_an_address_is_shut_while_others_are_served",
        connection_cap,
    ),
];

const PAIR: (&str, &str) = ("ada@example.com", "4165550123");

fn pair() -> Value {
    json!({"email_address": PAIR.0, "mobile_number": PAIR.1})
}

#[track_caller]
fn assert_headers(reply: &Reply, expected: &[(&str, &str)], what: &str) {
    for (name, value) in expected {
        assert_eq!(
            reply.header(name),
            Some(*value),
            "{name} of {what} ({} {})",
            reply.status,
            reply.body
        );
    }
}

const API_HEADERS: [(&str, &str); 2] = [
    ("Cache-Control", "no-store"),
    ("X-Content-Type-Options", "nosniff"),
];

fn api_answers_headers(backend: Backend) {
    let env = Env::start_with(backend, &[("IDV_API_RATE_LIMIT", "1")]);
    let c = env.client();
    let mut replies = vec![
        (
            "a success",
            c.call("profile/create", &profile(PAIR.0, PAIR.1)),
        ),
        ("a 400", c.call("profile/get", &json!({}))),
        ("a 401", c.send("POST", "/api/v1/profile/get", &[], b"{}")),
        (
            "a 404",
            c.send("POST", "/api/v1/no/such/operation", &[], b"{}"),
        ),
        ("a 405", c.send("GET", "/api/v1/profile/get", &[], b"")),
        (
            "a 413",
            c.send(
                "POST",
                "/api/v1/profile/get",
                &[("Content-Type", "application/json")],
                &vec![b' '; 100 * 1024],
            ),
        ),
        (
            "a 415",
            c.send(
                "POST",
                "/api/v1/profile/get",
                &[("Content-Type", "text/plain")],
                b"{}",
            ),
        ),
        (
            "the OpenAPI document",
            c.send("GET", "/api/v1/openapi.json", &[], b""),
        ),
    ];
    // One request a second, in bursts of 2: the third at once is refused.
    let limited = (0..3)
        .map(|_| c.call("profile/get", &pair()))
        .find(|r| r.status == 429)
        .expect("a 429 past the burst");
    replies.push(("a 429", limited));
    let statuses: Vec<u16> = replies.iter().map(|(_, r)| r.status).collect();
    assert_eq!(statuses, [201, 400, 401, 404, 405, 413, 415, 200, 429]);
    for (what, reply) in &replies {
        assert_headers(reply, &API_HEADERS, what);
    }
}

/// The headers the quiz pages and the dashboard answer with.
const PAGE_HEADERS: [(&str, &str); 3] = [
    ("X-Frame-Options", "DENY"),
    ("X-Content-Type-Options", "nosniff"),
    ("Cache-Control", "no-store"),
];

#[track_caller]
fn assert_page_headers(reply: &Reply, what: &str) {
    assert_headers(reply, &PAGE_HEADERS, what);
    // A quiz page's address holds its token: it is told to no one. The dashboard's
    // holds no secret, and tells only itself (its `Origin` check needs that).
    let referrer = match what.contains("dashboard") {
        true => "same-origin",
        false => "no-referrer",
    };
    assert_headers(reply, &[("Referrer-Policy", referrer)], what);
    let policy = reply.header("Content-Security-Policy").unwrap_or_default();
    assert!(
        policy.contains("default-src 'none'") && policy.contains("frame-ancestors 'none'"),
        "policy of {what}: {policy:?}"
    );
}

fn scoped_errors_keep_headers(backend: Backend) {
    let env = Env::start_with(backend, &[("IDV_CLIENT_RATE_LIMIT", "8")]);
    let (token, _, _) = send_quiz(&env, json!({"ssn_submit": 1}));
    let c = env.client();
    let json_post = [
        ("Accept", "application/json"),
        ("Content-Type", "application/json"),
    ];
    let form_post = [("Content-Type", "application/x-www-form-urlencoded")];
    let replies = [
        (
            "a quiz page",
            c.send("GET", &format!("/quiz/{token}"), &[], b""),
        ),
        (
            "a 404 under a quiz link",
            c.send("GET", &format!("/quiz/{token}/no-such-page"), &[], b""),
        ),
        (
            "a 413 form post",
            c.send(
                "POST",
                &format!("/quiz/{token}/fields"),
                &json_post,
                &vec![b' '; 100 * 1024],
            ),
        ),
        (
            "a 400 form post",
            c.send("POST", &format!("/quiz/{token}/fields"), &json_post, b"[1"),
        ),
        (
            "a 404 in the dashboard",
            c.send("GET", "/dashboard/no-such-page", &[], b""),
        ),
        (
            "a 413 dashboard form",
            c.send(
                "POST",
                "/dashboard/login",
                &form_post,
                format!("email=a&password={}", "x".repeat(100 * 1024)).as_bytes(),
            ),
        ),
        (
            "a 400 dashboard form",
            c.send(
                "POST",
                "/dashboard/login",
                &[("Content-Type", "application/json")],
                b"{}",
            ),
        ),
    ];
    let statuses: Vec<u16> = replies.iter().map(|(_, r)| r.status).collect();
    assert_eq!(statuses[..4], [200, 404, 413, 400]);
    assert_eq!(statuses[4], 404);
    assert!(
        statuses[5..].iter().all(|s| (400..500).contains(s)),
        "{statuses:?}"
    );
    for (what, reply) in &replies {
        assert_page_headers(reply, what);
    }
    // Past the quiz pages' rate limit, the refusal carries them too.
    let limited = (0..10)
        .map(|_| c.send("GET", &format!("/quiz/{token}"), &[], b""))
        .find(|r| r.status == 429)
        .expect("a 429 past 8 a minute");
    assert_page_headers(&limited, "a 429 of the quiz pages");
}

fn docs_policy(backend: Backend) {
    let env = Env::start(backend);
    let c = env.client();
    let page = c.send("GET", "/docs/", &[], b"");
    assert_eq!(page.status, 200);
    assert!(
        page.text().contains("swagger-ui-bundle.js"),
        "{}",
        page.text()
    );
    let policy = page
        .header("Content-Security-Policy")
        .expect("a policy")
        .to_owned();
    for directive in [
        "default-src 'none'",
        "script-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(policy.contains(directive), "{directive} in {policy}");
    }
    assert!(!policy.contains("unsafe-eval"), "{policy}");
    // What the page loads is served from here, under the same policy.
    for asset in [
        "swagger-ui-bundle.js",
        "swagger-initializer.js",
        "swagger-ui.css",
    ] {
        let reply = c.send("GET", &format!("/docs/{asset}"), &[], b"");
        assert_eq!(reply.status, 200, "{asset}");
        assert_eq!(
            reply.header("Content-Security-Policy"),
            Some(policy.as_str())
        );
    }
    assert_eq!(
        c.send("GET", "/docs/no-such-file", &[], b"")
            .header("Content-Security-Policy"),
        Some(policy.as_str()),
        "a 404 under /docs"
    );
}

fn api_log_names_key_and_address(backend: Backend) {
    let env = Env::start_with(backend, &[("IDV_LOG", "info"), ("IDV_LOG_FORMAT", "json")]);
    let key = &env.merchant.api_key;
    let reply = env.client().call("profile/get", &pair());
    reply.assert_error(400, &["PROFILE_NOT_FOUND"]);
    let reference = reply.reference_header.expect("a reference id");
    let log_path = env.server.db.data_dir.path().join("server.log");
    // The request's line is written once it is served: wait for it.
    let deadline = Instant::now() + Duration::from_secs(10);
    let span = loop {
        let log = std::fs::read_to_string(&log_path).unwrap_or_default();
        let served = log
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|l| {
                l["message"] == "request served"
                    && l["span"]["query_reference_id"] == reference.as_str()
            });
        if let Some(line) = served {
            break line["span"].clone();
        }
        assert!(
            Instant::now() < deadline,
            "no log line for {reference}:\n{log}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(span["key_id"], key.as_str(), "{span}");
    assert_eq!(span["client_address"], "127.0.0.1", "{span}");
    let log = std::fs::read_to_string(&log_path).expect("log");
    assert!(
        !log.contains(&env.merchant.api_secret),
        "the secret in {log}"
    );
}

/// Sends `head`, then `body` a piece at a time, `every` apart, on its own thread (until
/// the server closes); returns the answer's text, read within `within`.
fn trickle(
    address: &str,
    head: String,
    body: Vec<Vec<u8>>,
    every: Duration,
    within: Duration,
) -> String {
    let mut stream = TcpStream::connect(address).expect("connect");
    stream.set_read_timeout(Some(within)).expect("timeout");
    stream.write_all(head.as_bytes()).expect("head sent");
    let mut writer = stream.try_clone().expect("clone");
    let sender = std::thread::spawn(move || {
        for piece in body {
            if writer.write_all(&piece).is_err() {
                return;
            }
            std::thread::sleep(every);
        }
    });
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    // Ends the sender too, should the server not have.
    let _ = stream.shutdown(std::net::Shutdown::Both);
    let _ = sender.join();
    String::from_utf8_lossy(&answer).into_owned()
}

fn body_deadline(backend: Backend) {
    let env = Env::start_with(backend, &[("IDV_BODY_DEADLINE_SECONDS", "3")]);
    let address = env.server.base_url.trim_start_matches("http://").to_owned();
    // A byte a second never stalls (15 s), but 100 bytes would take 100 s.
    let head = format!(
        "POST /api/v1/profile/get HTTP/1.1\r\nHost: {address}\r\nApi-Key: {}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n",
        env.merchant.api_key
    );
    let body = (0..100).map(|_| b" ".to_vec()).collect();
    let started = Instant::now();
    let answer = trickle(
        &address,
        head,
        body,
        Duration::from_secs(1),
        Duration::from_secs(30),
    );
    assert!(answer.starts_with("HTTP/1.1 408"), "answer: {answer}");
    assert!(answer.contains("REQUEST_TIMEOUT"), "answer: {answer}");
    assert!(started.elapsed() < Duration::from_secs(30));
    // The dashboard's forms, read by another extractor, are bounded the same.
    let head = format!(
        "POST /dashboard/login HTTP/1.1\r\nHost: {address}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n"
    );
    let body = (0..100).map(|_| b"a".to_vec()).collect();
    let answer = trickle(
        &address,
        head,
        body,
        Duration::from_secs(1),
        Duration::from_secs(30),
    );
    assert!(answer.starts_with("HTTP/1.1 408"), "answer: {answer}");
    assert!(
        answer
            .to_ascii_lowercase()
            .contains("content-security-policy:"),
        "the dashboard's headers kept: {answer}"
    );
    // A body in time is served as ever.
    env.client()
        .call("profile/get", &pair())
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
}

fn slow_upload(backend: Backend) {
    let env = Env::start(backend);
    let (token, _, _) = send_quiz(&env, json!({"passport_upload": 1}));
    let address = env.server.base_url.trim_start_matches("http://").to_owned();
    // 2 KiB every half second (4 KiB/s): never a stall, but well under 16 KiB/s, so the
    // upload is given up soon after its first 10 s (at about 13 s).
    let declared = 4 * 1024 * 1024;
    let head = format!(
        "POST /quiz/{token}/documents HTTP/1.1\r\nHost: {address}\r\nAccept: application/json\r\n\
         Content-Type: multipart/form-data; boundary=b\r\nContent-Length: {declared}\r\n\r\n"
    );
    let mut first = b"--b\r\nContent-Disposition: form-data; name=\"step\"\r\n\r\npassport_upload\r\n--b\r\n\
        Content-Disposition: form-data; name=\"file\"; filename=\"p.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
        .to_vec();
    first.extend(crate::support::jpeg(2048));
    let mut body = vec![first];
    body.extend((0..1000).map(|i| vec![(i % 251) as u8; 2048]));
    let answer = trickle(
        &address,
        head,
        body,
        Duration::from_millis(500),
        Duration::from_secs(40),
    );
    assert!(answer.starts_with("HTTP/1.1 408"), "answer: {answer}");
    assert!(answer.contains("REQUEST_TIMEOUT"), "answer: {answer}");
    assert!(
        env.server.stored_files().is_empty(),
        "nothing of it is kept"
    );
}

/// Sends `GET /healthz` on `stream` and reads the whole answer: its status, or `None` if
/// the connection was closed instead.
fn health_on(stream: &mut TcpStream) -> Option<u16> {
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: idv\r\n\r\n")
        .ok()?;
    let mut answer = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        let text = String::from_utf8_lossy(&answer).into_owned();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().to_owned())
                })
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(0);
            if body.len() >= length {
                return head.split(' ').nth(1)?.parse().ok();
            }
        }
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return None,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
    }
}

/// A connection to `server` from `local` (another loopback address, say).
fn connect_from(local: &str, server: SocketAddr) -> TcpStream {
    let socket =
        socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).expect("socket");
    let local: SocketAddr = format!("{local}:0").parse().expect("address");
    socket.bind(&local.into()).expect("bind");
    socket.connect(&server.into()).expect("connect");
    socket.into()
}

fn connection_cap(backend: Backend) {
    let env = Env::start(backend);
    let server: SocketAddr = env
        .server
        .base_url
        .trim_start_matches("http://")
        .parse()
        .expect("address");
    // 64 kept-alive connections from one address, each served once and held open.
    let mut held: Vec<TcpStream> = (0..64)
        .map(|i| {
            let mut stream = TcpStream::connect(server).expect("connect");
            assert_eq!(health_on(&mut stream), Some(200), "connection {i}");
            stream
        })
        .collect();
    let mut extra = TcpStream::connect(server).expect("the kernel accepts");
    assert_eq!(health_on(&mut extra), None, "the 65th is shut unanswered");
    // Another client address is served meanwhile...
    let mut other = connect_from("127.0.0.2", server);
    assert_eq!(health_on(&mut other), Some(200));
    // ...and so is the first again once one of its connections has closed.
    drop(held.pop());
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut again = TcpStream::connect(server).expect("connect");
        match health_on(&mut again) {
            Some(status) => {
                assert_eq!(status, 200);
                break;
            }
            None => assert!(Instant::now() < deadline, "no place given back"),
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
