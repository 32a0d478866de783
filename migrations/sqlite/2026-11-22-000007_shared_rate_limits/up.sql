-- PostgreSQL only: on SQLite one server holds the database, and its rate limits are
-- counted in its memory. Kept so both backends have the same migrations.
SELECT 1;
