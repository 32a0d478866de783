-- Verification (contract §13): one row per verification of a submitted quiz (and per
-- rerun); the pending ones are the job queue, claimed until `claimed_until`.
CREATE TABLE verifications (
    id            TEXT PRIMARY KEY NOT NULL,
    merchant_id   TEXT NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
    profile_id    TEXT NOT NULL,
    quiz_id       TEXT NOT NULL,
    status        TEXT NOT NULL,
    -- The checks as a JSON array: names, statuses, reason codes, document ids and what
    -- was compared; never a personal value.
    checks        TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    completed_at  BIGINT,
    claimed_until BIGINT
);
CREATE INDEX verifications_by_quiz ON verifications (quiz_id, id);
CREATE INDEX verifications_by_profile ON verifications (profile_id, id);
CREATE INDEX verifications_pending ON verifications (created_at) WHERE status = 'pending';

-- The blind index of identifying values: keyed digests (HMAC under a key derived from the
-- master key, over merchant, kind and value), never the values.
CREATE TABLE identity_index (
    merchant_id TEXT NOT NULL,
    kind        TEXT NOT NULL,
    digest      TEXT NOT NULL,
    profile_id  TEXT NOT NULL,
    PRIMARY KEY (merchant_id, kind, digest, profile_id)
);
CREATE INDEX identity_index_by_profile ON identity_index (profile_id);
