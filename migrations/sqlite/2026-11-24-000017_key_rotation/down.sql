ALTER TABLE identity_index DROP COLUMN sealed_value;
ALTER TABLE master_key DROP COLUMN next_fingerprint;
