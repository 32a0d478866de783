DROP TABLE signals;
ALTER TABLE merchants DROP COLUMN face_search;
