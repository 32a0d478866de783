-- Merchants, their API keys, client profiles and the activity log.
-- Timestamps are unix seconds (BIGINT) on both backends; ids are ULIDs, so ordering by id
-- is ordering by creation.

CREATE TABLE merchants (
    id               TEXT PRIMARY KEY NOT NULL,
    name             TEXT NOT NULL,
    quiz_expiry_days INTEGER NOT NULL DEFAULT 5,
    created_at       BIGINT NOT NULL
);

CREATE TABLE api_keys (
    api_key          TEXT PRIMARY KEY NOT NULL,
    merchant_id      TEXT NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
    sealed_secret    BYTEA NOT NULL,
    enabled          BOOLEAN NOT NULL,
    compat_signature BOOLEAN NOT NULL,
    created_at       BIGINT NOT NULL
);
CREATE INDEX api_keys_by_merchant ON api_keys (merchant_id);

CREATE TABLE profiles (
    id                 TEXT PRIMARY KEY NOT NULL,
    merchant_id        TEXT NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
    email_address      TEXT NOT NULL,
    email_key          TEXT NOT NULL,
    mobile_number      TEXT NOT NULL,
    first_name         TEXT NOT NULL,
    last_name          TEXT NOT NULL,
    merchant_reference TEXT,
    customer_id        TEXT,
    middle_name        TEXT,
    date_of_birth      TEXT,
    home_phone_number  TEXT,
    ip_address         TEXT,
    address_line_1     TEXT,
    address_line_2     TEXT,
    city               TEXT,
    state              TEXT,
    postal             TEXT,
    country            TEXT,
    driver_licence_id  TEXT,
    ssn                TEXT,
    amount_cents       BIGINT,
    status             TEXT NOT NULL,
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL,
    revision           BIGINT NOT NULL
);
-- Each of e-mail and mobile is unique per merchant on its own; lookups by the pair use
-- the first index.
CREATE UNIQUE INDEX profiles_by_merchant_email ON profiles (merchant_id, email_key);
CREATE UNIQUE INDEX profiles_by_merchant_mobile ON profiles (merchant_id, mobile_number);
-- profile/read: the merchant's profiles, newest first.
CREATE INDEX profiles_by_merchant_id ON profiles (merchant_id, id);

CREATE TABLE events (
    id            TEXT PRIMARY KEY NOT NULL,
    merchant_id   TEXT NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
    -- NULL for the anonymous tombstone of an erased profile.
    profile_id    TEXT REFERENCES profiles (id) ON DELETE CASCADE,
    activity      TEXT NOT NULL,
    details       TEXT NOT NULL,
    template_used TEXT NOT NULL,
    url           TEXT NOT NULL,
    status        TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);
-- event/read: one profile's events, newest first.
CREATE INDEX events_by_profile_id ON events (profile_id, id);
