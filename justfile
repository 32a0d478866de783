# Recipes for everyday work. `just --list` shows them.

# Start the server on SQLite in ./idv-data (one command, no setup; a debug build).
run:
    cargo run -p app -- serve

# The binary to deploy or measure: fat LTO (docs/BENCHMARKS.md, "The first build").
release:
    cargo build --release -p app

# Every test: unit, then end-to-end on SQLite and, when reachable, PostgreSQL.
test:
    cargo test --workspace

# The same, failing instead of skipping when PostgreSQL, the browser or PHP is missing.
test-pg:
    IDV_TEST_REQUIRE_POSTGRES=1 IDV_TEST_REQUIRE_BROWSER=1 IDV_TEST_REQUIRE_PHP=1 cargo test --workspace

# Retake docs/quiz-page-phone.png with the browser test (needs chromium, chromium-driver).
screenshot:
    IDV_SCREENSHOT_DIR=docs IDV_TEST_REQUIRE_BROWSER=1 cargo test -p app --test e2e -- browser

lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings

fmt:
    cargo fmt --all

# Apply pending migrations to the configured database (IDV_DATABASE_URL, IDV_DATA_DIR).
migrate:
    cargo run -p app -- migrate
