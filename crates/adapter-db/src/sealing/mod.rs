//! Encryption at rest under the operator's master key: the keyring (the current key and,
//! during a rotation, the previous one), the vault that seals values, keyed hashes and
//! secrets, the chunked cipher files are sealed with, the cache of opened API keys, and
//! the device marks the vault signs.

pub mod device_marks;
pub mod file_cipher;
pub mod key_cache;
pub mod keyring;
pub mod vault;
