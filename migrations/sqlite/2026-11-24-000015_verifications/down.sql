DROP TABLE identity_index;
DROP TABLE verifications;
