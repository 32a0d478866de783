//! Dashboard passwords hashed with Argon2id (the `argon2` crate's defaults: 19 MiB,
//! 2 passes, OWASP's recommendation), on a blocking thread: a hash takes tens of
//! milliseconds on purpose, and 19 MiB each. At most two run per core at a time, and
//! never more than [`MOST_AT_ONCE`] (contract §16); past that a check is refused at once
//! (`Busy`, answered 503), so a burst of sign-ins can neither queue unbounded work nor
//! take the memory of the machine.
//!
//! Each hash works in one of a small fixed pool of 19 MiB memories, reused, rather than
//! in memory allocated for it: freed, those allocations stayed in the allocator's
//! per-thread heaps, and 30 s of sign-ins from 1000 addresses left the server holding
//! 2.3 GB (issue 47). The pool holds at most as many memories as hashes may run at once.
//!
//! One of the rooms is kept for the browsers users signed in from before
//! ([`HashLane::KnownDevice`]): a flood of sign-ins fills the others and is refused past
//! them, while a known user's check takes the kept room, or waits a moment for it.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use argon2::password_hash::{Output, ParamsString, PasswordHash as Phc, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use async_trait::async_trait;
use domain::ports::{HashLane, PasswordHasher, StoreError, StoreResult};
use domain::user::{Password, PasswordHash};
use ring::rand::{SecureRandom, SystemRandom};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Hashes that may run at once, per core.
const PER_CORE: usize = 2;
/// Hashes that may run at once, whatever the cores: each holds a 19 MiB memory for good.
const MOST_AT_ONCE: usize = 4;
/// Random bytes of a new hash's salt (the crate's recommendation).
const SALT_BYTES: usize = 16;
/// Rooms kept for known devices' checks, among the rooms in all.
const KNOWN_DEVICE_ROOMS: usize = 1;
/// How long a known device's check waits for a room when every room is taken: the kept
/// room is only ever taken by another known user's check, which ends within this.
const KNOWN_DEVICE_WAIT: Duration = Duration::from_secs(2);

/// The memories hashes work in, each used by one hash at a time.
type Memories = Arc<Mutex<Vec<Box<[Block]>>>>;

#[derive(Debug, Clone)]
pub struct Argon2id {
    /// The rooms every check shares.
    shared: Arc<Semaphore>,
    /// The rooms kept for known devices.
    kept: Arc<Semaphore>,
    memories: Memories,
}

impl Default for Argon2id {
    /// Two hashes per core this process may run on, at most [`MOST_AT_ONCE`].
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Self::with_room_for((PER_CORE * cores).min(MOST_AT_ONCE))
    }
}

impl Argon2id {
    /// A hasher that runs at most `hashes` at once, [`KNOWN_DEVICE_ROOMS`] of them kept
    /// for known devices (and at least one room shared).
    pub fn with_room_for(hashes: usize) -> Self {
        Self {
            shared: Arc::new(Semaphore::new(
                hashes.saturating_sub(KNOWN_DEVICE_ROOMS).max(1),
            )),
            kept: Arc::new(Semaphore::new(KNOWN_DEVICE_ROOMS)),
            memories: Arc::default(),
        }
    }

    /// Room for one more hash in `lane`, or `Busy`: a shared check is refused at once
    /// when the shared rooms are taken; a known device's takes a kept room, else a shared
    /// one, else waits [`KNOWN_DEVICE_WAIT`] for a kept one.
    async fn room(&self, lane: HashLane) -> StoreResult<OwnedSemaphorePermit> {
        let shared = || self.shared.clone().try_acquire_owned();
        match lane {
            HashLane::Shared => shared().map_err(|_| StoreError::Busy),
            HashLane::KnownDevice => {
                if let Ok(room) = self.kept.clone().try_acquire_owned().or_else(|_| shared()) {
                    return Ok(room);
                }
                tokio::time::timeout(KNOWN_DEVICE_WAIT, self.kept.clone().acquire_owned())
                    .await
                    .ok()
                    .and_then(Result::ok)
                    .ok_or(StoreError::Busy)
            }
        }
    }

