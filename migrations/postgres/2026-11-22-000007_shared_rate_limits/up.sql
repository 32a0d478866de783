-- Rate limits shared by every instance on this database (contract §11): one row per
-- limited key (`api:<key>`, `auth:<address>`, `page:<address>`), holding the generic cell
-- rate algorithm's theoretical arrival time in microseconds of the database's clock.
-- Unlogged: a crash forgets budgets, which only ever lets a few more requests through,
-- and no write to it waits for the WAL.
CREATE UNLOGGED TABLE rate_limits (
    key TEXT PRIMARY KEY NOT NULL,
    tat BIGINT NOT NULL
);
