-- Where the client's browser is sent after submitting the quiz (contract §14): an https
-- address the merchant gave at quiz/create, or null. Not personal data: kept in clear.
-- quiz/extend needs no column: it moves expires_at and clears expired_at.
ALTER TABLE quizzes ADD COLUMN redirect_url TEXT;
