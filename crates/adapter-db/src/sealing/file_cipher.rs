//! File bytes sealed before they reach storage: AES-256-GCM over fixed-size chunks (the
//! STREAM construction). Each chunk's nonce is the file's random prefix, the chunk's index
//! and a flag for the last chunk, so chunks can be neither reordered, dropped nor cut off
//! at the end without the file failing to open. The file id and the header are associated
//! data: a sealed file copied under another id does not open.
//!
//! Layout: `IDVF` · version (2) · key id (8: the master key's, see `keyring.rs`) ·
//! nonce prefix (7) · chunks, each `CHUNK` bytes of ciphertext and a 16-byte tag; the last
//! one shorter (or empty for an empty file). Version 1, written before key ids named keys,
//! has a one-byte key id (1) instead, and opens under the oldest key held.

use std::sync::Arc;

use ring::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use ring::rand::{SecureRandom, SystemRandom};

use crate::sealing::keyring::{KeyId, Ring};

/// Plaintext bytes per chunk.
pub const CHUNK: usize = 64 * 1024;
const TAG: usize = 16;
const MAGIC: &[u8; 4] = b"IDVF";
const VERSION: u8 = 2;
const LEGACY_VERSION: u8 = 1;
const LEGACY_KEY_ID: u8 = 1;
const PREFIX: usize = 7;
/// The bytes that say which key sealed a file: the magic, the version and the key id.
pub(crate) const FILE_HEAD: usize = MAGIC.len() + 1 + KeyId::LEN;
const HEADER: usize = FILE_HEAD + PREFIX;
const LEGACY_HEADER: usize = MAGIC.len() + 2 + PREFIX;

#[derive(Debug, thiserror::Error)]
#[error("stored file cannot be opened: wrong master key, wrong id or damaged data")]
pub struct Undecryptable;

/// The file keys of the master keys held (see `keyring.rs`).
pub struct FileCipher {
    keys: Ring<LessSafeKey>,
    rng: SystemRandom,
}

impl std::fmt::Debug for FileCipher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FileCipher(..)")
    }
}

fn nonce(prefix: &[u8], index: u32, last: bool) -> Nonce {
    let mut bytes = [0u8; NONCE_LEN];
    bytes[..PREFIX].copy_from_slice(prefix);
    bytes[PREFIX..PREFIX + 4].copy_from_slice(&index.to_be_bytes());
    bytes[NONCE_LEN - 1] = u8::from(last);
    Nonce::assume_unique_for_key(bytes)
}

fn aad(file_id: &str, header: &[u8]) -> Vec<u8> {
    let mut aad = file_id.as_bytes().to_vec();
    aad.extend_from_slice(header);
    aad
}

/// The length of a header starting with `head`, once enough of it is there to say.
fn header_len(head: &[u8]) -> Result<Option<usize>, Undecryptable> {
    if head.len() <= MAGIC.len() {
        return Ok(None);
    }
    if &head[..MAGIC.len()] != MAGIC {
        return Err(Undecryptable);
    }
    match head[MAGIC.len()] {
        VERSION => Ok(Some(HEADER)),
        LEGACY_VERSION => Ok(Some(LEGACY_HEADER)),
        _ => Err(Undecryptable),
    }
}

/// The key a whole header names, and its nonce prefix.
fn read_key_id(header: &[u8]) -> Result<(KeyId, [u8; PREFIX]), Undecryptable> {
    let after_version = &header[MAGIC.len() + 1..];
    let (id, prefix) = if header[MAGIC.len()] == LEGACY_VERSION {
        if after_version[0] != LEGACY_KEY_ID {
            return Err(Undecryptable);
        }
        (KeyId::Legacy, &after_version[1..])
    } else {
        let (id, prefix) = after_version.split_at(KeyId::LEN);
        let id = id.try_into().map_err(|_| Undecryptable)?;
        (KeyId::Fingerprint(id), prefix)
    };
    Ok((id, prefix.try_into().map_err(|_| Undecryptable)?))
}

impl FileCipher {
    /// An AES-256-GCM file key.
    pub fn key(bytes: &[u8; 32]) -> LessSafeKey {
        let unbound = UnboundKey::new(&AES_256_GCM, bytes).expect("a 32-byte key fits AES-256");
        LessSafeKey::new(unbound)
    }

    pub(crate) fn new(keys: Ring<LessSafeKey>) -> Self {
        Self {
            keys,
            rng: SystemRandom::new(),
        }
    }

