//! Schema migrations, embedded in the binary, one folder per backend.

use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

use crate::connection::AnyConnection;

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
