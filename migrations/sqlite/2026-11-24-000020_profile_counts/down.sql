DROP TRIGGER profile_uncounted;
DROP TRIGGER profile_counted;
DROP TABLE profile_counts;
