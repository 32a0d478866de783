//! Dashboard passwords hashed with Argon2id (the `argon2` crate's defaults: 19 MiB,
//! 2 passes, OWASP's recommendation), on a blocking thread: a hash takes tens of
//! milliseconds on purpose, and 19 MiB each. At most two run per core at a time
//! (contract §16); past that a check is refused at once (`Busy`, answered 503), so a burst
//! of sign-ins can neither queue unbounded work nor take the memory of the machine.

use std::sync::Arc;

use argon2::password_hash::{PasswordHash as Phc, SaltString};
use argon2::{Argon2, PasswordHasher as _, PasswordVerifier as _};
use async_trait::async_trait;
use domain::ports::{PasswordHasher, StoreError, StoreResult};
use domain::user::{Password, PasswordHash};
use ring::rand::{SecureRandom, SystemRandom};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Hashes that may run at once, per core.
const PER_CORE: usize = 2;

#[derive(Debug, Clone)]
pub struct Argon2id {
    running: Arc<Semaphore>,
}

impl Default for Argon2id {
    /// Two hashes per core this process may run on.
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Self::with_room_for(PER_CORE * cores)
    }
}

impl Argon2id {
    /// A hasher that runs at most `hashes` at once.
    pub fn with_room_for(hashes: usize) -> Self {
        Self {
            running: Arc::new(Semaphore::new(hashes)),
        }
    }

    /// Room for one more hash, or `Busy`.
    fn room(&self) -> StoreResult<OwnedSemaphorePermit> {
        self.running
            .clone()
            .try_acquire_owned()
            .map_err(|_| StoreError::Busy)
    }
}

#[async_trait]
impl PasswordHasher for Argon2id {
    async fn hash(&self, password: &Password) -> StoreResult<PasswordHash> {
        let room = self.room()?;
        let password = password.clone();
        let hashed = tokio::task::spawn_blocking(move || {
            let _room = room;
            let mut salt = [0u8; 16];
            SystemRandom::new()
                .fill(&mut salt)
                .map_err(|_| "no random source".to_owned())?;
            let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
            Argon2::default()
                .hash_password(password.expose().as_bytes(), &salt)
                .map(|phc| phc.to_string())
                .map_err(|e| e.to_string())
        })
        .await
        .map_err(|e| StoreError::Internal(anyhow::Error::new(e).context("hashing task").into()))?;
        hashed
            .map(PasswordHash::new)
            .map_err(|e| StoreError::Internal(format!("password hashing: {e}").into()))
    }

    async fn verify(&self, password: &Password, hash: &PasswordHash) -> StoreResult<bool> {
        let room = self.room()?;
        let (password, hash) = (password.clone(), hash.clone());
        tokio::task::spawn_blocking(move || {
            let _room = room;
            Phc::new(hash.as_str()).is_ok_and(|phc| {
                Argon2::default()
                    .verify_password(password.expose().as_bytes(), &phc)
                    .is_ok()
            })
        })
        .await
        .map_err(|e| StoreError::Internal(anyhow::Error::new(e).context("hashing task").into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verified(result: StoreResult<bool>) -> bool {
        result.expect("room to check")
    }

    #[tokio::test]
    async fn a_hash_is_argon2id_salted_and_checks_only_its_password() {
        let hasher = Argon2id::default();
        let password = Password::parse("correct horse battery").expect("valid");
        let hash = hasher.hash(&password).await.expect("hashed");
        assert!(hash.as_str().starts_with("$argon2id$"), "{}", hash.as_str());
        assert!(!hash.as_str().contains("correct horse"));
        assert!(verified(hasher.verify(&password, &hash).await));
        let other = Password::parse("incorrect horse battery").expect("valid");
        assert!(!verified(hasher.verify(&other, &hash).await));
        let again = hasher.hash(&password).await.expect("hashed");
        assert_ne!(again, hash, "a new salt each time");
        assert!(!verified(
            hasher
                .verify(&password, &PasswordHash::new("garbage"))
                .await
        ));
    }

    #[tokio::test]
    async fn past_its_room_a_check_is_refused_at_once_and_room_comes_back() {
        let hasher = Argon2id::with_room_for(2);
        let password = Password::parse("correct horse battery").expect("valid");
        let hash = hasher.hash(&password).await.expect("hashed");
        let held = (hasher.room().expect("room"), hasher.room().expect("room"));
        assert!(matches!(
            hasher.verify(&password, &hash).await,
            Err(StoreError::Busy)
        ));
        assert!(matches!(
            hasher.hash(&password).await,
            Err(StoreError::Busy)
        ));
        drop(held);
        assert!(verified(hasher.verify(&password, &hash).await));
    }
}
