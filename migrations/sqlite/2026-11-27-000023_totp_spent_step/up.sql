-- The latest one-time code step a user spent: a code signs in once (RFC 6238, 5.2).
ALTER TABLE merchant_users ADD COLUMN totp_spent_step BIGINT;
