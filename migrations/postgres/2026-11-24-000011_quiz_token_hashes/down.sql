-- The hashes cannot be turned back into links: the sealed copies are opened by a
-- version that knows them, not here.
ALTER TABLE quizzes DROP COLUMN sealed_code;
ALTER TABLE quizzes DROP COLUMN sealed_token;
ALTER TABLE quizzes RENAME COLUMN code_hash TO code;
ALTER TABLE quizzes RENAME COLUMN token_hash TO token;
