//! Encryption at rest, all of it under the operator's master key:
//! - API secrets: AES-256-GCM under the master key itself, the key id as associated data;
//! - personal fields (SSN, date of birth, licence id, what the client typed, document
//!   evidence): AES-256-GCM under a data key derived from the master key (HKDF), with the
//!   table, column and row id as associated data, so a sealed value copied into another
//!   row or column does not open;
//! - file bytes: see `file_cipher.rs`, under a file key derived the same way;
//! - quiz tokens and short codes: kept as HMAC-SHA256 under a link key derived the same
//!   way (lookups hash the presented link), beside a sealed copy for the addresses shown.
//!
//! The database alone (a backup, a stolen disk) reveals none of these.

use base64::Engine;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use ring::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use ring::rand::{SecureRandom, SystemRandom};
use ring::{hkdf, hmac};

use std::sync::Arc;

use crate::file_cipher::{Decryptor, Encryptor, FileCipher, Undecryptable};

pub const MASTER_KEY_LEN: usize = 32;

/// The id of the data key every new value is sealed with. Stored in front of each sealed
/// value, so that a later rotation can tell old values from new and re-seal them.
const DATA_KEY_ID: &str = "k1";

/// Domain separation for what is derived from the master key.
const SALT: &[u8] = b"idv master key derivation";
const DATA_KEY_INFO: &[u8] = b"idv data key k1";
const FILE_KEY_INFO: &[u8] = b"idv file key k1";
const LINK_KEY_INFO: &[u8] = b"idv quiz link key k1";
const INDEX_KEY_INFO: &[u8] = b"idv identity index key k1";
const FINGERPRINT_INFO: &[u8] = b"idv master key fingerprint";

pub struct Vault {
    secrets: LessSafeKey,
    data: LessSafeKey,
    files: Arc<FileCipher>,
    links: hmac::Key,
    index: hmac::Key,
    fingerprint: String,
    rng: SystemRandom,
}

impl std::fmt::Debug for Vault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Vault(fingerprint {})", self.fingerprint)
    }
}

#[derive(Debug, thiserror::Error)]
#[error("sealed value cannot be opened: wrong master key or damaged data")]
pub struct Unsealable;

/// Where a sealed field lives; part of its associated data.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Column(pub &'static str);

fn derive(master: &[u8; MASTER_KEY_LEN], info: &'static [u8]) -> [u8; 32] {
    struct Len32;
    impl hkdf::KeyType for Len32 {
        fn len(&self) -> usize {
            32
        }
    }
    let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, SALT).extract(master);
    let mut out = [0u8; 32];
    prk.expand(&[info], Len32)
        .and_then(|okm| okm.fill(&mut out))
        .expect("32 bytes is a valid HKDF-SHA256 output length");
    out
}

fn aes_key(bytes: &[u8; 32]) -> LessSafeKey {
    LessSafeKey::new(UnboundKey::new(&AES_256_GCM, bytes).expect("a 32-byte key fits AES-256"))
}

impl Vault {
    pub fn new(master_key: &[u8; MASTER_KEY_LEN]) -> Self {
        let fingerprint = hex::encode(&derive(master_key, FINGERPRINT_INFO)[..8]);
        Self {
            secrets: aes_key(master_key),
            data: aes_key(&derive(master_key, DATA_KEY_INFO)),
            files: Arc::new(FileCipher::new(&derive(master_key, FILE_KEY_INFO))),
            links: hmac::Key::new(hmac::HMAC_SHA256, &derive(master_key, LINK_KEY_INFO)),
            index: hmac::Key::new(hmac::HMAC_SHA256, &derive(master_key, INDEX_KEY_INFO)),
            fingerprint,
            rng: SystemRandom::new(),
        }
    }

    /// 16 hex characters that identify the master key without revealing it; kept in the
    /// database so that a wrong key is refused before it touches anything.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// What a quiz token or short code is stored and looked up as: lowercase hex
    /// HMAC-SHA256 under the link key. `column` keeps a token and a code apart.
    pub(crate) fn link_hash(&self, column: Column, link: &str) -> String {
        let mut context = hmac::Context::with_key(&self.links);
        context.update(column.0.as_bytes());
        context.update(&[0]);
        context.update(link.as_bytes());
        hex::encode(context.sign().as_ref())
    }

