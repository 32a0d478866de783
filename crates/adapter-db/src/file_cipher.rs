//! File bytes sealed before they reach storage: AES-256-GCM over fixed-size chunks (the
//! STREAM construction). Each chunk's nonce is the file's random prefix, the chunk's index
//! and a flag for the last chunk, so chunks can be neither reordered, dropped nor cut off
//! at the end without the file failing to open. The file id and the header are associated
//! data: a sealed file copied under another id does not open.
//!
//! Layout: `IDVF` · version (1) · key id (1) · nonce prefix (7) · chunks, each
//! `CHUNK` bytes of ciphertext and a 16-byte tag; the last one shorter (or empty for an
//! empty file).

use std::sync::Arc;

use ring::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use ring::rand::{SecureRandom, SystemRandom};

/// Plaintext bytes per chunk.
pub const CHUNK: usize = 64 * 1024;
const TAG: usize = 16;
const MAGIC: &[u8; 4] = b"IDVF";
const VERSION: u8 = 1;
const KEY_ID: u8 = 1;
const PREFIX: usize = 7;
const HEADER: usize = MAGIC.len() + 2 + PREFIX;

#[derive(Debug, thiserror::Error)]
#[error("stored file cannot be opened: wrong master key, wrong id or damaged data")]
pub struct Undecryptable;

pub struct FileCipher {
    key: LessSafeKey,
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

impl FileCipher {
    pub fn new(key: &[u8; 32]) -> Self {
        let unbound = UnboundKey::new(&AES_256_GCM, key).expect("a 32-byte key fits AES-256");
        Self {
            key: LessSafeKey::new(unbound),
            rng: SystemRandom::new(),
        }
    }

    /// Starts sealing a new file: returns its encryptor, whose `header` comes first.
    pub fn encryptor(self: Arc<Self>, file_id: &str) -> Result<Encryptor, Undecryptable> {
        let mut header = Vec::with_capacity(HEADER);
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&[VERSION, KEY_ID]);
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
    /// The header's nonce prefix and the associated data, once the header was read.
    opened: Option<([u8; PREFIX], Vec<u8>)>,
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
            if self.pending.len() < HEADER {
                return Ok(plain);
            }
            self.read_header()?;
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
        if self.pending.len() < HEADER || &self.pending[..MAGIC.len()] != MAGIC {
            return Err(Undecryptable);
        }
        let rest = self.pending.split_off(HEADER);
        let header = std::mem::replace(&mut self.pending, rest);
        if header[4] != VERSION || header[5] != KEY_ID {
            return Err(Undecryptable);
        }
        let mut prefix = [0u8; PREFIX];
        prefix.copy_from_slice(&header[6..]);
        self.opened = Some((prefix, aad(&self.file_id, &header)));
        Ok(())
    }

    fn open_segment(&mut self, mut segment: Vec<u8>, last: bool) -> Result<Vec<u8>, Undecryptable> {
        let (prefix, aad) = self.opened.as_ref().ok_or(Undecryptable)?;
        if segment.len() < TAG {
            return Err(Undecryptable);
        }
        let len = self
            .cipher
            .key
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
            .key
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
        let cipher = Arc::new(FileCipher::new(&[3; 32]));
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
        let cipher = Arc::new(FileCipher::new(&[3; 32]));
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
        let cipher = Arc::new(FileCipher::new(&[3; 32]));
        let plain = b"MARKER-0123456789 passport scan".repeat(10);
        let sealed = seal(&cipher, "F1", &plain, 7);
        assert!(!sealed.windows(17).any(|w| w == b"MARKER-0123456789"));
        assert!(cipher.decrypt("F2", &sealed).is_err(), "other id");
        assert!(
            Arc::new(FileCipher::new(&[4; 32]))
                .decrypt("F1", &sealed)
                .is_err(),
            "other key"
        );
    }

    #[test]
    fn truncated_reordered_or_altered_files_do_not_open() {
        let cipher = Arc::new(FileCipher::new(&[3; 32]));
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
}
