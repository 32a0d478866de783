//! The blind index of identity values, in memory.

use std::sync::Mutex;

use async_trait::async_trait;

use crate::merchant::MerchantId;
use crate::ports::{IdentityIndex, StoreResult};
use crate::profile::ProfileId;
use crate::verification::IdentityKind;

/// The blind index in memory: the values themselves, since nothing here is kept.
#[derive(Debug, Default)]
pub struct MemoryIdentityIndex(Mutex<Vec<(MerchantId, ProfileId, IdentityKind, String)>>);

#[async_trait]
impl IdentityIndex for MemoryIdentityIndex {
    async fn note(
        &self,
        merchant: &MerchantId,
        profile: &ProfileId,
        kind: IdentityKind,
        value: &str,
    ) -> StoreResult<u64> {
        let mut all = self.0.lock().expect("lock");
        let same = |m: &MerchantId, k: &IdentityKind, v: &String| {
            m == merchant && *k == kind && v == value
        };
        if !all.iter().any(|(m, p, k, v)| same(m, k, v) && p == profile) {
            all.push((merchant.clone(), profile.clone(), kind, value.to_owned()));
        }
        let others = all
            .iter()
            .filter(|(m, p, k, v)| same(m, k, v) && p != profile)
            .count();
        Ok(u64::try_from(others).unwrap_or(u64::MAX))
    }
}
