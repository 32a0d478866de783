DROP TABLE quizzes;
DROP TABLE templates;
