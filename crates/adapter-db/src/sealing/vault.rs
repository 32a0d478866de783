//! Encryption at rest, all of it under the operator's master key:
//! - API secrets: AES-256-GCM under the master key itself, the key id as associated data;
//! - personal fields (SSN, date of birth, licence id, what the client typed, document
//!   evidence): AES-256-GCM under a data key derived from the master key (HKDF), with the
//!   table, column and row id as associated data, so a sealed value copied into another
//!   row or column does not open;
//! - file bytes: see `file_cipher.rs`, under a file key derived the same way;
//! - quiz tokens and short codes: kept as HMAC-SHA256 under a link key derived the same
//!   way (lookups hash the presented link), beside a sealed copy for the addresses shown;
//! - the device marks browsers hold (`device_marks.rs`): signed with HMAC-SHA256 under a
//!   device key derived the same way.
//!
//! The database alone (a backup, a stolen disk) reveals none of these.

use base64::Engine;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use ring::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use ring::rand::{SecureRandom, SystemRandom};
use ring::{hkdf, hmac};

use std::sync::Arc;

use crate::sealing::file_cipher::{Decryptor, Encryptor, FileCipher, Undecryptable};
use crate::sealing::keyring::{KeyId, Ring};

pub const MASTER_KEY_LEN: usize = 32;

/// Domain separation for what is derived from the master key. The `k1` in the names is
/// historical (every key derives its own keys under the same names).
const SALT: &[u8] = b"idv master key derivation";
const DATA_KEY_INFO: &[u8] = b"idv data key k1";
const FILE_KEY_INFO: &[u8] = b"idv file key k1";
const LINK_KEY_INFO: &[u8] = b"idv quiz link key k1";
const INDEX_KEY_INFO: &[u8] = b"idv identity index key k1";
const DEVICE_KEY_INFO: &[u8] = b"idv device mark key k1";
const FINGERPRINT_INFO: &[u8] = b"idv master key fingerprint";

/// What a sealed secret starts with, before the id of the key that sealed it. Secrets
/// sealed before key ids start with their random nonce instead.
const SECRET_TAG: &[u8; 4] = b"IDVK";

/// What one master key seals and hashes with.
struct Keys {
    secrets: LessSafeKey,
    data: LessSafeKey,
    links: hmac::Key,
    index: hmac::Key,
    devices: hmac::Key,
}

/// Everything sealed at rest, under the current master key and, during a rotation, the
/// previous one too (see `keyring.rs`): new values are sealed under the current key,
/// values of either key open.
pub struct Vault {
    keys: Ring<Keys>,
    files: Arc<FileCipher>,
    fingerprint: String,
    previous_fingerprint: Option<String>,
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

/// The id of a master key: the first bytes of its fingerprint derivation.
fn key_id(master: &[u8; MASTER_KEY_LEN]) -> [u8; KeyId::LEN] {
    let mut id = [0u8; KeyId::LEN];
    id.copy_from_slice(&derive(master, FINGERPRINT_INFO)[..KeyId::LEN]);
    id
}

/// A master key's keys, its file key and its id.
fn keys_of(master: &[u8; MASTER_KEY_LEN]) -> (KeyId, Keys, [u8; 32]) {
    let keys = Keys {
        secrets: aes_key(master),
        data: aes_key(&derive(master, DATA_KEY_INFO)),
        links: hmac::Key::new(hmac::HMAC_SHA256, &derive(master, LINK_KEY_INFO)),
        index: hmac::Key::new(hmac::HMAC_SHA256, &derive(master, INDEX_KEY_INFO)),
        devices: hmac::Key::new(hmac::HMAC_SHA256, &derive(master, DEVICE_KEY_INFO)),
    };
    (
        KeyId::Fingerprint(key_id(master)),
        keys,
        derive(master, FILE_KEY_INFO),
    )
}

/// The 16 hex characters that name a master key.
pub fn fingerprint_of(master: &[u8; MASTER_KEY_LEN]) -> String {
    hex::encode(key_id(master))
}

impl Vault {
    /// A vault of one master key.
    pub fn new(master_key: &[u8; MASTER_KEY_LEN]) -> Self {
        Self::with_keys(master_key, None)
    }

    /// A vault during a rotation: it seals under `new` and opens what either key sealed.
    pub fn rotating(old: &[u8; MASTER_KEY_LEN], new: &[u8; MASTER_KEY_LEN]) -> Self {
        Self::with_keys(new, Some(old))
    }