    /// Whether a sealed file starting with `head` (`FILE_HEAD` bytes or more) is sealed
    /// under the current key; `None` when `head` is not the start of a sealed file.
    pub(crate) fn is_current(&self, head: &[u8]) -> Option<bool> {
        header_len(head).ok()??;
        let id = head.get(MAGIC.len() + 1..FILE_HEAD)?.try_into().ok()?;
        let tagged = head[MAGIC.len()] == VERSION;
        Some(tagged && self.keys.is_current(KeyId::Fingerprint(id)))
    }

    /// Starts sealing a new file under the current key: returns its encryptor, whose
    /// `header` comes first.
    pub fn encryptor(self: Arc<Self>, file_id: &str) -> Result<Encryptor, Undecryptable> {
        let KeyId::Fingerprint(id) = self.keys.current().0 else {
            unreachable!("the current key is named by its fingerprint")
        };
        let mut header = Vec::with_capacity(HEADER);
        header.extend_from_slice(MAGIC);
        header.push(VERSION);
        header.extend_from_slice(&id);
        self.encryptor_after(file_id, header)
    }

    /// The encryptor of a file whose header starts with `header` (up to the key id).
    fn encryptor_after(
        self: Arc<Self>,
        file_id: &str,
        mut header: Vec<u8>,
    ) -> Result<Encryptor, Undecryptable> {
        let mut prefix = [0u8; PREFIX];
        self.rng.fill(&mut prefix).map_err(|_| Undecryptable)?;
        header.extend_from_slice(&prefix);
        Ok(Encryptor {
            cipher: self.clone(),
            aad: aad(file_id, &header),
            prefix,
            index: 0,
            pending: Vec::with_capacity(CHUNK),
            header: Some(header),
        })
    }

    /// Starts opening a sealed file of this id; feed it the sealed bytes in pieces.
    pub fn decryptor(self: &Arc<Self>, file_id: &str) -> Decryptor {
        Decryptor {
            cipher: self.clone(),
            file_id: file_id.to_owned(),
            opened: None,
            index: 0,
            pending: Vec::new(),
        }
    }

    /// Opens a whole sealed file.
    #[cfg(test)]
    pub fn decrypt(
        self: &Arc<Self>,
        file_id: &str,
        sealed: &[u8],
    ) -> Result<Vec<u8>, Undecryptable> {
        let mut decryptor = self.decryptor(file_id);
        let mut plain = decryptor.push(sealed)?;
        plain.extend(decryptor.finish()?);
        Ok(plain)
    }
}

/// Opens one sealed file as its bytes arrive; `push` and `finish` return the plaintext
/// checked so far. A chunk is opened only once bytes follow it (or at `finish`), so that
/// the last chunk is known: a file cut off at a chunk boundary does not open.
pub struct Decryptor {
    cipher: Arc<FileCipher>,
    file_id: String,
    /// The key the header names, its nonce prefix and the associated data, once the
    /// header was read.
    opened: Option<(KeyId, [u8; PREFIX], Vec<u8>)>,
    index: u32,
    pending: Vec<u8>,
}

impl std::fmt::Debug for Decryptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Decryptor(..)")
    }
}

impl Decryptor {
    /// Takes more sealed bytes; returns the plaintext of the chunks they completed.
    pub fn push(&mut self, sealed: &[u8]) -> Result<Vec<u8>, Undecryptable> {
        self.pending.extend_from_slice(sealed);
        let mut plain = Vec::new();
        if self.opened.is_none() {
            match header_len(&self.pending)? {
                Some(len) if self.pending.len() >= len => self.read_header()?,
                _ => return Ok(plain),
            }
        }
        while self.pending.len() > CHUNK + TAG {
            let rest = self.pending.split_off(CHUNK + TAG);
            let segment = std::mem::replace(&mut self.pending, rest);
            plain.extend(self.open_segment(segment, false)?);
        }
        Ok(plain)
    }

    /// Opens what is left as the last chunk.
    pub fn finish(mut self) -> Result<Vec<u8>, Undecryptable> {
        if self.opened.is_none() {
            self.read_header()?;
        }
        let segment = std::mem::take(&mut self.pending);
        self.open_segment(segment, true)
    }

