-- Signals across clients (contract §20).
-- The merchant's setting: faces are kept and searched only with its clients' consent.
ALTER TABLE merchants ADD COLUMN face_search INTEGER NOT NULL DEFAULT 0;

-- What is kept of each profile's images: picture hashes, and faces with face_search.
-- The value is sealed; everything goes with the profile.
CREATE TABLE signals (
    id          TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL,
    profile_id  TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,
    value       TEXT NOT NULL,
    blocked     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX signals_of_merchant ON signals (merchant_id, profile_id);
