//! A password hasher in memory, whose hash is the password itself.

use async_trait::async_trait;

use crate::ports::{HashLane, PasswordHasher, StoreResult};
use crate::user::{Password, PasswordHash};

/// A hasher whose hash is the password itself: the rules, not Argon2, are what tests on
/// it check.
#[derive(Debug, Default)]
pub struct PlainHasher;

#[async_trait]
impl PasswordHasher for PlainHasher {
    async fn hash(&self, password: &Password) -> StoreResult<PasswordHash> {
        Ok(PasswordHash::new(password.expose()))
    }
    async fn verify(
        &self,
        password: &Password,
        hash: &PasswordHash,
        _: HashLane,
    ) -> StoreResult<bool> {
        Ok(password.expose() == hash.as_str())
    }
}
