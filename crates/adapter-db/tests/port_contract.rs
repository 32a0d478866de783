//! The port contract suite of `domain::contract`, run on SQLite and on PostgreSQL: the
//! same promises the in-memory adapters keep. Each check gets a fresh database. The
//! rate limiter's contract runs on the limiter PostgreSQL shares between instances
//! (SQLite has none: one process holds its budgets in memory).
//! PostgreSQL (`IDV_TEST_POSTGRES_URL`, default `postgres://postgres@127.0.0.1:5432`) is
//! reported as ignored when unreachable, and fails under `IDV_TEST_REQUIRE_POSTGRES=1`.

use std::sync::Arc;

use adapter_db::{Database, Vault};
use diesel::{Connection, PgConnection, RunQueryDsl, sql_query};
use domain::contract::limits::{LIMITER_CHECKS, LimiterCheck};
use domain::contract::{CHECKS, Ports};
use libtest_mimic::{Arguments, Failed, Trial};

fn server() -> String {
    std::env::var("IDV_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".into())
        .trim_end_matches('/')
        .to_owned()
}

/// The URL of `database` on the test server. Without GSSAPI encryption, which nothing here
/// uses: Kerberos's library, asked for credentials on every connection otherwise, frees
/// its locks as the process exits, under a pool thread still connecting (an abort at
/// exit, as OpenSSL's teardown was a crash: `adapter_db::keep_tls_at_exit`).
fn url_of(database: &str) -> String {
    format!("{}/{database}?gssencmode=disable", server())
}

fn admin() -> Result<PgConnection, String> {
    PgConnection::establish(&url_of("postgres")).map_err(|e| e.to_string())
}

fn ports_of(db: Database) -> Ports {
    let db = Arc::new(db);
    Ports {
        merchants: db.clone(),
        profiles: db.clone(),
        templates: db.clone(),
        quizzes: db.clone(),
        documents: db.clone(),
        notes: db.clone(),
        users: db.clone(),
        sessions: db.clone(),
        webhooks: db.clone(),
        subscriptions: db.clone(),
        verifications: db.clone(),
        identities: db.clone(),
        screening: db.clone(),
        signals: db.clone(),
        audit: db,
    }
}

fn open(url: &str) -> Database {
    let db = Database::open(url, Arc::new(Vault::new(&[9; 32]))).expect("open");
    db.migrate(1_795_000_000).expect("migrated");
    db
}

fn run(check: domain::contract::Check, ports: Ports) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(check(ports));
}

fn on_sqlite(check: domain::contract::Check) -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let db = open(&dir.path().join("contract.sqlite3").display().to_string());
    run(check, ports_of(db));
    Ok(())
}

/// Runs `with` on a fresh PostgreSQL database named for `name` (migrated, and its URL),
/// dropped afterwards.
fn on_postgres(
    name: &str,
    with: impl FnOnce(Database, &str) + std::panic::UnwindSafe,
) -> Result<(), Failed> {
    let database = format!("idv_contract_{}_{}", std::process::id(), name);
    let mut admin = admin()?;
    sql_query(format!("DROP DATABASE IF EXISTS {database}"))
        .execute(&mut admin)
        .map_err(|e| e.to_string())?;
    sql_query(format!("CREATE DATABASE {database}"))
        .execute(&mut admin)
        .map_err(|e| e.to_string())?;
    let url = url_of(&database);
    let outcome = std::panic::catch_unwind(move || with(open(&url), &url));
    // The pool is gone with the check; the database can go too.
    let _ =
        sql_query(format!("DROP DATABASE IF EXISTS {database} WITH (FORCE)")).execute(&mut admin);
    outcome.map_err(|_| Failed::from("the check failed (see above)"))
}

fn limiter_on_postgres(name: &str, check: LimiterCheck) -> Result<(), Failed> {
    on_postgres(&format!("limiter_{name}"), move |db, _| {
        let quota = domain::contract::limits::LIMIT;
        let limiter = db
            .shared_limiter("contract", quota)
            .expect("PostgreSQL shares limits");
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(check(std::sync::Arc::new(limiter)));
    })
}

/// A freshly migrated (empty) database finds one profile by its id, or by its merchant and
/// e-mail key, through an index, in a plan cached for any value. A connection keeps the
/// plan it made while the table was small, of a foreign-key check (each event's insert
/// looks its profile up) as of its own queries. Statistics of the empty table (an
/// `ANALYZE` in a migration) made those plans read the whole table, and creates grew
/// slower with it (2 000/s to 1 300/s within a minute while autovacuum was off,
/// docs/BENCHMARKS.md); without statistics PostgreSQL assumes a table of some size.
fn plans_on_a_fresh_database(_: Database, url: &str) {
    let mut conn = PgConnection::establish(url).expect("connection");
    sql_query("SET plan_cache_mode = force_generic_plan")
        .execute(&mut conn)
        .expect("generic plans");
    let lookups = [
        "PREPARE by_id(text) AS SELECT 1 FROM ONLY profiles x WHERE id = $1 FOR KEY SHARE OF x",
        "PREPARE by_email(text, text) AS SELECT id FROM profiles \
         WHERE merchant_id = $1 AND email_key = $2",
    ];
    for (prepare, execute) in lookups.iter().zip(["by_id('p')", "by_email('m', 'e')"]) {
        sql_query(*prepare).execute(&mut conn).expect("prepared");
        let plan = explain(&mut conn, &format!("EXPLAIN EXECUTE {execute}"));
        assert!(
            plan.contains("Index Scan") || plan.contains("Index Only Scan"),
            "{prepare}: {plan}"
        );
    }
}

