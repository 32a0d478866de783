-- Notes a merchant keeps on a profile.
CREATE TABLE notes (
    id          TEXT PRIMARY KEY NOT NULL,
    merchant_id TEXT NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
    profile_id  TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    note        TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
-- note/read: a profile's notes, newest first.
CREATE INDEX notes_by_profile_id ON notes (profile_id, id);
