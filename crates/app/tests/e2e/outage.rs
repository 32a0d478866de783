//! The database going away: answers turn into 503 SERVICE_UNAVAILABLE, and the service
//! recovers by itself when the database is back. PostgreSQL only: its database can be
//! closed to connections under a running server and opened again.

use std::time::{Duration, Instant};

use diesel::{Connection, PgConnection, RunQueryDsl};
use serde_json::json;

use crate::support::database::postgres_admin_url;
use crate::support::{Backend, Env};

fn admin(sql: &str) {
    let mut conn = PgConnection::establish(&postgres_admin_url()).expect("admin connection");
    diesel::sql_query(sql).execute(&mut conn).expect(sql);
}

pub fn database_outage_is_503_and_recovers(backend: Backend) {
    assert_eq!(backend, Backend::Postgres);
    let env = Env::start(backend);
    let c = env.client();
    c.call("merchant/settings/get", &json!({}))
        .assert_status(200);
    let url = env.server.db.url.clone().expect("a PostgreSQL database");
    let name = url.rsplit('/').next().expect("database name").to_owned();

    // Take the database away: refuse new connections and cut those the server holds.
    admin(&format!(
        "ALTER DATABASE {name} WITH ALLOW_CONNECTIONS false"
    ));
    admin(&format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
    ));
    let reply = c.call("merchant/settings/get", &json!({}));
    reply.assert_error(503, &["SERVICE_UNAVAILABLE"]);
    let text = reply.body.to_string();
    assert!(
        !text.contains(&name) && !text.contains("connection"),
        "nothing internal revealed: {text}"
    );
    assert_eq!(c.send("GET", "/readyz", &[], b"").status, 503);
    assert_eq!(
        c.send("GET", "/healthz", &[], b"").status,
        200,
        "the process itself is fine"
    );

    // Give it back: the next requests succeed without a restart.
    admin(&format!(
        "ALTER DATABASE {name} WITH ALLOW_CONNECTIONS true"
    ));
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let reply = c.call("merchant/settings/get", &json!({}));
        if reply.status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "never recovered: {}", reply.body);
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(c.send("GET", "/readyz", &[], b"").status, 200);
}
