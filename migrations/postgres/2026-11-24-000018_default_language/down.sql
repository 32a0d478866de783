ALTER TABLE merchants DROP COLUMN default_language;
