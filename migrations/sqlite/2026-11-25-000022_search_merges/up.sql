-- The search index's merges leave the indexer's batches (docs/BENCHMARKS.md): FTS5 merged
-- segments inside the batch that wrote them, a batch holds SQLite's one writer, and the
-- creates waiting behind a merging batch (up to 50 ms) put the create p99 above the
-- ideal's, growing with the index. The indexer now merges in small steps of its own once
-- it has caught up (adapter_db::Database::merge_profile_search). A level that reaches
-- `crisismerge` segments (16) is still merged at once, which bounds a search's work.
INSERT INTO profile_search (profile_search, rank) VALUES ('automerge', 0);
