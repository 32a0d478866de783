-- Webhooks (contract §9): a merchant's endpoints, and the deliveries each event owes
-- them, written in the event's own transaction (the event log is the outbox).

CREATE TABLE webhooks (
    id                  TEXT PRIMARY KEY NOT NULL,
    merchant_id         TEXT NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
    url                 TEXT NOT NULL,
    -- Activity names separated by commas; empty for all.
    events              TEXT NOT NULL,
    description         TEXT NOT NULL,
    enabled             BOOLEAN NOT NULL,
    sealed_secret       BYTEA NOT NULL,
    -- The secret replaced by the last rotation, signing until previous_until.
    sealed_previous     BYTEA,
    previous_until      BIGINT,
    created_at          BIGINT NOT NULL,
    updated_at          BIGINT NOT NULL
);
-- webhook/read, and the endpoints an event is offered to.
CREATE INDEX webhooks_by_merchant ON webhooks (merchant_id, id);

CREATE TABLE webhook_deliveries (
    id                TEXT PRIMARY KEY NOT NULL,
    webhook_id        TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    merchant_id       TEXT NOT NULL,
    event_id          TEXT NOT NULL,
    activity          TEXT NOT NULL,
    status            TEXT NOT NULL,
    attempts          INTEGER NOT NULL,
    last_status_code  INTEGER,
    last_error        TEXT,
    next_attempt_at   BIGINT,
    created_at        BIGINT NOT NULL,
    delivered_at      BIGINT,
    -- A claimer holds the delivery until then (another instance takes it up after).
    claimed_until     BIGINT,
    -- What it sends, sealed: it names the profile by e-mail and mobile.
    sealed_message    BYTEA NOT NULL
);
-- webhook/delivery/read.
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, id);
-- The worker's claim of due deliveries.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE status = 'pending';
