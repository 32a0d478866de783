ALTER TABLE api_keys DROP COLUMN read_only;
