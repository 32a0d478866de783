-- Screening against sanctions, PEP and internal lists (contract §19).
-- The merchant's settings: off by default; no list named is every list.
ALTER TABLE merchants ADD COLUMN screening BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE merchants ADD COLUMN screening_lists TEXT NOT NULL DEFAULT '';
ALTER TABLE merchants ADD COLUMN screening_threshold INTEGER NOT NULL DEFAULT 90;

-- The version in force of each list (names are instance-wide).
CREATE TABLE screening_lists (
    name        TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    merchant_id TEXT REFERENCES merchants (id) ON DELETE CASCADE,
    version     TEXT NOT NULL,
    imported_at BIGINT NOT NULL,
    entries     BIGINT NOT NULL
);

-- Its entries, each as JSON (public list data).
CREATE TABLE screening_entries (
    list_name TEXT NOT NULL REFERENCES screening_lists (name) ON DELETE CASCADE,
    entry_id  TEXT NOT NULL,
    body      TEXT NOT NULL,
    PRIMARY KEY (list_name, entry_id)
);

-- Each profile's latest screening; it goes with the profile.
CREATE TABLE screenings (
    profile_id  TEXT PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
    merchant_id TEXT NOT NULL,
    screened_at BIGINT NOT NULL,
    lists_key   TEXT NOT NULL,
    lists       TEXT NOT NULL,
    matches     TEXT NOT NULL
);
CREATE INDEX screenings_due ON screenings (merchant_id, screened_at);

-- Who re-screens now: one instance at a time.
CREATE TABLE screening_lease (
    id     INTEGER PRIMARY KEY,
    holder TEXT NOT NULL,
    until  BIGINT NOT NULL
);
INSERT INTO screening_lease (id, holder, until) VALUES (1, '', 0);
