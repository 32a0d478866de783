-- Trust, second round (contract §16).

-- What a dashboard user may do: `reviewer` (the default) or `admin`.
ALTER TABLE merchant_users ADD COLUMN role TEXT NOT NULL DEFAULT 'reviewer';
-- The user's TOTP secret, sealed like personal fields (`k1:...`); null: no second factor.
ALTER TABLE merchant_users ADD COLUMN sealed_totp TEXT;

-- Who made the key: null for the operator's CLI, else the dashboard user, whose keys are
-- disabled with them.
ALTER TABLE api_keys ADD COLUMN created_by TEXT;
CREATE INDEX api_keys_by_maker ON api_keys (created_by);

-- Sign-in attempts are counted before their password is checked; a successful one is
-- withdrawn by its id.
ALTER TABLE login_failures ADD COLUMN attempt TEXT NOT NULL DEFAULT '';
CREATE INDEX login_failures_by_attempt ON login_failures (attempt);

-- The audit trail of the merchant's own people: sign-ins, key and user changes, views
-- of profiles and document files. Never edited.
CREATE TABLE audit_log (
    id          TEXT PRIMARY KEY NOT NULL,
    merchant_id TEXT NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
    -- null for the CLI
    user_id     TEXT,
    -- `cli`, or the user's e-mail as it was then
    actor       TEXT NOT NULL,
    action      TEXT NOT NULL,
    subject     TEXT NOT NULL,
    address     TEXT NOT NULL,
    at          BIGINT NOT NULL
);
CREATE INDEX audit_log_by_merchant ON audit_log (merchant_id, id);