/// Connections cut under the pool (a restart, a network cut) are replaced without a
/// restart of ours. The pool tests a connection before handing it out only when its last
/// unit of work failed or it has been idle a while, so each cut connection may fail one
/// unit first: at most the pool's eight.
fn cut_connections_are_replaced(db: Database, url: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(db.ping()).expect("answers");
    let path = url.rsplit('/').next().expect("database name");
    let name = path.split('?').next().unwrap_or(path);
    sql_query(format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
    ))
    .execute(&mut admin().expect("admin"))
    .expect("connections cut");
    let mut failures = 0;
    while runtime.block_on(db.ping()).is_err() {
        failures += 1;
        assert!(failures <= 8, "a cut connection was handed out twice");
    }
    for _ in 0..20 {
        runtime.block_on(db.ping()).expect("healed");
    }
}

/// Set in a child process of this binary to the URL of the database it opens before it
/// exits while threads of its own connect (`exits_while_connecting`).
const EXITING_CHILD: &str = "IDV_TEST_EXIT_WHILE_CONNECTING";

/// How many children exit while connecting. Before `adapter_db::keep_tls_at_exit`, about
/// one such exit in seven crashed (docs/BENCHMARKS.md): all of them passing by chance
/// is less likely than one in a thousand.
const EXITS: usize = 50;

/// A process whose connections went through the adapter, as `idv`'s do, exits cleanly
/// while other threads are connecting: the exit handlers of libpq's libraries run under
/// those threads.
fn exits_while_connecting(_: Database, url: &str) {
    let this = std::env::current_exe().expect("this test binary");
    for _ in 0..EXITS {
        let status = std::process::Command::new(&this)
            .env(EXITING_CHILD, url)
            .stdout(std::process::Stdio::null())
            .status()
            .expect("the child ran");
        assert!(status.success(), "exited with {status} while connecting");
    }
}

/// The child of `exits_while_connecting`: opens `url` through the adapter, starts threads
/// that connect to it over and over, and returns once each has connected once, so that
/// the process exits while they are at it.
fn exit_while_connecting(url: &str) {
    let _db = open(url);
    let (connected, each) = std::sync::mpsc::channel();
    for _ in 0..4 {
        let (url, connected) = (url.to_owned(), connected.clone());
        std::thread::spawn(move || {
            loop {
                let outcome = PgConnection::establish(&url).map(drop);
                let _ = connected.send(outcome.map_err(|e| e.to_string()));
            }
        });
    }
    for _ in 0..4 {
        let outcome = each.recv().expect("a connecting thread");
        outcome.expect("connected");
    }
}

fn explain(conn: &mut PgConnection, sql: &str) -> String {
    #[derive(diesel::QueryableByName)]
    struct Line {
        #[diesel(sql_type = diesel::sql_types::Text, column_name = "QUERY PLAN")]
        line: String,
    }
    let lines: Vec<Line> = sql_query(sql).load(conn).expect(sql);
    lines
        .into_iter()
        .map(|l| l.line)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Two servers' pools on one database (each holds its own copy of the signals).
fn signals_across_servers(url: &str) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let (one, other) = (ports_of(open(url)), ports_of(open(url)));
    runtime.block_on(domain::contract::signals_across_servers(one, other));
}

fn main() {
    if let Ok(url) = std::env::var(EXITING_CHILD) {
        return exit_while_connecting(&url);
    }
    // Before the first connection (the admin's), as the pool's own would be.
    adapter_db::keep_tls_at_exit();
    let args = Arguments::from_args();
    let require = std::env::var("IDV_TEST_REQUIRE_POSTGRES").is_ok_and(|v| v == "1");
    let skip_postgres = match admin() {
        Ok(_) => false,
        Err(e) if !require => {
            eprintln!(
                "PostgreSQL is not reachable ({e}); its contract checks are reported as ignored."
            );
            true
        }
        Err(_) => false,
    };
    let mut trials = Vec::new();
    for &(name, check) in CHECKS {
        trials.push(Trial::test(format!("sqlite::{name}"), move || {
            on_sqlite(check)
        }));
        trials.push(
            Trial::test(format!("postgres::{name}"), move || {
                on_postgres(name, move |db, _| run(check, ports_of(db)))
            })
            .with_ignored_flag(skip_postgres),
        );
    }
    let across = "signals_kept_by_one_server_are_seen_by_another";
    trials.push(Trial::test(format!("sqlite::{across}"), || {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        signals_across_servers(&dir.path().join("two.sqlite3").display().to_string());
        Ok(())
    }));
    trials.push(
        Trial::test(format!("postgres::{across}"), || {
            on_postgres("across", |_, url| signals_across_servers(url))
        })
        .with_ignored_flag(skip_postgres),
    );
    for &(name, check) in LIMITER_CHECKS {
        trials.push(
            Trial::test(format!("postgres::limiter::{name}"), move || {
                limiter_on_postgres(name, check)
            })
            .with_ignored_flag(skip_postgres),
        );
    }
    trials.push(
        Trial::test(
            "postgres::schema::a_fresh_database_finds_profiles_by_index",
            || on_postgres("fresh_plans", plans_on_a_fresh_database),
        )
        .with_ignored_flag(skip_postgres),
    );
    trials.push(
        Trial::test("postgres::pool::cut_connections_are_replaced", || {
            on_postgres("cut_connections", cut_connections_are_replaced)
        })
        .with_ignored_flag(skip_postgres),
    );
    trials.push(
        Trial::test(
            "postgres::pool::a_process_exits_cleanly_while_connecting",
            || on_postgres("exiting", exits_while_connecting),
        )
        .with_ignored_flag(skip_postgres),
    );
    libtest_mimic::run(&args, trials).exit();
}
