//! The lists and screenings in memory.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use time::OffsetDateTime;

use super::MemoryProfiles;
use crate::merchant::MerchantId;
use crate::ports::{Saved, ScreeningStore, ScreeningWrite, StoreResult};
use crate::profile::ProfileId;
use crate::watchlist::{ListImport, ListName, ListVersion, Screening};

/// Lists, screenings and the re-screening's lease in memory; profiles (whether one
/// exists, or was erased) and events are `profiles`'.
#[derive(Debug)]
pub struct MemoryScreening {
    profiles: Arc<MemoryProfiles>,
    lists: Mutex<Vec<ListImport>>,
    screenings: Mutex<Vec<Screening>>,
    lease: Mutex<Option<(String, OffsetDateTime)>>,
}

impl MemoryScreening {
    /// Screenings of `profiles`' profiles.
    pub fn new(profiles: Arc<MemoryProfiles>) -> Self {
        Self {
            profiles,
            lists: Mutex::default(),
            screenings: Mutex::default(),
            lease: Mutex::default(),
        }
    }
}

#[async_trait]
impl ScreeningStore for MemoryScreening {
    async fn import(&self, import: &ListImport) -> StoreResult<bool> {
        let mut lists = self.lists.lock().expect("lock");
        let name = &import.version.name;
        if let Some(held) = lists.iter_mut().find(|l| l.version.name == *name) {
            if held.version.version == import.version.version {
                return Ok(false);
            }
            *held = import.clone();
        } else {
            lists.push(import.clone());
        }
        Ok(true)
    }

    async fn lists(&self) -> StoreResult<Vec<ListVersion>> {
        let mut versions: Vec<ListVersion> = self
            .lists
            .lock()
            .expect("lock")
            .iter()
            .map(|l| l.version.clone())
            .collect();
        versions.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(versions)
    }

    async fn entries(&self, list: &ListName) -> StoreResult<Vec<screening::Entry>> {
        Ok(self
            .lists
            .lock()
            .expect("lock")
            .iter()
            .find(|l| l.version.name == *list)
            .map(|l| l.entries.clone())
            .unwrap_or_default())
    }

    async fn screening(
        &self,
        merchant: &MerchantId,
        profile: &ProfileId,
    ) -> StoreResult<Option<Screening>> {
        if !self.profiles.holds(merchant, profile) {
            // Deleted or erased: its screening went with it.
            return Ok(None);
        }
        Ok(self
            .screenings
            .lock()
            .expect("lock")
            .iter()
            .find(|s| s.profile_id == *profile)
            .cloned())
    }

    async fn save(&self, writes: &[ScreeningWrite]) -> StoreResult<Vec<Saved>> {
        let mut screenings = self.screenings.lock().expect("lock");
        Ok(writes
            .iter()
            .map(|write| {
                let screening = &write.screening;
                if !self
                    .profiles
                    .holds(&screening.merchant_id, &screening.profile_id)
                {
                    return Saved::ProfileGone;
                }
                let latest = screenings
                    .iter()
                    .position(|s| s.profile_id == screening.profile_id);
                if latest.map(|i| &screenings[i]) != write.replacing.as_ref() {
                    return Saved::Superseded;
                }
                if let Some(i) = latest {
                    screenings.remove(i);
                }
                screenings.push(screening.clone());
                for entry in &write.entries {
                    self.profiles.record(entry);
                }
                Saved::Stored
            })
            .collect())
    }

    async fn due(
        &self,
        merchant: &MerchantId,
        lists: &str,
        before: OffsetDateTime,
        limit: usize,
    ) -> StoreResult<Vec<ProfileId>> {
        let screenings = self.screenings.lock().expect("lock");
        let profiles = self.profiles.profiles.lock().expect("lock");
        Ok(profiles
            .iter()
            .filter(|p| p.merchant_id == *merchant && p.erased_at.is_none())
            .filter(|p| {
                screenings
                    .iter()
                    .find(|s| s.profile_id == p.id)
                    .is_none_or(|s| {
                        Screening::lists_key(&s.lists) != lists || s.screened_at < before
                    })
            })
            .take(limit)
            .map(|p| p.id.clone())
            .collect())
    }

    async fn lease(
        &self,
        holder: &str,
        now: OffsetDateTime,
        until: OffsetDateTime,
    ) -> StoreResult<bool> {
        let mut lease = self.lease.lock().expect("lock");
        let free = lease
            .as_ref()
            .is_none_or(|(h, lapses)| h == holder || *lapses < now);
        if free {
            *lease = Some((holder.to_owned(), until));
        }
        Ok(free)
    }
}
