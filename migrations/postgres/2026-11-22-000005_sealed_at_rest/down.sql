ALTER TABLE api_keys DROP COLUMN allowed_networks;
DROP TABLE document_files;
DROP INDEX documents_by_quiz;
ALTER TABLE documents DROP COLUMN size_bytes;
DROP TABLE data_migrations;
DROP TABLE master_key;
