//! Schema migrations, embedded in the binary, one folder per backend.

use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

use diesel::RunQueryDsl;
use diesel::sql_types::BigInt;

use crate::connection::AnyConnection;
use crate::failure::Failure;

/// The PostgreSQL advisory lock held while migrating ("idv_mig" in ASCII): any number that
/// no other application on the database uses.
const MIGRATION_LOCK: i64 = 0x0069_6476_5f6d_6967;

const SQLITE: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
const POSTGRES: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

pub(crate) fn run(conn: &mut AnyConnection) -> Result<Vec<String>, String> {
    let applied = match conn {
        AnyConnection::Sqlite(c) => c.run_pending_migrations(SQLITE),
        AnyConnection::Postgresql(c) => c.run_pending_migrations(POSTGRES),
    };
    applied
        .map(|versions| versions.iter().map(ToString::to_string).collect())
        .map_err(|e| e.to_string())
}

/// Runs `work` while no other instance migrates the same database: on PostgreSQL under a
/// session advisory lock, released whatever `work` returns. SQLite has one server per file
/// and its writes are serialised anyway.
pub(crate) fn exclusively<T>(
    conn: &mut AnyConnection,
    work: impl FnOnce(&mut AnyConnection) -> T,
) -> Result<T, Failure> {
    if !matches!(conn, AnyConnection::Postgresql(_)) {
        return Ok(work(conn));
    }
    let lock = |conn: &mut AnyConnection, sql: &str| -> Result<(), Failure> {
        diesel::sql_query(sql)
            .bind::<BigInt, _>(MIGRATION_LOCK)
            .execute(conn)?;
        Ok(())
    };
    lock(conn, "SELECT pg_advisory_lock($1)")?;
    let done = work(conn);
    lock(conn, "SELECT pg_advisory_unlock($1)")?;
    Ok(done)
}
