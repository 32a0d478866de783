DROP TRIGGER profile_counted ON profiles;
DROP FUNCTION count_profile();
DROP TABLE profile_counts;
