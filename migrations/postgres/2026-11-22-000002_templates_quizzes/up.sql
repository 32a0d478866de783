-- Stored templates and quizzes. A template's list is kept as 22 digits (0, 1, 2), one per
-- feature in the interface's order; a quiz keeps its own copy (the snapshot).

CREATE TABLE templates (
    id          TEXT PRIMARY KEY NOT NULL,
    merchant_id TEXT NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    list        TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
-- template/get by id is by primary key; template/read: newest first per merchant.
CREATE INDEX templates_by_merchant_id ON templates (merchant_id, id);

CREATE TABLE quizzes (
    id                  TEXT PRIMARY KEY NOT NULL,
    merchant_id         TEXT NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
    profile_id          TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    token               TEXT NOT NULL,
    code                TEXT NOT NULL,
    template_id         TEXT,
    template_name       TEXT NOT NULL,
    template_list       TEXT NOT NULL,
    template_created_at BIGINT NOT NULL,
    expiry_days         INTEGER NOT NULL,
    created_at          BIGINT NOT NULL,
    expires_at          BIGINT NOT NULL,
    expired_at          BIGINT,
    submitted_at        BIGINT,
    deleted_at          BIGINT
);
-- Lookups by the long and the short address.
CREATE UNIQUE INDEX quizzes_by_token ON quizzes (token);
CREATE UNIQUE INDEX quizzes_by_code ON quizzes (code);
-- quiz/read: newest first per merchant.
CREATE INDEX quizzes_by_merchant_id ON quizzes (merchant_id, id);
-- profile/delete: the profile's quizzes.
CREATE INDEX quizzes_by_profile ON quizzes (profile_id);
