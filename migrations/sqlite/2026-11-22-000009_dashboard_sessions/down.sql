DROP TABLE login_failures;
DROP TABLE dashboard_sessions;
