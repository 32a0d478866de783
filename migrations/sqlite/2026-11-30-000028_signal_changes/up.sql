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
-- transaction (triggers, so that cascaded deletes and erasure count too). A server
-- whose copy is at version V re-reads only the profiles named after V.
CREATE TABLE signal_versions (
    merchant_id TEXT PRIMARY KEY,
    version     INTEGER NOT NULL
);

-- The last 100 000 changes of each merchant; a copy older than that is read whole.
CREATE TABLE signal_changes (
    merchant_id TEXT NOT NULL,
    version     INTEGER NOT NULL,
    profile_id  TEXT NOT NULL,
    PRIMARY KEY (merchant_id, version)
);

CREATE TRIGGER signals_inserted AFTER INSERT ON signals BEGIN
    INSERT INTO signal_versions (merchant_id, version) VALUES (NEW.merchant_id, 1)
        ON CONFLICT (merchant_id) DO UPDATE SET version = version + 1;
    INSERT INTO signal_changes (merchant_id, version, profile_id)
        SELECT merchant_id, version, NEW.profile_id FROM signal_versions
        WHERE merchant_id = NEW.merchant_id;
    DELETE FROM signal_changes WHERE merchant_id = NEW.merchant_id
        AND version = (SELECT version FROM signal_versions
                        WHERE merchant_id = NEW.merchant_id) - 100000;
END;

CREATE TRIGGER signals_updated AFTER UPDATE ON signals BEGIN
    INSERT INTO signal_versions (merchant_id, version) VALUES (NEW.merchant_id, 1)
        ON CONFLICT (merchant_id) DO UPDATE SET version = version + 1;
    INSERT INTO signal_changes (merchant_id, version, profile_id)
        SELECT merchant_id, version, NEW.profile_id FROM signal_versions
        WHERE merchant_id = NEW.merchant_id;
    DELETE FROM signal_changes WHERE merchant_id = NEW.merchant_id
        AND version = (SELECT version FROM signal_versions
                        WHERE merchant_id = NEW.merchant_id) - 100000;
END;

CREATE TRIGGER signals_deleted AFTER DELETE ON signals BEGIN
    INSERT INTO signal_versions (merchant_id, version) VALUES (OLD.merchant_id, 1)
        ON CONFLICT (merchant_id) DO UPDATE SET version = version + 1;
    INSERT INTO signal_changes (merchant_id, version, profile_id)
        SELECT merchant_id, version, OLD.profile_id FROM signal_versions
        WHERE merchant_id = OLD.merchant_id;
    DELETE FROM signal_changes WHERE merchant_id = OLD.merchant_id
        AND version = (SELECT version FROM signal_versions
                        WHERE merchant_id = OLD.merchant_id) - 100000;
END;