    /// What the identity index keeps of a value (an SSN, a device fingerprint): lowercase
    /// hex HMAC-SHA256 under the index key, over the merchant, the kind and the value, so
    /// the same SSN of two merchants gives unrelated digests and none can be compared
    /// across merchants, nor reversed without the master key.
    pub(crate) fn index_digest(&self, merchant: &str, kind: &str, value: &str) -> String {
        let mut context = hmac::Context::with_key(&self.index);
        for part in [merchant, kind, value] {
            context.update(part.as_bytes());
            context.update(&[0]);
        }
        hex::encode(context.sign().as_ref())
    }

    /// Opens the sealed bytes of the file with this id, as they arrive.
    pub(crate) fn file_decryptor(&self, file_id: &str) -> Decryptor {
        self.files.decryptor(file_id)
    }

    pub(crate) fn file_encryptor(&self, file_id: &str) -> Result<Encryptor, Undecryptable> {
        self.files.clone().encryptor(file_id)
    }

    fn seal_with(
        &self,
        key: &LessSafeKey,
        plain: &[u8],
        aad: &[u8],
    ) -> Result<Vec<u8>, Unsealable> {
        let mut nonce = [0u8; NONCE_LEN];
        self.rng.fill(&mut nonce).map_err(|_| Unsealable)?;
        let mut buffer = plain.to_vec();
        key.seal_in_place_append_tag(
            Nonce::assume_unique_for_key(nonce),
            Aad::from(aad),
            &mut buffer,
        )
        .map_err(|_| Unsealable)?;
        let mut sealed = nonce.to_vec();
        sealed.extend_from_slice(&buffer);
        Ok(sealed)
    }

    fn open_with(key: &LessSafeKey, sealed: &[u8], aad: &[u8]) -> Result<Vec<u8>, Unsealable> {
        if sealed.len() < NONCE_LEN {
            return Err(Unsealable);
        }
        let (nonce, ciphertext) = sealed.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| Unsealable)?;
        let mut buffer = ciphertext.to_vec();
        let plain = key
            .open_in_place(nonce, Aad::from(aad), &mut buffer)
            .map_err(|_| Unsealable)?;
        Ok(plain.to_vec())
    }

    /// An API secret: `nonce || ciphertext || tag` under the master key. `context` is
    /// authenticated but not stored.
    pub fn seal(&self, plaintext: &[u8], context: &str) -> Result<Vec<u8>, Unsealable> {
        self.seal_with(&self.secrets, plaintext, context.as_bytes())
    }

    pub fn open(&self, sealed: &[u8], context: &str) -> Result<Vec<u8>, Unsealable> {
        Self::open_with(&self.secrets, sealed, context.as_bytes())
    }

    /// A personal field as stored: `k1:` + base64 of `nonce || ciphertext || tag`.
    pub(crate) fn seal_field(
        &self,
        column: Column,
        row_id: &str,
        plain: &str,
    ) -> Result<String, Unsealable> {
        let sealed = self.seal_with(&self.data, plain.as_bytes(), &field_aad(column, row_id))?;
        Ok(format!("{DATA_KEY_ID}:{}", STANDARD_NO_PAD.encode(sealed)))
    }

    pub(crate) fn open_field(
        &self,
        column: Column,
        row_id: &str,
        stored: &str,
    ) -> Result<String, Unsealable> {
        let encoded = stored
            .strip_prefix(DATA_KEY_ID)
            .and_then(|rest| rest.strip_prefix(':'))
            .ok_or(Unsealable)?;
        let sealed = STANDARD_NO_PAD.decode(encoded).map_err(|_| Unsealable)?;
        let plain = Self::open_with(&self.data, &sealed, &field_aad(column, row_id))?;
        String::from_utf8(plain).map_err(|_| Unsealable)
    }
}

impl From<Unsealable> for domain::ports::StoreError {
    fn from(e: Unsealable) -> Self {
        Self::Internal(e.to_string())
    }
}

