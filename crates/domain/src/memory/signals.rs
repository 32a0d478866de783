//! What is kept of profiles' images, in memory.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use super::MemoryProfiles;
use crate::merchant::MerchantId;
use crate::ports::{SignalStore, StoreResult};
use crate::profile::ProfileId;
use crate::signals::{Kept, Signal};

/// Signals in memory; whether a profile is there (not deleted, not erased) is
/// `profiles`' to say, so a profile's signals go with it.
#[derive(Debug)]
pub struct MemorySignals {
    profiles: Arc<MemoryProfiles>,
    kept: Mutex<Vec<(MerchantId, Kept)>>,
}

impl MemorySignals {
    /// Signals of `profiles`' profiles.
    pub fn new(profiles: Arc<MemoryProfiles>) -> Self {
        Self {
            profiles,
            kept: Mutex::default(),
        }
    }
}

#[async_trait]
impl SignalStore for MemorySignals {
    async fn keep(
        &self,
        merchant: &MerchantId,
        profile: &ProfileId,
        signals: &[Signal],
    ) -> StoreResult<()> {
        if !self.profiles.holds(merchant, profile) {
            return Ok(());
        }
        let mut kept = self.kept.lock().expect("lock");
        kept.retain(|(m, k)| !(m == merchant && k.profile_id == *profile && !k.blocked));
        kept.extend(signals.iter().map(|signal| {
            let kept = Kept {
                profile_id: profile.clone(),
                signal: signal.clone(),
                blocked: false,
            };
            (merchant.clone(), kept)
        }));
        Ok(())
    }

    async fn others(&self, merchant: &MerchantId, profile: &ProfileId) -> StoreResult<Vec<Kept>> {
        let kept = self.kept.lock().expect("lock");
        Ok(kept
            .iter()
            .filter(|(m, k)| m == merchant && (k.profile_id != *profile || k.blocked))
            .filter(|(m, k)| self.profiles.holds(m, &k.profile_id))
            .map(|(_, k)| k.clone())
            .collect())
    }

    async fn block_faces(&self, merchant: &MerchantId, profile: &ProfileId) -> StoreResult<u64> {
        let mut kept = self.kept.lock().expect("lock");
        let mut blocked = 0;
        for (_, k) in kept.iter_mut().filter(|(m, k)| {
            m == merchant && k.profile_id == *profile && matches!(k.signal, Signal::Face(_))
        }) {
            k.blocked = true;
            blocked += 1;
        }
        Ok(blocked)
    }
}