    /// Runs `work` on a blocking thread with room in `lane` and a memory of the pool,
    /// given back after.
    async fn run<T: Send + 'static>(
        &self,
        lane: HashLane,
        work: impl FnOnce(&mut Vec<Block>) -> T + Send + 'static,
    ) -> StoreResult<T> {
        let room = self.room(lane).await?;
        let memories = self.memories.clone();
        tokio::task::spawn_blocking(move || {
            let _room = room;
            // As many memories as rooms: one is free, or none was made yet for this room.
            let taken = memories.lock().unwrap_or_else(|p| p.into_inner()).pop();
            let mut memory = taken.map(Vec::from).unwrap_or_default();
            let done = work(&mut memory);
            memories
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(memory.into_boxed_slice());
            done
        })
        .await
        .map_err(|e| StoreError::Internal(anyhow::Error::new(e).context("hashing task").into()))
    }
}

/// The output of `argon2` for `password` and `salt` in `memory`, grown to what its
/// parameters need (once per memory: the parameters are the crate's defaults).
fn digest(
    argon2: &Argon2<'_>,
    params: &Params,
    password: &[u8],
    salt: &[u8],
    length: usize,
    memory: &mut Vec<Block>,
) -> Result<Output, String> {
    if memory.len() < params.block_count() {
        memory.resize(params.block_count(), Block::default());
    }
    let mut out = vec![0u8; length];
    argon2
        .hash_password_into_with_memory(password, salt, &mut out, &mut memory[..])
        .map_err(|e| e.to_string())?;
    Output::new(&out).map_err(|e| e.to_string())
}

/// A new salted Argon2id hash of `password`, in PHC form.
fn hash_in(password: &[u8], memory: &mut Vec<Block>) -> Result<String, String> {
    let mut salt = [0u8; SALT_BYTES];
    SystemRandom::new()
        .fill(&mut salt)
        .map_err(|_| "no random source".to_owned())?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    let params = Params::default();
    let argon2 = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let length = params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
    let mut raw = [0u8; 64];
    let raw = salt.decode_b64(&mut raw).map_err(|e| e.to_string())?;
    let hash = digest(&argon2, &params, password, raw, length, memory)?;
    let phc = Phc {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(|e| e.to_string())?,
        salt: Some(salt.as_salt()),
        hash: Some(hash),
    };
    Ok(phc.to_string())
}

/// Whether `password` is the one `stored` (a PHC string) was made of, compared in
/// constant time.
fn verify_in(password: &[u8], stored: &str, memory: &mut Vec<Block>) -> bool {
    checked(password, stored, memory).unwrap_or(false)
}

/// [`verify_in`], saying why a stored hash could not be checked.
fn checked(password: &[u8], stored: &str, memory: &mut Vec<Block>) -> Result<bool, String> {
    let phc = Phc::new(stored).map_err(|e| e.to_string())?;
    let (Some(salt), Some(expected)) = (phc.salt, phc.hash) else {
        return Ok(false);
    };
    let algorithm = Algorithm::try_from(phc.algorithm).map_err(|e| e.to_string())?;
    let version = phc
        .version
        .map(Version::try_from)
        .transpose()
        .map_err(|e| e.to_string())?
        .unwrap_or_default();
    let params = Params::try_from(&phc).map_err(|e| e.to_string())?;
    let argon2 = Argon2::new(algorithm, version, params.clone());
    let mut raw = [0u8; 64];
    let raw = salt.decode_b64(&mut raw).map_err(|e| e.to_string())?;
    let hash = digest(&argon2, &params, password, raw, expected.len(), memory)?;
    Ok(hash == expected)
}

#[async_trait]
impl PasswordHasher for Argon2id {
    async fn hash(&self, password: &Password) -> StoreResult<PasswordHash> {
        let password = password.clone();
        let hashed = self
            .run(HashLane::Shared, move |memory| {
                hash_in(password.expose().as_bytes(), memory)
            })
            .await?;
        hashed
            .map(PasswordHash::new)
            .map_err(|e| StoreError::Internal(format!("password hashing: {e}").into()))
    }

