//! Encryption at rest for API secrets: AES-256-GCM under the operator's master key.
//! The database alone (a backup, a stolen disk) does not reveal a merchant's secret.

use ring::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use ring::rand::{SecureRandom, SystemRandom};

pub const MASTER_KEY_LEN: usize = 32;

pub struct Vault {
    key: LessSafeKey,
    rng: SystemRandom,
}

impl std::fmt::Debug for Vault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Vault(..)")
    }
}

#[derive(Debug, thiserror::Error)]
#[error("sealed value cannot be opened: wrong master key or damaged data")]
pub struct Unsealable;

impl Vault {
    pub fn new(master_key: &[u8; MASTER_KEY_LEN]) -> Self {
        let unbound =
            UnboundKey::new(&AES_256_GCM, master_key).expect("a 32-byte key fits AES-256");
        Self {
            key: LessSafeKey::new(unbound),
            rng: SystemRandom::new(),
        }
    }

    /// `nonce || ciphertext || tag`. `context` is authenticated but not stored: a sealed
    /// value moved to another row (another `context`) no longer opens.
    pub fn seal(&self, plaintext: &[u8], context: &str) -> Result<Vec<u8>, Unsealable> {
        let mut nonce = [0u8; NONCE_LEN];
        self.rng.fill(&mut nonce).map_err(|_| Unsealable)?;
        let mut buffer = plaintext.to_vec();
        self.key
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(context.as_bytes()),
                &mut buffer,
            )
            .map_err(|_| Unsealable)?;
        let mut sealed = nonce.to_vec();
        sealed.extend_from_slice(&buffer);
        Ok(sealed)
    }

    pub fn open(&self, sealed: &[u8], context: &str) -> Result<Vec<u8>, Unsealable> {
        if sealed.len() < NONCE_LEN {
            return Err(Unsealable);
        }
        let (nonce, ciphertext) = sealed.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| Unsealable)?;
        let mut buffer = ciphertext.to_vec();
        let plain = self
            .key
            .open_in_place(nonce, Aad::from(context.as_bytes()), &mut buffer)
            .map_err(|_| Unsealable)?;
        Ok(plain.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_secret_opens_only_with_its_key_and_context() {
        let vault = Vault::new(&[7; MASTER_KEY_LEN]);
        let sealed = vault.seal(b"sec-abc", "key-1").expect("sealed");
        assert!(!sealed.windows(7).any(|w| w == b"sec-abc"), "not in clear");
        assert_eq!(vault.open(&sealed, "key-1").expect("opens"), b"sec-abc");
        assert!(vault.open(&sealed, "key-2").is_err(), "other context");
        assert!(
            Vault::new(&[8; MASTER_KEY_LEN])
                .open(&sealed, "key-1")
                .is_err(),
            "other key"
        );
        assert!(vault.open(&sealed[..5], "key-1").is_err(), "truncated");
    }

    #[test]
    fn sealing_twice_gives_different_bytes() {
        let vault = Vault::new(&[7; MASTER_KEY_LEN]);
        let a = vault.seal(b"same", "k").expect("sealed");
        let b = vault.seal(b"same", "k").expect("sealed");
        assert_ne!(a, b, "fresh nonce each time");
    }
}
