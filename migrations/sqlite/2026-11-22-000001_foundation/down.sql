DROP TABLE events;
DROP TABLE profiles;
DROP TABLE api_keys;
DROP TABLE merchants;
