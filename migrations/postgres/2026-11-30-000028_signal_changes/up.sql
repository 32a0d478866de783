-- A profile's signals are replaced at each of its verifications and go with it: found by
-- the profile alone (the merchant's index leads with the merchant), or each replacement
-- and each cascaded delete reads the whole table.
CREATE INDEX signals_of_profile ON signals (profile_id);
-- A server reads a merchant's signals whole in pages, in the order of their ids. The
-- profiles changed since its copy are still read through signals_of_merchant: without
-- it SQLite's planner walks this index instead (a read after one change took 177 ms
-- rather than 40 at 100 000 profiles).
CREATE INDEX signals_in_order ON signals (merchant_id, id);

-- The servers hold each merchant's signals in memory (adapter-db's signal index) and keep
-- in step with the database, whichever instance wrote: every change to a signal row
-- advances its merchant's version and names the profile it touched, in the same
-- transaction (a trigger, so that cascaded deletes and erasure count too). The version's
-- row stays locked until the writer commits, so versions are committed in their order:
-- a server that reads version V finds every change up to V, and re-reads only the
-- profiles named after the version its copy is at.
CREATE TABLE signal_versions (
    merchant_id TEXT PRIMARY KEY,
    version     BIGINT NOT NULL
);

-- The last 100 000 changes of each merchant; a copy older than that is read whole.
CREATE TABLE signal_changes (
    merchant_id TEXT NOT NULL,
    version     BIGINT NOT NULL,
    profile_id  TEXT NOT NULL,
    PRIMARY KEY (merchant_id, version)
);

CREATE FUNCTION signal_changed() RETURNS trigger AS $$
DECLARE
    changed signals%ROWTYPE;
    advanced BIGINT;
BEGIN
    IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
    INSERT INTO signal_versions (merchant_id, version) VALUES (changed.merchant_id, 1)
        ON CONFLICT (merchant_id) DO UPDATE SET version = signal_versions.version + 1
        RETURNING version INTO advanced;
    INSERT INTO signal_changes (merchant_id, version, profile_id)
        VALUES (changed.merchant_id, advanced, changed.profile_id);
    -- The one change that falls out of the log: a point, not a range, which would walk
    -- every deleted entry not yet vacuumed at each change.
    DELETE FROM signal_changes
        WHERE merchant_id = changed.merchant_id AND version = advanced - 100000;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER signal_changed AFTER INSERT OR UPDATE OR DELETE ON signals
    FOR EACH ROW EXECUTE FUNCTION signal_changed();
