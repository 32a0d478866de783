-- Nothing on PostgreSQL (see up.sql).
SELECT 1;