impl From<Unsealable> for crate::failure::Failure {
    fn from(e: Unsealable) -> Self {
        Self::Store(e.into())
    }
}

impl Vault {
    /// Seals each present value of `columns` in place (a row on its way to the database).
    pub(crate) fn seal_columns<const N: usize>(
        &self,
        row_id: &str,
        columns: [(Column, &mut Option<String>); N],
    ) -> Result<(), Unsealable> {
        map_present(columns, |column, plain| {
            self.seal_field(column, row_id, plain)
        })
    }

    /// Opens each present value of `columns` in place (a row read from the database).
    pub(crate) fn open_columns<const N: usize>(
        &self,
        row_id: &str,
        columns: [(Column, &mut Option<String>); N],
    ) -> Result<(), Unsealable> {
        map_present(columns, |column, sealed| {
            self.open_field(column, row_id, sealed)
        })
    }
}

/// Replaces each present value of `columns` by `f` of it.
fn map_present<const N: usize>(
    columns: [(Column, &mut Option<String>); N],
    f: impl Fn(Column, &str) -> Result<String, Unsealable>,
) -> Result<(), Unsealable> {
    for (column, value) in columns {
        if let Some(text) = value.take() {
            *value = Some(f(column, &text)?);
        }
    }
    Ok(())
}

fn field_aad(column: Column, row_id: &str) -> Vec<u8> {
    format!("{DATA_KEY_ID}|{}|{row_id}", column.0).into_bytes()
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
    fn a_link_hash_is_stable_keyed_and_apart_per_column() {
        let vault = Vault::new(&[7; MASTER_KEY_LEN]);
        let (token, code) = (Column("quizzes.token"), Column("quizzes.code"));
        let hash = vault.link_hash(token, "Abc123");
        assert_eq!(hash, vault.link_hash(token, "Abc123"), "lookups find it");
        assert_eq!(hash.len(), 64);
        assert!(!hash.contains("Abc123"));
        assert_ne!(
            hash,
            vault.link_hash(code, "Abc123"),
            "a code is not a token"
        );
        assert_ne!(
            hash,
            Vault::new(&[8; MASTER_KEY_LEN]).link_hash(token, "Abc123"),
            "another key, another hash"
        );
    }

    #[test]
    fn sealing_twice_gives_different_bytes() {
        let vault = Vault::new(&[7; MASTER_KEY_LEN]);
        let a = vault.seal(b"same", "k").expect("sealed");
        let b = vault.seal(b"same", "k").expect("sealed");
        assert_ne!(a, b, "fresh nonce each time");
    }

    #[test]
    fn a_sealed_field_opens_only_in_its_own_row_and_column() {
        let vault = Vault::new(&[7; MASTER_KEY_LEN]);
        let ssn = Column("profiles.ssn");
        let sealed = vault.seal_field(ssn, "row-1", "123456789").expect("sealed");
        assert!(sealed.starts_with("k1:"), "{sealed}");
        assert!(!sealed.contains("123456789"));
        assert_eq!(
            vault.open_field(ssn, "row-1", &sealed).expect("opens"),
            "123456789"
        );
        assert!(
            vault.open_field(ssn, "row-2", &sealed).is_err(),
            "other row"
        );
        let dob = Column("profiles.date_of_birth");
        assert!(
            vault.open_field(dob, "row-1", &sealed).is_err(),
            "other column"
        );
        assert!(
            vault.open_field(ssn, "row-1", "123456789").is_err(),
            "clear text"
        );
        let other = Vault::new(&[8; MASTER_KEY_LEN]);
        assert!(
            other.open_field(ssn, "row-1", &sealed).is_err(),
            "other key"
        );
    }

    #[test]
    fn the_fingerprint_names_the_key_without_revealing_it() {
        let a = Vault::new(&[7; MASTER_KEY_LEN]);
        assert_eq!(a.fingerprint().len(), 16);
        assert_eq!(
            a.fingerprint(),
            Vault::new(&[7; MASTER_KEY_LEN]).fingerprint()
        );
        assert_ne!(
            a.fingerprint(),
            Vault::new(&[8; MASTER_KEY_LEN]).fingerprint()
        );
        assert!(!a.fingerprint().contains("0707"));
    }
}
