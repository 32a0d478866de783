DROP TRIGGER profile_search_removed;
DROP TRIGGER profile_search_changed;
DROP TRIGGER profile_search_added;
DROP TABLE profile_search_state;
DROP TABLE profile_search;
DROP TABLE profile_search_keys;
