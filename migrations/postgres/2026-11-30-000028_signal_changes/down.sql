DROP TRIGGER signal_changed ON signals;
DROP FUNCTION signal_changed();
DROP TABLE signal_changes;
DROP TABLE signal_versions;
DROP INDEX signals_of_profile;
DROP INDEX signals_in_order;
