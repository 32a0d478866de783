DROP TABLE audit_log;
DROP INDEX login_failures_by_attempt;
ALTER TABLE login_failures DROP COLUMN attempt;
DROP INDEX api_keys_by_maker;
ALTER TABLE api_keys DROP COLUMN created_by;
ALTER TABLE merchant_users DROP COLUMN sealed_totp;
ALTER TABLE merchant_users DROP COLUMN role;
