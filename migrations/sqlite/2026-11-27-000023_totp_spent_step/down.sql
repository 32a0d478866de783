ALTER TABLE merchant_users DROP COLUMN totp_spent_step;
