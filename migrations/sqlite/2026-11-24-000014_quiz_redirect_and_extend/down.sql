ALTER TABLE quizzes DROP COLUMN redirect_url;
