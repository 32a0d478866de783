//! The integrator's tools: `idv call` and `idv sign` against the real server.

use serde_json::{Value, json};

use crate::Scenario;
use crate::support::{Backend, Env};

pub const SCENARIOS: &[Scenario] = &[
    (
        "idv_call_signs_sends_and_prints_the_answer",
        idv_call_prints_answers,
    ),
    (
        "idv_sign_prints_a_header_the_server_accepts",
        idv_sign_header,
    ),
    (
        "the_openapi_document_is_served_unsigned_and_matches_the_committed_one",
        openapi_served,
    ),
    ("idv_seed_writes_profiles_the_api_reads", seeded_profiles),
];

fn seeded_profiles(backend: Backend) {
    let env = Env::start(backend);
    let out = env
        .server
        .run(&["seed", "--merchant", &env.merchant.id, "--profiles", "25"]);
    assert!(out.starts_with("25 profiles written"), "{out}");
    // Client 24: `load-24@example.com`, mobile 2 00 2 000024 (scripts/load/requests.py).
    let pair = json!({"email_address": "load-24@example.com", "mobile_number": "2002000024"});
    let got = env.client().call("profile/get", &pair);
    let profile = &got.assert_status(200)["profile"];
    // Client i is named by the seed's lists: first name i mod 20, last name i / 20 mod 50.
    assert_eq!(
        [&profile["first_name"], &profile["last_name"]],
        ["Donald", "Baker"]
    );
    let events = env.client().call("event/read", &pair);
    assert_eq!(
        events.assert_status(200)["events"][0]["activity"],
        "profile_created"
    );
    let all = env
        .client()
        .call("profile/read", &json!({"offset": 0, "limit": 1}));
    assert_eq!(all.assert_status(200)["total_count"], 25);
    if backend == Backend::Postgres {
        // The load leaves the planner its statistics (25 rows are too few for
        // autovacuum to analyse, were it on).
        #[derive(diesel::QueryableByName)]
        struct Analysed {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            tables: i64,
        }
        let analysed: Vec<Analysed> = env.server.db.select(
            "SELECT count(DISTINCT tablename) AS tables FROM pg_stats \
             WHERE tablename IN ('profiles', 'events')",
        );
        assert_eq!(analysed[0].tables, 2, "profiles and events analysed");
    }
}

fn openapi_served(backend: Backend) {
    let env = Env::start(backend);
    let reply = env.client().send("GET", "/api/v1/openapi.json", &[], b"");
    assert_eq!(reply.status, 200);
    let committed: Value = serde_json::from_str(include_str!("../../../../docs/openapi.json"))
        .expect("docs/openapi.json is JSON");
    assert_eq!(
        reply.body, committed,
        "docs/openapi.json differs from the served document"
    );
    assert_eq!(reply.body["openapi"], "3.1.0");
    let redirect = env.client().send("GET", "/docs", &[], b"");
    assert_eq!(redirect.status, 302);
    assert_eq!(redirect.header("Location"), Some("/docs/"));
    let docs = env.client().send("GET", "/docs/", &[], b"");
    assert_eq!(docs.status, 200);
    assert!(docs.text().contains("swagger"), "a Swagger UI page");
    let script = env
        .client()
        .send("GET", "/docs/swagger-ui-bundle.js", &[], b"");
    assert_eq!(script.status, 200, "assets come from the binary, not a CDN");
}

fn call(env: &Env, args: &[&str]) -> (bool, Value) {
    let out = env
        .server
        .idv()
        .env("IDV_URL", &env.server.base_url)
        .env("IDV_API_KEY", &env.merchant.api_key)
        .env("IDV_API_SECRET", &env.merchant.api_secret)
        .arg("call")
        .args(args)
        .output()
        .expect("idv runs");
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.success(), json)
}

fn idv_call_prints_answers(backend: Backend) {
    let env = Env::start(backend);
    let body = json!({"email_address": "ada@example.com", "mobile_number": "4165550123", "first_name": "Ada", "last_name": "Lovelace"});
    let (ok, answer) = call(&env, &["profile/create", "--data", &body.to_string()]);
    assert!(ok, "{answer}");
    assert_eq!(answer["http_status_code"], 201);
    let file = env.server.db.data_dir.path().join("get.json");
    std::fs::write(
        &file,
        json!({"email_address": "ada@example.com", "mobile_number": "4165550123"}).to_string(),
    )
    .expect("written");
    let (ok, answer) = call(
        &env,
        &["profile/get", "--data", &format!("@{}", file.display())],
    );
    assert!(ok);
    assert_eq!(answer["profile"]["first_name"], "Ada");
    let (ok, answer) = call(
        &env,
        &[
            "profile/get",
            "--data",
            r#"{"email_address":"bob@example.com","mobile_number":"4165550199"}"#,
        ],
    );
    assert!(!ok, "an error answer exits non-zero");
    assert_eq!(answer["errors"][0]["code"], "PROFILE_NOT_FOUND");
}

fn idv_sign_header(backend: Backend) {
    let env = Env::start(backend);
    let body = r#"{"email_address":"ada@example.com","mobile_number":"4165550123"}"#;
    let out = env
        .server
        .idv()
        .env("IDV_API_SECRET", &env.merchant.api_secret)
        .args(["sign", "--path", "/api/v1/profile/get", "--data", body])
        .output()
        .expect("idv runs");
    assert!(out.status.success());
    let signature = String::from_utf8(out.stdout).expect("utf-8");
    assert!(signature.starts_with("t="), "{signature}");
    let reply = env.client().send(
        "POST",
        "/api/v1/profile/get",
        &[
            ("Api-Key", &env.merchant.api_key),
            ("Signature", signature.trim()),
        ],
        body.as_bytes(),
    );
    reply.assert_error(400, &["PROFILE_NOT_FOUND"]);
}
