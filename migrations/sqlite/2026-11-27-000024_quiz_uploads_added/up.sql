-- What each quiz link has added, replaced documents included: the link's upload limits
-- count it, so re-uploading one side is bounded like any upload (issue 47).
ALTER TABLE quizzes ADD COLUMN documents_added BIGINT NOT NULL DEFAULT 0;
ALTER TABLE quizzes ADD COLUMN bytes_added BIGINT NOT NULL DEFAULT 0;
UPDATE quizzes SET
  documents_added = (SELECT count(*) FROM documents WHERE documents.quiz_id = quizzes.id),
  bytes_added = (SELECT coalesce(sum(size_bytes), 0) FROM documents
                 WHERE documents.quiz_id = quizzes.id);
