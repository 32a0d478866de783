-- The dashboard's search (part of a name, the e-mail or the mobile) read every profile of
-- the merchant: 2.9 s at a million. A trigram full-text index finds the candidates of a
-- search of three characters or more; the query still applies its own LIKE to them, so
-- the answers are those of the scan.
--
-- Its rows are keyed by a stable integer of their own (`profiles` has no INTEGER PRIMARY
-- KEY, so VACUUM and `VACUUM INTO`, the backup, may renumber its rowids), never reused
-- (AUTOINCREMENT). Indexing a row as it is written halved the rate of profile creates, so
-- new rows are indexed in batches, in the background, in key order
-- (`Database::index_profiles`): `indexed_upto` says how far; a search reads the rows above
-- it as it did before the index. The index holds no copy of the text (contentless).
CREATE TABLE profile_search_keys (
    key        INTEGER PRIMARY KEY AUTOINCREMENT,
    profile_id TEXT NOT NULL UNIQUE
);
CREATE VIRTUAL TABLE profile_search USING fts5 (
    name, email, mobile,
    tokenize = 'trigram', content = '', contentless_delete = 1
);
CREATE TABLE profile_search_state (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    indexed_upto INTEGER NOT NULL
);

INSERT INTO profile_search_keys (profile_id) SELECT id FROM profiles ORDER BY id;
INSERT INTO profile_search (rowid, name, email, mobile)
    SELECT k.key, p.first_name || ' ' || p.last_name, p.email_address, p.mobile_number
    FROM profiles p JOIN profile_search_keys k ON k.profile_id = p.id;
INSERT INTO profile_search_state (id, indexed_upto)
    SELECT 1, COALESCE(MAX(key), 0) FROM profile_search_keys;

CREATE TRIGGER profile_search_added AFTER INSERT ON profiles BEGIN
    INSERT INTO profile_search_keys (profile_id) VALUES (new.id);
END;

-- A row already indexed is indexed again at once; one not yet is the indexer's.
CREATE TRIGGER profile_search_changed
AFTER UPDATE OF first_name, last_name, email_address, mobile_number ON profiles
WHEN (SELECT key FROM profile_search_keys WHERE profile_id = old.id)
    <= (SELECT indexed_upto FROM profile_search_state)
BEGIN
    DELETE FROM profile_search
        WHERE rowid = (SELECT key FROM profile_search_keys WHERE profile_id = old.id);
    INSERT INTO profile_search (rowid, name, email, mobile) VALUES (
        (SELECT key FROM profile_search_keys WHERE profile_id = new.id),
        new.first_name || ' ' || new.last_name, new.email_address, new.mobile_number);
END;

CREATE TRIGGER profile_search_removed AFTER DELETE ON profiles BEGIN
    DELETE FROM profile_search
        WHERE rowid = (SELECT key FROM profile_search_keys WHERE profile_id = old.id)
        AND rowid <= (SELECT indexed_upto FROM profile_search_state);
    DELETE FROM profile_search_keys WHERE profile_id = old.id;
END;
