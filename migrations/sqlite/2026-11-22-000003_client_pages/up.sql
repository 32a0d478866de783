-- What the client hands in through a quiz: the form fields (kept apart from the
-- merchant's own profile fields), the steps done, and documents.

ALTER TABLE profiles ADD COLUMN submitted_email_address TEXT;
ALTER TABLE profiles ADD COLUMN submitted_mobile_number TEXT;
ALTER TABLE profiles ADD COLUMN submitted_address TEXT;
ALTER TABLE profiles ADD COLUMN submitted_date_of_birth TEXT;
ALTER TABLE profiles ADD COLUMN submitted_ssn TEXT;
ALTER TABLE profiles ADD COLUMN submitted_created_at BIGINT;
ALTER TABLE profiles ADD COLUMN submitted_updated_at BIGINT;

ALTER TABLE quizzes ADD COLUMN opened_at BIGINT;
-- One character per template feature, in order: '1' once the client has done the step.
ALTER TABLE quizzes ADD COLUMN completed_steps TEXT NOT NULL DEFAULT '0000000000000000000000';

CREATE TABLE documents (
    id          TEXT PRIMARY KEY NOT NULL,
    merchant_id TEXT NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
    profile_id  TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    quiz_id     TEXT NOT NULL REFERENCES quizzes (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    status      TEXT NOT NULL,
    -- The evidence as a JSON array (file descriptions, agreement, fingerprint).
    data        TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
-- document/read: a profile's documents, newest first; document/get by id is by key.
CREATE INDEX documents_by_profile_id ON documents (profile_id, id);
