-- Quiz links at rest (contract §16): the token and the short code are kept only as keyed
-- hashes (HMAC-SHA256 under a key derived from the master key), which lookups compare
-- with the hash of the presented link, and sealed (`k1:...`) for the addresses the API
-- shows. `idv migrate` hashes and seals the rows an earlier version stored in clear,
-- where the master key is known (`sealing.rs`); until then `sealed_token` is null.
ALTER TABLE quizzes RENAME COLUMN token TO token_hash;
ALTER TABLE quizzes RENAME COLUMN code TO code_hash;
ALTER TABLE quizzes ADD COLUMN sealed_token TEXT;
ALTER TABLE quizzes ADD COLUMN sealed_code TEXT;
