//! Encryption at rest under the operator's master key: the keyring (the current key and,
//! during a rotation, the previous one), the vault that seals values, keyed hashes and
//! secrets, the chunked cipher files are sealed with, and the cache of opened API keys.

pub mod file_cipher;
pub mod key_cache;
pub mod keyring;
pub mod vault;
