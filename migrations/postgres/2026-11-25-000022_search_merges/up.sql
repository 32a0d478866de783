-- Nothing on PostgreSQL: SQLite's migration of the same name moves its search index's
-- merges out of the indexer's batches. (PostgreSQL refuses a migration without a statement.)
SELECT 1;
