ALTER TABLE merchants DROP COLUMN auto_decision;
ALTER TABLE merchants DROP COLUMN verification_policy;
ALTER TABLE merchants DROP COLUMN minimum_age;