    async fn verify(
        &self,
        password: &Password,
        hash: &PasswordHash,
        lane: HashLane,
    ) -> StoreResult<bool> {
        let (password, hash) = (password.clone(), hash.clone());
        self.run(lane, move |memory| {
            verify_in(password.expose().as_bytes(), hash.as_str(), memory)
        })
        .await
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
        assert!(verified(
            hasher.verify(&password, &hash, HashLane::Shared).await
        ));
        let other = Password::parse("incorrect horse battery").expect("valid");
        assert!(!verified(
            hasher.verify(&other, &hash, HashLane::Shared).await
        ));
        let again = hasher.hash(&password).await.expect("hashed");
        assert_ne!(again, hash, "a new salt each time");
        assert!(!verified(
            hasher
                .verify(&password, &PasswordHash::new("garbage"), HashLane::Shared)
                .await
        ));
    }

    #[tokio::test]
    async fn hashes_made_by_the_crates_own_hasher_still_check() {
        use argon2::PasswordHasher as _;
        // As hashes were made before the pool: by the crate, in memory of its own.
        let salt = SaltString::encode_b64(b"sixteen bytes!!!").expect("salt");
        let made = Argon2::default()
            .hash_password(b"correct horse battery", &salt)
            .expect("hashed")
            .to_string();
        let hasher = Argon2id::default();
        let made = PasswordHash::new(made);
        let right = Password::parse("correct horse battery").expect("valid");
        let wrong = Password::parse("correct horse battery!").expect("valid");
        assert!(verified(
            hasher.verify(&right, &made, HashLane::Shared).await
        ));
        assert!(!verified(
            hasher.verify(&wrong, &made, HashLane::Shared).await
        ));
        // And the pool's hashes are the crate's: it checks them too.
        let ours = hasher.hash(&right).await.expect("hashed");
        let phc = Phc::new(ours.as_str()).expect("PHC");
        use argon2::PasswordVerifier as _;
        assert!(
            Argon2::default()
                .verify_password(b"correct horse battery", &phc)
                .is_ok()
        );
    }

    #[tokio::test]
    async fn the_pool_never_holds_more_memories_than_hashes_may_run() {
        // One shared room and one kept for known devices.
        let hasher = Argon2id::with_room_for(2);
        let password = Password::parse("correct horse battery").expect("valid");
        let hash = hasher.hash(&password).await.expect("hashed");
        let checks: Vec<_> = (0..8)
            .map(|n| {
                let (hasher, password, hash) = (hasher.clone(), password.clone(), hash.clone());
                let lane = [HashLane::Shared, HashLane::KnownDevice][n % 2];
                tokio::spawn(async move { hasher.verify(&password, &hash, lane).await })
            })
            .collect();
        for check in checks {
            let _ = check.await.expect("ran");
        }
        let memories = hasher.memories.lock().expect("lock");
        assert!((1..=2).contains(&memories.len()), "{}", memories.len());
        let blocks = Params::default().block_count();
        assert!(memories.iter().all(|m| m.len() == blocks));
    }

    #[tokio::test]
    async fn past_the_shared_rooms_a_check_is_refused_at_once_but_a_known_device_checks() {
        let hasher = Argon2id::with_room_for(2);
        let password = Password::parse("correct horse battery").expect("valid");
        let hash = hasher.hash(&password).await.expect("hashed");
        let shared = hasher
            .room(HashLane::Shared)
            .await
            .expect("the shared room");
        assert!(matches!(
            hasher.verify(&password, &hash, HashLane::Shared).await,
            Err(StoreError::Busy)
        ));
        assert!(matches!(
            hasher.hash(&password).await,
            Err(StoreError::Busy)
        ));
        // The flood has the shared room; a known device's check takes the kept one.
        assert!(verified(
            hasher.verify(&password, &hash, HashLane::KnownDevice).await
        ));
        // With the kept room taken too, a known device's check waits, then gives up...
        let kept = hasher.room(HashLane::KnownDevice).await.expect("kept room");
        assert!(matches!(
            hasher.verify(&password, &hash, HashLane::KnownDevice).await,
            Err(StoreError::Busy)
        ));
        // ...or gets the kept room as it comes free.
        let waiting = {
            let (hasher, password, hash) = (hasher.clone(), password.clone(), hash.clone());
            tokio::spawn(
                async move { hasher.verify(&password, &hash, HashLane::KnownDevice).await },
            )
        };
        tokio::task::yield_now().await;
        drop(kept);
        assert!(verified(waiting.await.expect("ran")));
        drop(shared);
        assert!(verified(
            hasher.verify(&password, &hash, HashLane::Shared).await
        ));
    }
}
