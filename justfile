# Recipes for everyday work. `just --list` shows them.

# Start the server on SQLite in ./idv-data (one command, no setup).
run:
    cargo run --release -p app -- serve

# Every test: unit, then end-to-end on SQLite and, when reachable, PostgreSQL.
test:
    cargo test --workspace

# The same, failing instead of skipping when PostgreSQL is not reachable.
test-pg:
    IDV_TEST_REQUIRE_POSTGRES=1 cargo test --workspace

lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings

fmt:
    cargo fmt --all

# Apply pending migrations to the configured database (IDV_DATABASE_URL, IDV_DATA_DIR).
migrate:
    cargo run --release -p app -- migrate