    fn read_header(&mut self) -> Result<(), Undecryptable> {
        let len = header_len(&self.pending)?.ok_or(Undecryptable)?;
        if self.pending.len() < len {
            return Err(Undecryptable);
        }
        let rest = self.pending.split_off(len);
        let header = std::mem::replace(&mut self.pending, rest);
        let (id, prefix) = read_key_id(&header)?;
        self.opened = Some((id, prefix, aad(&self.file_id, &header)));
        Ok(())
    }

    fn open_segment(&mut self, mut segment: Vec<u8>, last: bool) -> Result<Vec<u8>, Undecryptable> {
        let (id, prefix, aad) = self.opened.as_ref().ok_or(Undecryptable)?;
        if segment.len() < TAG {
            return Err(Undecryptable);
        }
        let key = self.cipher.keys.find(*id).ok_or(Undecryptable)?;
        let len = key
            .open_in_place(
                nonce(prefix, self.index, last),
                Aad::from(aad),
                &mut segment,
            )
            .map_err(|_| Undecryptable)?
            .len();
        self.index = self.index.checked_add(1).ok_or(Undecryptable)?;
        segment.truncate(len);
        Ok(segment)
    }
}

/// Seals one file as its bytes arrive; `push` and `finish` return what to write next.
pub struct Encryptor {
    cipher: Arc<FileCipher>,
    aad: Vec<u8>,
    prefix: [u8; PREFIX],
    index: u32,
    /// Plaintext not sealed yet: a chunk is sealed only once more bytes follow it, so that
    /// the last chunk is known when it is sealed.
    pending: Vec<u8>,
    header: Option<Vec<u8>>,
}

impl std::fmt::Debug for Encryptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Encryptor(..)")
    }
}

impl Encryptor {
    fn seal_chunk(
        &mut self,
        mut chunk: Vec<u8>,
        last: bool,
        out: &mut Vec<u8>,
    ) -> Result<(), Undecryptable> {
        let nonce = nonce(&self.prefix, self.index, last);
        self.cipher
            .keys
            .current()
            .1
            .seal_in_place_append_tag(nonce, Aad::from(&self.aad), &mut chunk)
            .map_err(|_| Undecryptable)?;
        self.index = self.index.checked_add(1).ok_or(Undecryptable)?;
        out.extend_from_slice(&chunk);
        Ok(())
    }

    /// Takes more plaintext; returns the sealed bytes ready to be written (maybe none).
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<u8>, Undecryptable> {
        let mut out = self.header.take().unwrap_or_default();
        self.pending.extend_from_slice(bytes);
        while self.pending.len() > CHUNK {
            let rest = self.pending.split_off(CHUNK);
            let chunk = std::mem::replace(&mut self.pending, rest);
            self.seal_chunk(chunk, false, &mut out)?;
        }
        Ok(out)
    }

    /// Seals what is left as the last chunk; returns the final bytes to write.
    pub fn finish(mut self) -> Result<Vec<u8>, Undecryptable> {
        let mut out = self.header.take().unwrap_or_default();
        let chunk = std::mem::take(&mut self.pending);
        self.seal_chunk(chunk, true, &mut out)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(byte: u8) -> KeyId {
        KeyId::Fingerprint([byte; KeyId::LEN])
    }

    /// A cipher of one file key, `[byte; 32]`, named `[byte; 8]`.
    fn cipher_of(byte: u8) -> Arc<FileCipher> {
        Arc::new(FileCipher::new(Ring::new(
            (id(byte), FileCipher::key(&[byte; 32])),
            None,
        )))
    }

    fn seal(cipher: &Arc<FileCipher>, id: &str, plain: &[u8], piece: usize) -> Vec<u8> {
        let mut enc = cipher.clone().encryptor(id).expect("encryptor");
        let mut sealed = Vec::new();
        for part in plain.chunks(piece.max(1)) {
            sealed.extend(enc.push(part).expect("push"));
        }
        sealed.extend(enc.finish().expect("finish"));
        sealed
    }

    #[test]
    fn files_of_every_size_round_trip_whatever_the_pieces() {
        let cipher = cipher_of(3);
        for len in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 17] {
            let plain: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            for piece in [1000, CHUNK, 100_000] {
                let sealed = seal(&cipher, "F1", &plain, piece);
                assert_eq!(
                    cipher.decrypt("F1", &sealed).expect("opens"),
                    plain,
                    "{len}/{piece}"
                );
            }
        }
    }

