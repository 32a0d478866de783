//! `GET /metrics` (contract §15): read with a real Prometheus text parser, it counts
//! requests by operation and status, times them, reports the queues and the checks run,
//! and names no one; only loopback clients reach it on the main address, and with
//! `IDV_METRICS_BIND` only its own address serves it.

use prometheus_parse::{Sample, Scrape, Value as Metric};
use serde_json::json;

use crate::Scenario;
use crate::support::{Backend, Client, Env, profile};
use crate::verification::{answer, completed, quiz_for};

pub const SCENARIOS: &[Scenario] = &[
    (
        "metrics_count_operations_queues_and_checks_and_name_no_one",
        counted_and_anonymous,
    ),
    (
        "metrics_bind_serves_metrics_on_its_own_address_and_not_on_the_main_one",
        own_address,
    ),
];

const EMAIL: &str = "ada.metrics@example.com";
const MOBILE: &str = "4165550188";
const SSN: &str = "666123456";

/// Every family `/metrics` must hold, whatever happened before.
const FAMILIES: [&str; 6] = [
    "idv_http_requests_total",
    "idv_http_request_duration_seconds",
    "idv_verification_queue_depth",
    "idv_verification_queue_oldest_age_seconds",
    "idv_webhook_queue_depth",
    "idv_webhook_queue_oldest_due_age_seconds",
];

fn scrape(client: &Client, headers: &[(&str, &str)]) -> (u16, String) {
    let reply = client.send("GET", "/metrics", headers, b"");
    (
        reply.status,
        String::from_utf8_lossy(&reply.bytes).into_owned(),
    )
}

fn parse(text: &str) -> Scrape {
    Scrape::parse(text.lines().map(|l| Ok(l.to_owned()))).expect("Prometheus text format")
}

fn samples<'a>(scrape: &'a Scrape, metric: &str) -> Vec<&'a Sample> {
    scrape
        .samples
        .iter()
        .filter(|s| s.metric == metric)
        .collect()
}

fn has_families(scrape: &Scrape) {
    for family in FAMILIES {
        assert!(
            !samples(scrape, family).is_empty(),
            "{family} in {:?}",
            scrape.samples.iter().map(|s| &s.metric).collect::<Vec<_>>()
        );
    }
}

fn counted_and_anonymous(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    client
        .call("profile/create", &profile(EMAIL, MOBILE))
        .assert_status(201);
    let pair = json!({"email_address": EMAIL, "mobile_number": MOBILE});
    client.call("profile/get", &pair).assert_status(200);
    client
        .call(
            "profile/get",
            &json!({"email_address": "nobody@example.com", "mobile_number": "4165550199"}),
        )
        .assert_error(400, &["PROFILE_NOT_FOUND"]);
    let url = quiz_for(&client, EMAIL, MOBILE);
    answer(&env, &url, SSN, "1990-04-01");
    let verification = completed(&client, &url);
    let token = url.rsplit('/').next().expect("token").to_owned();

    let (status, text) = scrape(&client, &[]);
    assert_eq!(status, 200, "{text}");
    let scraped = parse(&text);
    has_families(&scraped);

    let requests = samples(&scraped, "idv_http_requests_total");
    let count = |operation: &str, status: &str| -> f64 {
        requests
            .iter()
            .filter(|s| {
                s.labels.get("operation") == Some(operation)
                    && s.labels.get("status") == Some(status)
            })
            .map(|s| match s.value {
                Metric::Counter(v) => v,
                _ => panic!("a counter"),
            })
            .sum()
    };
    assert_eq!(count("profile/create", "201"), 1.0);
    assert_eq!(count("profile/get", "200"), 1.0);
    assert_eq!(
        count("profile/get", "400"),
        1.0,
        "errors are counted by status"
    );
    assert!(
        count("/quiz/:token/fields", "200") >= 1.0,
        "pages by their route template: {text}"
    );
    let latency = samples(&scraped, "idv_http_request_duration_seconds");
    assert!(
        latency
            .iter()
            .any(|s| s.labels.get("operation") == Some("profile/get")
                && matches!(&s.value, Metric::Histogram(buckets) if !buckets.is_empty())),
        "a latency histogram per operation"
    );
    let checks = samples(&scraped, "idv_verification_checks_total");
    let names: Vec<&str> = verification["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .map(|c| c["name"].as_str().expect("name"))
        .collect();
    for name in &names {
        assert!(
            checks.iter().any(|s| s.labels.get("check") == Some(name)),
            "check {name} counted"
        );
    }
    assert!(
        checks
            .iter()
            .any(|s| s.labels.get("check") == Some("ssn_format")
                && s.labels.get("outcome") == Some("failed"))
    );
    let depth = samples(&scraped, "idv_verification_queue_depth");
    assert!(
        matches!(depth[0].value, Metric::Gauge(v) if v == 0.0),
        "nothing waits"
    );

    for secret in [
        EMAIL,
        "example.com",
        MOBILE,
        SSN,
        "Ada",
        "Lovelace",
        &env.merchant.id,
        &env.merchant.api_key,
        &token,
    ] {
        assert!(!text.contains(secret), "{secret} appears in /metrics");
    }

    // A request a proxy relayed came from elsewhere, whatever the socket's peer.
    let (status, _) = scrape(&client, &[("X-Forwarded-For", "203.0.113.5")]);
    assert_eq!(status, 404, "a relayed request is refused");
    for relayed in [
        ("Forwarded", "for=203.0.113.5"),
        ("X-Real-IP", "203.0.113.5"),
        ("Via", "1.1 proxy"),
        ("X-Forwarded-Host", "idv.example"),
    ] {
        let (status, _) = scrape(&client, &[relayed]);
        assert_eq!(status, 404, "{relayed:?} is relayed");
    }
}

fn own_address(backend: Backend) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let bind = format!("127.0.0.1:{port}");
    let env = Env::start_with(backend, &[("IDV_METRICS_BIND", &bind)]);
    let client = env.client();
    client
        .call("profile/create", &profile(EMAIL, MOBILE))
        .assert_status(201);
    let (status, _) = scrape(&client, &[]);
    assert_eq!(status, 404, "the main address no longer serves /metrics");
    let own = Client::new(&format!("http://{bind}"), &env.merchant);
    let (status, text) = scrape(&own, &[]);
    assert_eq!(status, 200, "{text}");
    has_families(&parse(&text));
    // The operator's address is for whoever reaches it: a relayed scrape is answered.
    let (status, _) = scrape(&own, &[("X-Forwarded-For", "203.0.113.5")]);
    assert_eq!(status, 200);
    assert_eq!(
        own.send("GET", "/healthz", &[], b"").status,
        404,
        "metrics only"
    );
}
