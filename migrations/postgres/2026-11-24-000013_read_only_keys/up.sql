-- Restricted keys (contract §15): a read-only key may call only the operations that read.
-- Every key made before was a full one.
ALTER TABLE api_keys ADD COLUMN read_only BOOLEAN NOT NULL DEFAULT FALSE;