    fn with_keys(current: &[u8; MASTER_KEY_LEN], previous: Option<&[u8; MASTER_KEY_LEN]>) -> Self {
        let (id, keys, file_key) = keys_of(current);
        let previous_keys = previous.map(keys_of);
        let files = Ring::new(
            (id, FileCipher::key(&file_key)),
            previous_keys
                .as_ref()
                .map(|(id, _, file_key)| (*id, FileCipher::key(file_key))),
        );
        Self {
            keys: Ring::new((id, keys), previous_keys.map(|(id, keys, _)| (id, keys))),
            files: Arc::new(FileCipher::new(files)),
            fingerprint: fingerprint_of(current),
            previous_fingerprint: previous.map(fingerprint_of),
            rng: SystemRandom::new(),
        }
    }

    /// 16 hex characters that identify the current master key without revealing it; kept
    /// in the database so that a wrong key is refused before it touches anything.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// The fingerprint of the key being rotated away from, during a rotation.
    pub fn previous_fingerprint(&self) -> Option<&str> {
        self.previous_fingerprint.as_deref()
    }

    /// What a quiz token or short code is stored and looked up as: lowercase hex
    /// HMAC-SHA256 under the current link key. `column` keeps a token and a code apart.
    pub(crate) fn link_hash(&self, column: Column, link: &str) -> String {
        link_hash(&self.keys.current().1.links, column, link)
    }

    /// The hashes a stored link may have while a rotation is under way: under each key.
    pub(crate) fn link_hashes(&self, column: Column, link: &str) -> Vec<String> {
        let hashes = self.keys.all().map(|k| link_hash(&k.links, column, link));
        hashes.collect()
    }

    /// The tag of a device mark's `text`, under the current device key.
    pub(crate) fn device_tag(&self, text: &str) -> hmac::Tag {
        hmac::sign(&self.keys.current().1.devices, text.as_bytes())
    }

    /// Whether `tag` is the tag of `text` under a device key of the vault (the previous
    /// one too, during a rotation, so marks survive it), compared in constant time.
    pub(crate) fn device_tag_matches(&self, text: &str, tag: &[u8]) -> bool {
        self.keys
            .all()
            .any(|k| hmac::verify(&k.devices, text.as_bytes(), tag).is_ok())
    }

    /// What the identity index keeps of a value (an SSN, a device fingerprint): lowercase
    /// hex HMAC-SHA256 under the current index key, over the merchant, the kind and the
    /// value, so the same SSN of two merchants gives unrelated digests and none can be
    /// compared across merchants, nor reversed without the master key.
    pub(crate) fn index_digest(&self, merchant: &str, kind: &str, value: &str) -> String {
        index_digest(&self.keys.current().1.index, merchant, kind, value)
    }

    /// The digests an indexed value may be stored under while a rotation is under way.
    pub(crate) fn index_digests(&self, merchant: &str, kind: &str, value: &str) -> Vec<String> {
        let digests = self.keys.all();
        digests
            .map(|k| index_digest(&k.index, merchant, kind, value))
            .collect()
    }

    /// Opens the sealed bytes of the file with this id, as they arrive.
    pub(crate) fn file_decryptor(&self, file_id: &str) -> Decryptor {
        self.files.decryptor(file_id)
    }

    pub(crate) fn file_encryptor(&self, file_id: &str) -> Result<Encryptor, Undecryptable> {
        self.files.clone().encryptor(file_id)
    }

