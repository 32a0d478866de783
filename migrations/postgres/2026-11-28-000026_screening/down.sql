DROP TABLE screening_lease;
DROP TABLE screenings;
DROP TABLE screening_entries;
DROP TABLE screening_lists;
ALTER TABLE merchants DROP COLUMN screening_threshold;
ALTER TABLE merchants DROP COLUMN screening_lists;
ALTER TABLE merchants DROP COLUMN screening;
