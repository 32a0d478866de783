ALTER TABLE merchants DROP COLUMN proof_of_address_max_age_days;
