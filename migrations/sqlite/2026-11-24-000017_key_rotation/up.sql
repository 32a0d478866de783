-- Master key rotation (contract §15, `idv rekey`): the key being rotated to, from the
-- moment the rotation starts until every value is sealed under it; instances holding
-- only the old key are refused meanwhile.
ALTER TABLE master_key ADD COLUMN next_fingerprint TEXT;
-- A sealed copy of each indexed value (under the data key, like a personal field), so a
-- rotation can compute its digest under the new key. Rows from before have none: a
-- rotation drops them (they are noted again at the profile's next verification).
ALTER TABLE identity_index ADD COLUMN sealed_value TEXT;
