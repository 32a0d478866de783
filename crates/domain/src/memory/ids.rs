//! Ids and secrets in memory: sequential, so that tests can name them.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::ports::{IdGenerator, SecretGenerator};

/// Ids `id-0000000001`, `id-0000000002`...: increasing, like ULIDs.
#[derive(Debug, Default)]
pub struct SequentialIds(AtomicU64);

impl IdGenerator for SequentialIds {
    fn next_id(&self) -> String {
        format!("id-{:010}", self.0.fetch_add(1, Ordering::SeqCst) + 1)
    }
}

impl SecretGenerator for SequentialIds {
    fn base62(&self, len: usize) -> String {
        format!("{:0len$}", self.0.fetch_add(1, Ordering::SeqCst) + 1)
    }

    fn url_token(&self, bytes: usize) -> String {
        format!("tok{:0bytes$}", self.0.fetch_add(1, Ordering::SeqCst) + 1)
    }
}
