-- Dashboard sessions, server-side: signing out or disabling the user ends them at once.
-- The token is kept only as its SHA-256: what the table holds cannot be used as a cookie.
CREATE TABLE dashboard_sessions (
    token_hash   TEXT PRIMARY KEY NOT NULL,
    user_id      TEXT NOT NULL REFERENCES merchant_users (id) ON DELETE CASCADE,
    csrf_token   TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
);

-- Failed sign-ins, by address (`address:...`) and by user (`user:...`): five in 15 minutes
-- lock further tries, on every instance.
CREATE TABLE login_failures (
    key TEXT NOT NULL,
    at  BIGINT NOT NULL
);
CREATE INDEX login_failures_by_key ON login_failures (key, at);
