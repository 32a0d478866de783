ALTER TABLE quizzes DROP COLUMN bytes_added;
ALTER TABLE quizzes DROP COLUMN documents_added;
