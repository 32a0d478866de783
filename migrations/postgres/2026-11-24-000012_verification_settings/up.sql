-- Verification settings (contract §13): the merchant's minimum age, its policy (the
-- failure reasons it decides otherwise than the default, as a JSON object of reason code
-- to "decline" or "review"; empty: the default), and whether outcomes set the profile's
-- status.
ALTER TABLE merchants ADD COLUMN minimum_age INTEGER NOT NULL DEFAULT 18;
ALTER TABLE merchants ADD COLUMN verification_policy TEXT NOT NULL DEFAULT '{}';
ALTER TABLE merchants ADD COLUMN auto_decision BOOLEAN NOT NULL DEFAULT FALSE;