    /// Whether a sealed file starting with `head` (at least `FILE_HEAD` bytes) is sealed
    /// under the current key; `None` when the bytes are not a sealed file's start.
    pub(crate) fn file_is_current(&self, head: &[u8]) -> Option<bool> {
        self.files.is_current(head)
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

    /// An API secret: `IDVK` · the key id · `nonce || ciphertext || tag` under the current
    /// master key. `context` is authenticated but not stored.
    pub fn seal(&self, plaintext: &[u8], context: &str) -> Result<Vec<u8>, Unsealable> {
        let (id, keys) = self.keys.current();
        let KeyId::Fingerprint(id) = id else {
            unreachable!("a vault's current key is named by its fingerprint")
        };
        let mut sealed = SECRET_TAG.to_vec();
        sealed.extend_from_slice(&id);
        sealed.extend(self.seal_with(&keys.secrets, plaintext, context.as_bytes())?);
        Ok(sealed)
    }

    pub fn open(&self, sealed: &[u8], context: &str) -> Result<Vec<u8>, Unsealable> {
        let legacy = || {
            let keys = self.keys.find(KeyId::Legacy).ok_or(Unsealable)?;
            Self::open_with(&keys.secrets, sealed, context.as_bytes())
        };
        match secret_key_id(sealed) {
            Some((id, rest)) => self
                .keys
                .find(id)
                .ok_or(Unsealable)
                .and_then(|keys| Self::open_with(&keys.secrets, rest, context.as_bytes()))
                // A legacy secret whose random nonce happens to begin like a tag.
                .or_else(|_| legacy()),
            None => legacy(),
        }
    }

    /// A personal field as stored: the key id (`k` and 16 hex characters), `:`, and
    /// base64 of `nonce || ciphertext || tag`.
    pub(crate) fn seal_field(
        &self,
        column: Column,
        row_id: &str,
        plain: &str,
    ) -> Result<String, Unsealable> {
        let (id, keys) = self.keys.current();
        let sealed =
            self.seal_with(&keys.data, plain.as_bytes(), &field_aad(id, column, row_id))?;
        Ok(format!("{}:{}", id.text(), STANDARD_NO_PAD.encode(sealed)))
    }

    pub(crate) fn open_field(
        &self,
        column: Column,
        row_id: &str,
        stored: &str,
    ) -> Result<String, Unsealable> {
        let (id, encoded) = field_key_id(stored).ok_or(Unsealable)?;
        let keys = self.keys.find(id).ok_or(Unsealable)?;
        let sealed = STANDARD_NO_PAD.decode(encoded).map_err(|_| Unsealable)?;
        let plain = Self::open_with(&keys.data, &sealed, &field_aad(id, column, row_id))?;
        String::from_utf8(plain).map_err(|_| Unsealable)
    }

    /// A secret sealed again under the current key, or `None` when it already is.
    pub(crate) fn reseal(
        &self,
        sealed: &[u8],
        context: &str,
    ) -> Result<Option<Vec<u8>>, Unsealable> {
        if secret_key_id(sealed).is_some_and(|(id, _)| self.keys.is_current(id)) {
            return Ok(None);
        }
        let plain = self.open(sealed, context)?;
        self.seal(&plain, context).map(Some)
    }

    /// A field sealed again under the current key, or `None` when it already is.
    pub(crate) fn reseal_field(
        &self,
        column: Column,
        row_id: &str,
        stored: &str,
    ) -> Result<Option<String>, Unsealable> {
        if field_key_id(stored).is_some_and(|(id, _)| self.keys.is_current(id)) {
            return Ok(None);
        }
        let plain = self.open_field(column, row_id, stored)?;
        self.seal_field(column, row_id, &plain).map(Some)
    }

    /// How a field sealed under the current key starts, before its `:`.
    pub(crate) fn current_key_text(&self) -> String {
        self.keys.current().0.text()
    }
}

fn link_hash(key: &hmac::Key, column: Column, link: &str) -> String {
    let mut context = hmac::Context::with_key(key);
    context.update(column.0.as_bytes());
    context.update(&[0]);
    context.update(link.as_bytes());
    hex::encode(context.sign().as_ref())
}

fn index_digest(key: &hmac::Key, merchant: &str, kind: &str, value: &str) -> String {
    let mut context = hmac::Context::with_key(key);
    for part in [merchant, kind, value] {
        context.update(part.as_bytes());
        context.update(&[0]);
    }
    hex::encode(context.sign().as_ref())
}

/// The key id a tagged secret names, and the sealed bytes after it; `None` for a secret
/// sealed before key ids.
fn secret_key_id(sealed: &[u8]) -> Option<(KeyId, &[u8])> {
    let rest = sealed.strip_prefix(SECRET_TAG.as_slice())?;
    let id: [u8; KeyId::LEN] = rest.get(..KeyId::LEN)?.try_into().ok()?;
    Some((KeyId::Fingerprint(id), &rest[KeyId::LEN..]))
}

/// The key id a sealed field names, and its base64 after the `:`.
fn field_key_id(stored: &str) -> Option<(KeyId, &str)> {
    let (id, encoded) = stored.split_once(':')?;
    Some((KeyId::from_text(id)?, encoded))
}

impl From<Unsealable> for domain::ports::StoreError {
    fn from(e: Unsealable) -> Self {
        Self::Internal(Box::new(e))
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

fn field_aad(id: KeyId, column: Column, row_id: &str) -> Vec<u8> {
    format!("{}|{}|{row_id}", id.text(), column.0).into_bytes()
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
        assert!(
            sealed.starts_with(&format!("k{}:", vault.fingerprint())),
            "{sealed}"
        );
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

    #[test]
    fn during_a_rotation_values_of_either_key_open_and_reseal_under_the_new_one() {
        let (old_key, new_key) = ([7; MASTER_KEY_LEN], [8; MASTER_KEY_LEN]);
        let old = Vault::new(&old_key);
        let rotating = Vault::rotating(&old_key, &new_key);
        let new = Vault::new(&new_key);
        assert_eq!(rotating.fingerprint(), new.fingerprint());
        assert_eq!(rotating.previous_fingerprint(), Some(old.fingerprint()));
        let ssn = Column("profiles.ssn");

        let field = old.seal_field(ssn, "row-1", "123456789").expect("sealed");
        let secret = old.seal(b"sec-abc", "key-1").expect("sealed");
        assert_eq!(
            rotating.open_field(ssn, "row-1", &field).expect("opens"),
            "123456789"
        );
        assert_eq!(rotating.open(&secret, "key-1").expect("opens"), b"sec-abc");

        let field = rotating
            .reseal_field(ssn, "row-1", &field)
            .expect("resealed")
            .expect("was under the old key");
        let secret = rotating
            .reseal(&secret, "key-1")
            .expect("resealed")
            .expect("old");
        assert!(field.starts_with(&format!("{}:", rotating.current_key_text())));
        assert!(
            rotating
                .reseal_field(ssn, "row-1", &field)
                .expect("ok")
                .is_none()
        );
        assert!(rotating.reseal(&secret, "key-1").expect("ok").is_none());
        assert_eq!(
            new.open_field(ssn, "row-1", &field).expect("new key"),
            "123456789"
        );
        assert_eq!(new.open(&secret, "key-1").expect("new key"), b"sec-abc");
        assert!(old.open_field(ssn, "row-1", &field).is_err(), "the old key");
        assert!(old.open(&secret, "key-1").is_err(), "the old key");
        assert!(
            rotating.reseal_field(ssn, "row-2", &field).is_ok(),
            "current: kept"
        );
        assert!(
            rotating
                .reseal_field(Column("x"), "row-1", "k1:AAAA")
                .is_err()
        );
    }

    #[test]
    fn values_sealed_before_key_ids_open_under_the_oldest_key() {
        let (old_key, new_key) = ([7; MASTER_KEY_LEN], [8; MASTER_KEY_LEN]);
        let old = Vault::new(&old_key);
        let ssn = Column("profiles.ssn");
        // As earlier versions sealed them: `k1:` fields, untagged secrets.
        let (_, keys) = old.keys.current();
        let aad = field_aad(KeyId::Legacy, ssn, "row-1");
        let sealed = old
            .seal_with(&keys.data, b"123456789", &aad)
            .expect("sealed");
        let field = format!("k1:{}", STANDARD_NO_PAD.encode(sealed));
        let secret = old
            .seal_with(&keys.secrets, b"sec-abc", b"key-1")
            .expect("sealed");

        let rotating = Vault::rotating(&old_key, &new_key);
        for vault in [&old, &rotating] {
            assert_eq!(
                vault.open_field(ssn, "row-1", &field).expect("opens"),
                "123456789"
            );
            assert_eq!(vault.open(&secret, "key-1").expect("opens"), b"sec-abc");
        }
        assert!(
            rotating
                .reseal_field(ssn, "row-1", &field)
                .expect("ok")
                .is_some()
        );
        assert!(rotating.reseal(&secret, "key-1").expect("ok").is_some());
        assert!(Vault::new(&new_key).open(&secret, "key-1").is_err());
    }

    #[test]
    fn lookups_try_the_hashes_of_both_keys_current_first() {
        let (old_key, new_key) = ([7; MASTER_KEY_LEN], [8; MASTER_KEY_LEN]);
        let (old, new) = (Vault::new(&old_key), Vault::new(&new_key));
        let rotating = Vault::rotating(&old_key, &new_key);
        let token = Column("quizzes.token");
        assert_eq!(
            rotating.link_hashes(token, "Abc"),
            [new.link_hash(token, "Abc"), old.link_hash(token, "Abc")]
        );
        assert_eq!(
            rotating.link_hash(token, "Abc"),
            new.link_hash(token, "Abc")
        );
        assert_eq!(
            rotating.index_digests("m", "ssn", "1"),
            [
                new.index_digest("m", "ssn", "1"),
                old.index_digest("m", "ssn", "1")
            ]
        );
        assert_eq!(old.link_hashes(token, "Abc").len(), 1);
    }
}
