//! The real clock and randomness behind the domain's ports, and the process's limits.

use std::sync::Mutex;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use domain::OffsetDateTime;
use domain::ports::{Clock, IdGenerator, SecretGenerator};
use ring::rand::{SecureRandom, SystemRandom};

#[derive(Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    /// Whole seconds: what the API shows and the database keeps, so an object reads
    /// back exactly as it was answered.
    fn now(&self) -> OffsetDateTime {
        let now = OffsetDateTime::now_utc();
        now.replace_nanosecond(0).unwrap_or(now)
    }
}

/// ULIDs, strictly increasing within the process so that ordering by id follows the
/// order of creation even within one millisecond.
#[derive(Default)]
pub struct UlidIds(Mutex<ulid::Generator>);

impl std::fmt::Debug for UlidIds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UlidIds")
    }
}

impl IdGenerator for UlidIds {
    fn next_id(&self) -> String {
        let mut generator = self.0.lock().unwrap_or_else(|p| p.into_inner());
        // Overflow needs 2^80 ids in one millisecond; fall back to a fresh ULID.
        generator
            .generate()
            .unwrap_or_else(|_| ulid::Ulid::new())
            .to_string()
    }
}

#[derive(Debug)]
pub struct RandomSecrets(SystemRandom);

impl Default for RandomSecrets {
    fn default() -> Self {
        Self(SystemRandom::new())
    }
}

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

impl SecretGenerator for RandomSecrets {
    fn base62(&self, len: usize) -> String {
        let mut out = String::with_capacity(len);
        let mut buffer = [0u8; 64];
        while out.len() < len {
            self.0
                .fill(&mut buffer)
                .expect("the system's random source is available");
            // Bytes from 248 up are dropped so that every character is equally likely.
            for &byte in buffer.iter().filter(|&&b| b < 248) {
                if out.len() == len {
                    break;
                }
                out.push(BASE62[usize::from(byte % 62)] as char);
            }
        }
        out
    }

    fn url_token(&self, bytes: usize) -> String {
        let mut buffer = vec![0u8; bytes];
        self.0
            .fill(&mut buffer)
            .expect("the system's random source is available");
        URL_SAFE_NO_PAD.encode(buffer)
    }
}

/// Descriptors kept from connections: the database's pool, stored files being written
/// or read, the analysis's children and their pipes, webhook deliveries, listeners.
const DESCRIPTORS_RESERVED: u64 = 256;

/// Raises this process's open-file limit to its hard limit (the usual soft limit, 1024,
/// is far below what a server holding connections needs: 1100 slow connections took
/// every descriptor, and /healthz went unanswered); returns the limit in force, `None`
/// when there is none.
pub fn raise_open_files_limit() -> Option<u64> {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let Some(hard) = limit.maximum else {
        return limit.current;
    };
    let raised = Rlimit {
        current: Some(hard),
        maximum: Some(hard),
    };
    match setrlimit(Resource::Nofile, raised) {
        Ok(()) => Some(hard),
        Err(error) => {
            tracing::warn!(%error, "the open-file limit could not be raised");
            limit.current
        }
    }
}

/// The connections a server with `open_files` descriptors may hold at once: all but
/// the reserve, or half of a limit too small for it; no bound without a limit.
pub fn connections_for(open_files: Option<u64>) -> usize {
    let Some(files) = open_files else {
        return 0;
    };
    let connections = if files > 2 * DESCRIPTORS_RESERVED {
        files - DESCRIPTORS_RESERVED
    } else {
        files / 2
    };
    usize::try_from(connections).unwrap_or(usize::MAX).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_leave_the_reserve_or_half_of_a_small_limit() {
        assert_eq!(connections_for(Some(1024)), 768);
        assert_eq!(connections_for(Some(65536)), 65280);
        assert_eq!(connections_for(Some(256)), 128);
        assert_eq!(connections_for(Some(1)), 1);
        assert_eq!(connections_for(None), 0, "no limit, no bound");
    }

    #[test]
    fn secrets_are_base62_of_the_asked_length_and_differ() {
        let secrets = RandomSecrets::default();
        let a = secrets.base62(32);
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|b| b.is_ascii_alphanumeric()));
        assert_ne!(a, secrets.base62(32));
    }

    #[test]
    fn url_tokens_carry_the_asked_randomness() {
        let token = RandomSecrets::default().url_token(32);
        assert_eq!(token.len(), 43, "32 bytes in unpadded base64url");
        assert!(
            token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
    }

    #[test]
    fn ids_increase() {
        let ids = UlidIds::default();
        let (a, b) = (ids.next_id(), ids.next_id());
        assert!(b > a);
    }

    #[test]
    fn the_clock_has_whole_seconds() {
        assert_eq!(SystemClock.now().nanosecond(), 0);
    }
}
