DROP INDEX profiles_by_decision;
ALTER TABLE profiles DROP COLUMN erased_at;
ALTER TABLE profiles DROP COLUMN status_changed_at;
ALTER TABLE merchants DROP COLUMN retention_days;
