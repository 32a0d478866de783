-- The merchant's dashboard (contract §10): the people who review clients.
CREATE TABLE merchant_users (
    id            TEXT PRIMARY KEY NOT NULL,
    merchant_id   TEXT NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
    email         TEXT NOT NULL,
    -- The e-mail in lower case: how a user signs in, unique across the service.
    email_key     TEXT NOT NULL UNIQUE,
    -- PHC string (`$argon2id$...`); never the password.
    password_hash TEXT NOT NULL,
    enabled       BOOLEAN NOT NULL,
    created_at    BIGINT NOT NULL
);
