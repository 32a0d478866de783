-- How old a proof of address may be, in days before the quiz's submission (contract §18).
ALTER TABLE merchants ADD COLUMN proof_of_address_max_age_days INTEGER NOT NULL DEFAULT 90;