    #[test]
    fn sealed_bytes_open_whatever_pieces_they_arrive_in() {
        let cipher = cipher_of(3);
        let plain: Vec<u8> = (0..2 * CHUNK + 99).map(|i| (i % 241) as u8).collect();
        let sealed = seal(&cipher, "F1", &plain, 5000);
        for piece in [1, 13, HEADER, CHUNK + TAG, CHUNK + TAG + 1, 1 << 20] {
            let mut decryptor = cipher.decryptor("F1");
            let mut opened = Vec::new();
            for part in sealed.chunks(piece) {
                opened.extend(decryptor.push(part).expect("push"));
            }
            opened.extend(decryptor.finish().expect("finish"));
            assert_eq!(opened, plain, "pieces of {piece}");
        }
    }

    #[test]
    fn the_bytes_are_not_in_clear_and_open_only_under_their_id_and_key() {
        let cipher = cipher_of(3);
        let plain = b"MARKER-0123456789 passport scan".repeat(10);
        let sealed = seal(&cipher, "F1", &plain, 7);
        assert!(!sealed.windows(17).any(|w| w == b"MARKER-0123456789"));
        assert!(cipher.decrypt("F2", &sealed).is_err(), "other id");
        assert!(cipher_of(4).decrypt("F1", &sealed).is_err(), "other key");
    }

    #[test]
    fn truncated_reordered_or_altered_files_do_not_open() {
        let cipher = cipher_of(3);
        let plain: Vec<u8> = (0..3 * CHUNK + 5).map(|i| (i % 13) as u8).collect();
        let sealed = seal(&cipher, "F1", &plain, CHUNK);
        // Cut after the second whole chunk: every chunk left opens, but none is the last.
        let cut = HEADER + 2 * (CHUNK + TAG);
        assert!(cipher.decrypt("F1", &sealed[..cut]).is_err(), "truncated");
        let mut swapped = sealed.clone();
        let (a, b) = (HEADER, HEADER + CHUNK + TAG);
        let first = sealed[a..b].to_vec();
        swapped[a..b].copy_from_slice(&sealed[b..b + CHUNK + TAG]);
        swapped[b..b + CHUNK + TAG].copy_from_slice(&first);
        assert!(cipher.decrypt("F1", &swapped).is_err(), "reordered");
        let mut flipped = sealed;
        flipped[HEADER + 10] ^= 1;
        assert!(cipher.decrypt("F1", &flipped).is_err(), "altered");
    }

    #[test]
    fn during_a_rotation_files_of_either_key_and_legacy_files_open() {
        let (old, new) = (cipher_of(3), cipher_of(4));
        let rotating = Arc::new(FileCipher::new(Ring::new(
            (id(4), FileCipher::key(&[4; 32])),
            Some((id(3), FileCipher::key(&[3; 32]))),
        )));
        let plain: Vec<u8> = (0..CHUNK + 77).map(|i| (i % 199) as u8).collect();
        let under_old = seal(&old, "F1", &plain, 1000);
        let legacy_header = [MAGIC.as_slice(), &[LEGACY_VERSION, LEGACY_KEY_ID]].concat();
        let mut legacy = old
            .clone()
            .encryptor_after("F1", legacy_header)
            .expect("encryptor");
        let mut under_legacy = legacy.push(&plain).expect("push");
        under_legacy.extend(legacy.finish().expect("finish"));
        let under_new = seal(&rotating, "F1", &plain, 1000);

        for sealed in [&under_old, &under_legacy, &under_new] {
            assert_eq!(rotating.decrypt("F1", sealed).expect("opens"), plain);
        }
        assert_eq!(old.decrypt("F1", &under_legacy).expect("legacy"), plain);
        assert!(old.decrypt("F1", &under_new).is_err(), "the old key alone");
        assert_eq!(new.decrypt("F1", &under_new).expect("new key alone"), plain);
        assert!(new.decrypt("F1", &under_old).is_err());

        let head = |sealed: &[u8]| sealed[..FILE_HEAD].to_vec();
        assert_eq!(rotating.is_current(&head(&under_new)), Some(true));
        assert_eq!(rotating.is_current(&head(&under_old)), Some(false));
        assert_eq!(rotating.is_current(&head(&under_legacy)), Some(false));
        assert_eq!(rotating.is_current(b"not a sealed file"), None);
        assert_eq!(
            rotating.is_current(&under_new[..5]),
            None,
            "too short to say"
        );
    }
}
