-- How many profiles each merchant has, kept by triggers: every list and search answers
-- `total_count`, and counting a million rows of the index took 50 ms per request. One
-- row per merchant here (SQLite has one writer); PostgreSQL spreads each merchant's
-- count over shards (see its migration). No foreign key: a merchant's rows may outlive
-- it without harm, and a cascade must not refuse the trigger's write.
CREATE TABLE profile_counts (
    merchant_id TEXT NOT NULL,
    shard       INTEGER NOT NULL,
    profiles    BIGINT NOT NULL,
    PRIMARY KEY (merchant_id, shard)
);
INSERT INTO profile_counts (merchant_id, shard, profiles)
    SELECT merchant_id, 0, count(*) FROM profiles GROUP BY merchant_id;

CREATE TRIGGER profile_counted AFTER INSERT ON profiles BEGIN
    INSERT INTO profile_counts (merchant_id, shard, profiles) VALUES (new.merchant_id, 0, 1)
        ON CONFLICT (merchant_id, shard) DO UPDATE SET profiles = profiles + 1;
END;

CREATE TRIGGER profile_uncounted AFTER DELETE ON profiles BEGIN
    UPDATE profile_counts SET profiles = profiles - 1
        WHERE merchant_id = old.merchant_id AND shard = 0;
END;
