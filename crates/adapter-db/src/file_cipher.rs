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

    /// Opens a whole sealed file.
    pub fn decrypt(&self, file_id: &str, sealed: &[u8]) -> Result<Vec<u8>, Undecryptable> {
        if sealed.len() < HEADER + TAG || &sealed[..MAGIC.len()] != MAGIC {
            return Err(Undecryptable);
        }
        let (header, body) = sealed.split_at(HEADER);
        if header[4] != VERSION || header[5] != KEY_ID {
            return Err(Undecryptable);
        }
        let prefix = &header[6..];
        let aad = aad(file_id, header);
        let segments: Vec<&[u8]> = body.chunks(CHUNK + TAG).collect();
        let mut plain = Vec::with_capacity(body.len());
        for (index, segment) in segments.iter().enumerate() {
            let last = index + 1 == segments.len();
            let index = u32::try_from(index).map_err(|_| Undecryptable)?;
            let mut buffer = segment.to_vec();
            let opened = self
                .key
                .open_in_place(nonce(prefix, index, last), Aad::from(&aad), &mut buffer)
                .map_err(|_| Undecryptable)?;
            plain.extend_from_slice(opened);
        }
        Ok(plain)
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
    fn the_bytes_are_not_in_clear_and_open_only_under_their_id_and_key() {
        let cipher = Arc::new(FileCipher::new(&[3; 32]));
        let plain = b"MARKER-0123456789 passport scan".repeat(10);
        let sealed = seal(&cipher, "F1", &plain, 7);
        assert!(!sealed.windows(17).any(|w| w == b"MARKER-0123456789"));
        assert!(cipher.decrypt("F2", &sealed).is_err(), "other id");
        assert!(
            FileCipher::new(&[4; 32]).decrypt("F1", &sealed).is_err(),
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
