-- Personal data sealed at rest (docs/SECURITY.md). The sealed values themselves are
-- written by the service: SQL cannot encrypt. After this migration the service seals
-- every value stored in clear before it serves (`sealing.rs`) and records that here.

-- The master key's fingerprint: a server with another key refuses to start.
CREATE TABLE master_key (
    id          INTEGER PRIMARY KEY NOT NULL,
    fingerprint TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);

-- Data migrations done by the service after the schema's (name, when).
CREATE TABLE data_migrations (
    name       TEXT PRIMARY KEY NOT NULL,
    applied_at BIGINT NOT NULL
);

-- A document's evidence is sealed, so what must be counted or looked up without opening
-- it is kept beside it: the bytes of its files (per-quiz limits) and the ids of its files
-- (the sweeper keeps files a document names).
ALTER TABLE documents ADD COLUMN size_bytes BIGINT NOT NULL DEFAULT 0;
CREATE INDEX documents_by_quiz ON documents (quiz_id);

CREATE TABLE document_files (
    file_id     TEXT PRIMARY KEY NOT NULL,
    document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE
);
CREATE INDEX document_files_by_document ON document_files (document_id);

-- A key may be limited to client networks: CIDRs separated by commas, empty for any.
ALTER TABLE api_keys ADD COLUMN allowed_networks TEXT NOT NULL DEFAULT '';
