DROP TRIGGER signals_deleted;
DROP TRIGGER signals_updated;
DROP TRIGGER signals_inserted;
DROP TABLE signal_changes;
DROP TABLE signal_versions;
DROP INDEX signals_of_profile;
DROP INDEX signals_in_order;
