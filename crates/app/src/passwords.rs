//! Dashboard passwords hashed with Argon2id (the `argon2` crate's defaults: 19 MiB,
//! 2 passes, OWASP's recommendation), on a blocking thread: a hash takes tens of
//! milliseconds on purpose.

use argon2::password_hash::{PasswordHash as Phc, SaltString};
use argon2::{Argon2, PasswordHasher as _, PasswordVerifier as _};
use async_trait::async_trait;
use domain::ports::{PasswordHasher, StoreError, StoreResult};
use domain::user::{Password, PasswordHash};
use ring::rand::{SecureRandom, SystemRandom};

#[derive(Debug, Default)]
pub struct Argon2id;

#[async_trait]
impl PasswordHasher for Argon2id {
    async fn hash(&self, password: &Password) -> StoreResult<PasswordHash> {
        let password = password.clone();
        let hashed = tokio::task::spawn_blocking(move || {
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
        .map_err(|e| StoreError::Internal(format!("hashing task failed: {e}")))?;
        hashed
            .map(PasswordHash::new)
            .map_err(|e| StoreError::Internal(format!("password hashing: {e}")))
    }

    async fn verify(&self, password: &Password, hash: &PasswordHash) -> bool {
        let (password, hash) = (password.clone(), hash.clone());
        tokio::task::spawn_blocking(move || {
            Phc::new(hash.as_str()).is_ok_and(|phc| {
                Argon2::default()
                    .verify_password(password.expose().as_bytes(), &phc)
                    .is_ok()
            })
        })
        .await
        .unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_is_argon2id_salted_and_checks_only_its_password() {
        let password = Password::parse("correct horse battery").expect("valid");
        let hash = Argon2id.hash(&password).await.expect("hashed");
        assert!(hash.as_str().starts_with("$argon2id$"), "{}", hash.as_str());
        assert!(!hash.as_str().contains("correct horse"));
        assert!(Argon2id.verify(&password, &hash).await);
        let other = Password::parse("incorrect horse battery").expect("valid");
        assert!(!Argon2id.verify(&other, &hash).await);
        let again = Argon2id.hash(&password).await.expect("hashed");
        assert_ne!(again, hash, "a new salt each time");
        assert!(
            !Argon2id
                .verify(&password, &PasswordHash::new("garbage"))
                .await
        );
    }
}
