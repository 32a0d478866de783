//! Screening clients against lists (contract §19): imports, a profile screened when it
//! is created or renamed, at each verification, after an import changes a list and
//! daily; what a reviewer decides of each match.
//!
//! Each list's entries are indexed in memory once per version (the `screening` crate's
//! [`Index`]); the versions in force are read from storage, so that an import on one
//! instance reaches every other.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use screening::{Index, Subject};
use time::{Date, Duration};

use super::find_profile;
use crate::error::{DomainError, Resource};
use crate::event::Activity;
use crate::merchant::{MerchantId, MerchantSettings};
use crate::outbox::Outbox;
use crate::ports::{
    Clock, MerchantRepository, ProfileRepository, Saved, ScreeningStore, ScreeningWrite, StoreError,
};
use crate::profile::{Profile, ProfileKey};
use crate::watchlist::{
    Disposition, ListHit, ListImport, ListName, ListVersion, Match, Screened, Screening,
    ScreeningSettings, merge,
};

/// How old a screening may grow before it is made again: daily (contract §19).
pub const RESCREEN_AFTER: Duration = Duration::days(1);
/// Profiles re-screened per batch, per merchant: a batch is short, so that a merchant
/// with many profiles never holds the others' for long.
const BATCH: usize = 200;
/// How many times a screening or a decision is merged again with a latest screening
/// stored meanwhile before the call gives up.
const SAVE_TRIES: usize = 3;

/// The ports screening works over.
#[derive(Clone)]
pub struct ScreeningPorts {
    /// The lists and the screenings.
    pub store: Arc<dyn ScreeningStore>,
    /// Merchants (their settings).
    pub merchants: Arc<dyn MerchantRepository>,
    /// Profiles.
    pub profiles: Arc<dyn ProfileRepository>,
    /// The clock.
    pub clock: Arc<dyn Clock>,
    /// Makes the events, with their ids, and where they go.
    pub outbox: Outbox,
}

debug_as_name!(ScreeningPorts);

/// The lists in force, each indexed once per version.
#[derive(Default)]
struct Indexes {
    versions: Vec<ListVersion>,
    by_list: HashMap<ListName, (String, Arc<Index>)>,
}

/// Screening: imports, screenings, dispositions, re-screening.
#[derive(Clone)]
pub struct ScreeningService {
    ports: ScreeningPorts,
    indexes: Arc<RwLock<Indexes>>,
}

debug_as_name!(ScreeningService);

/// One reviewer's decision on a match.
#[derive(Debug, Clone)]
pub struct DispositionInput {
    /// The list.
    pub list: ListName,
    /// The entry's id in it.
    pub entry_id: String,
    /// The decision.
    pub disposition: Disposition,
    /// Why, in the reviewer's words.
    pub note: Option<String>,
}

impl ScreeningService {
    /// The service over its ports.
    pub fn new(ports: ScreeningPorts) -> Self {
        Self {
            ports,
            indexes: Arc::default(),
        }
    }

    /// Puts an imported list in force; `false` when that very version already was.
    /// `NotFound(Merchant)` when it is to belong to a merchant that does not exist.
    pub async fn import(&self, import: &ListImport) -> Result<bool, DomainError> {
        if let Some(merchant) = &import.version.merchant_id {
            self.settings(merchant).await?;
        }
        Ok(self.ports.store.import(import).await?)
    }

    /// The versions in force.
    pub async fn lists(&self) -> Result<Vec<ListVersion>, DomainError> {
        Ok(self.ports.store.lists().await?)
    }

    /// Reads the versions in force and indexes the lists that changed since; answers
    /// the versions.
    pub async fn refresh(&self) -> Result<Vec<ListVersion>, DomainError> {
        let versions = self.ports.store.lists().await?;
        let stale: Vec<&ListVersion> = {
            let known = self.indexes.read().unwrap_or_else(|p| p.into_inner());
            versions
                .iter()
                .filter(|v| {
                    known
                        .by_list
                        .get(&v.name)
                        .is_none_or(|(k, _)| *k != v.version)
                })
                .collect()
        };
        let mut built = Vec::new();
        for version in stale {
            let entries = self.ports.store.entries(&version.name).await?;
            built.push((version.clone(), Arc::new(Index::new(entries))));
        }
        let mut known = self.indexes.write().unwrap_or_else(|p| p.into_inner());
        for (version, index) in built {
            known
                .by_list
                .insert(version.name.clone(), (version.version.clone(), index));
        }
        known
            .by_list
            .retain(|name, _| versions.iter().any(|v| v.name == *name));
        known.versions = versions.clone();
        Ok(versions)
    }

    /// Screens `profile` under `settings` now against the lists in force (`versions`,
    /// indexed by [`Self::refresh`]) and stores it, a `screening_match` event for each
    /// match newly open. `date_of_birth` is the one the verification knows, else the
    /// profile's.
    async fn screen(
        &self,
        settings: &ScreeningSettings,
        versions: &[ListVersion],
        profile: &Profile,
        date_of_birth: Option<Date>,
    ) -> Result<Screened, DomainError> {
        if !settings.on {
            return Ok(Screened::Off);
        }
        let chosen = chosen(versions, &profile.merchant_id, settings);
        if chosen.is_empty() {
            return Ok(Screened::NoLists);
        }
        let found = self.found(settings, &chosen, profile, date_of_birth);
        // Merged with the latest as read; stored in its place unless another was
        // stored meanwhile (then merged again with that one).
        for _ in 0..SAVE_TRIES {
            let write = self.write(profile, &chosen, found.clone()).await?;
            match self.ports.store.save(std::slice::from_ref(&write)).await?[..] {
                [Saved::Stored] => return Ok(Screened::Done(write.screening)),
                [Saved::ProfileGone] => return Err(DomainError::NotFound(Resource::Profile)),
                _ => {}
            }
        }
        Err(StoreError::Conflict.into())
    }

    /// The matches of `profile` on the `chosen` lists' indexes, scoring at least the
    /// threshold of `settings`.
    fn found(
        &self,
        settings: &ScreeningSettings,
        chosen: &[&ListVersion],
        profile: &Profile,
        date_of_birth: Option<Date>,
    ) -> Vec<Match> {
        let country = profile.attributes.country.as_ref().map(|c| c.as_str());
        let subject = Subject {
            first_name: profile.first_name.as_str(),
            last_name: profile.last_name.as_str(),
            date_of_birth: date_of_birth.or(profile.attributes.date_of_birth.map(|d| d.date())),
            country,
        };
        let known = self.indexes.read().unwrap_or_else(|p| p.into_inner());
        chosen
            .iter()
            .filter_map(|v| Some((*v, known.by_list.get(&v.name)?)))
            .flat_map(|(version, (indexed, index))| {
                index
                    .screen(&subject, settings.threshold.score())
                    .into_iter()
                    .map(|hit| {
                        let listed = ListHit {
                            list: version.name.clone(),
                            list_version: indexed.clone(),
                            entry_id: hit.entry.id.clone(),
                            matched_name: hit.matched_name.to_owned(),
                            score: hit.score,
                            kind: version.kind,
                        };
                        Match::open(listed, hit.entry.digest())
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// `profile`'s screening against `chosen` that `found` these matches, merged with
    /// its latest as stored now (whose decisions it keeps), with a `screening_match`
    /// event for each match newly open.
    async fn write(
        &self,
        profile: &Profile,
        chosen: &[&ListVersion],
        found: Vec<Match>,
    ) -> Result<ScreeningWrite, DomainError> {
        let p = &self.ports;
        let replacing = p.store.screening(&profile.merchant_id, &profile.id).await?;
        let (matches, raised) = merge(replacing.as_ref(), found);
        let now = p.clock.now();
        let screening = Screening {
            merchant_id: profile.merchant_id.clone(),
            profile_id: profile.id.clone(),
            screened_at: now,
            lists: named(chosen),
            matches,
        };
        let events = raised
            .iter()
            .map(|hit| {
                let details = format!(
                    "Potential match on list {} (entry {}, score {})",
                    hit.list, hit.entry_id, hit.score
                );
                p.outbox
                    .event(profile, Activity::ScreeningMatch, details, now)
            })
            .collect();
        Ok(ScreeningWrite {
            screening,
            replacing,
            entries: p.outbox.entries(events).await?,
        })
    }

    /// The `watchlist` check's screening at a verification (each verification screens
    /// again).
    pub async fn for_verification(
        &self,
        settings: &MerchantSettings,
        profile: &Profile,
        date_of_birth: Option<Date>,
    ) -> Result<Screened, DomainError> {
        if !settings.screening.on {
            return Ok(Screened::Off);
        }
        let versions = self.refresh().await?;
        self.screen(&settings.screening, &versions, profile, date_of_birth)
            .await
    }

    /// Screens a profile just created or renamed, when its merchant screens. Costs
    /// nothing while no list was ever seen in force on this instance (the default): the
    /// re-screening loop then finds the profile unscreened.
    pub async fn after_change(&self, profile: &Profile) -> Result<(), DomainError> {
        let none = self
            .indexes
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .versions
            .is_empty();
        if none {
            return Ok(());
        }
        let settings = self.settings(&profile.merchant_id).await?;
        let versions = self.refresh().await?;
        self.screen(&settings, &versions, profile, None)
            .await
            .map(|_| ())
    }

    async fn settings(&self, merchant: &MerchantId) -> Result<ScreeningSettings, DomainError> {
        Ok(self
            .ports
            .merchants
            .find(merchant)
            .await?
            .ok_or(DomainError::NotFound(Resource::Merchant))?
            .settings
            .screening)
    }

    /// The profile's latest screening, made again first when a list it was screened
    /// against changed since (or it never was, while its merchant screens):
    /// `NotFound(Screening)` when it never was and its merchant does not screen.
    pub async fn get(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
    ) -> Result<Screening, DomainError> {
        let p = &self.ports;
        let profile = find_profile(p.profiles.as_ref(), merchant, key).await?;
        let settings = self.settings(merchant).await?;
        let latest = p.store.screening(merchant, &profile.id).await?;
        if settings.on && profile.erased_at.is_none() {
            let versions = self.refresh().await?;
            let current = lists_key(&chosen(&versions, merchant, &settings));
            if latest
                .as_ref()
                .is_none_or(|s| Screening::lists_key(&s.lists) != current)
                && let Screened::Done(screening) =
                    self.screen(&settings, &versions, &profile, None).await?
            {
                return Ok(screening);
            }
        }
        latest.ok_or(DomainError::NotFound(Resource::Screening))
    }

    /// The profile's latest screening as stored (for the reviewer's page).
    pub async fn latest(
        &self,
        merchant: &MerchantId,
        profile: &crate::profile::ProfileId,
    ) -> Result<Option<Screening>, DomainError> {
        Ok(self.ports.store.screening(merchant, profile).await?)
    }

    /// Records a reviewer's decision on one of the profile's matches:
    /// `NotFound(Screening)` when it was never screened, `NotFound(ScreeningMatch)` when
    /// its latest screening holds no such match.
    pub async fn dispose(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
        input: DispositionInput,
    ) -> Result<Screening, DomainError> {
        let p = &self.ports;
        let profile = find_profile(p.profiles.as_ref(), merchant, key).await?;
        // Decided on the latest as read; again on the one stored meanwhile, if any.
        for _ in 0..SAVE_TRIES {
            let replacing = p
                .store
                .screening(merchant, &profile.id)
                .await?
                .ok_or(DomainError::NotFound(Resource::Screening))?;
            let mut screening = replacing.clone();
            let decided = screening
                .matches
                .iter_mut()
                .find(|m| m.is(&input.list, &input.entry_id))
                .ok_or(DomainError::NotFound(Resource::ScreeningMatch))?;
            decided.disposition = input.disposition;
            decided.note.clone_from(&input.note);
            let write = ScreeningWrite {
                screening,
                replacing: Some(replacing),
                entries: Vec::new(),
            };
            match p.store.save(std::slice::from_ref(&write)).await?[..] {
                [Saved::Stored] => return Ok(write.screening),
                [Saved::ProfileGone] => return Err(DomainError::NotFound(Resource::Profile)),
                _ => {}
            }
        }
        Err(StoreError::Conflict.into())
    }

    /// One round of re-screening, when `holder` holds the lease: for each merchant that
    /// screens, up to a batch of its profiles never screened, screened against other
    /// versions of its lists, or longer ago than [`RESCREEN_AFTER`]. Answers how many
    /// were screened (`None`: another instance holds the lease).
    pub async fn rescreen_due(
        &self,
        holder: &str,
        lease: Duration,
    ) -> Result<Option<usize>, DomainError> {
        let p = &self.ports;
        // No list in force (the default): nothing to screen, and no lease written every
        // round.
        let versions = self.refresh().await?;
        if versions.is_empty() {
            return Ok(Some(0));
        }
        let now = p.clock.now();
        if !p.store.lease(holder, now, now + lease).await? {
            return Ok(None);
        }
        let mut screened = 0;
        for merchant in p.merchants.list().await? {
            let settings = &merchant.settings.screening;
            if !settings.on {
                continue;
            }
            let chosen = chosen(&versions, &merchant.id, settings);
            if chosen.is_empty() {
                continue;
            }
            let key = lists_key(&chosen);
            let due = p
                .store
                .due(&merchant.id, &key, now - RESCREEN_AFTER, BATCH)
                .await?;
            let mut writes = Vec::with_capacity(due.len());
            for id in due {
                // Deleted meanwhile: not screened.
                let Some(profile) = p.profiles.find_by_id(&merchant.id, &id).await? else {
                    continue;
                };
                let found = self.found(settings, &chosen, &profile, None);
                writes.push(self.write(&profile, &chosen, found).await?);
            }
            // One transaction for the batch; a profile whose screening changed meanwhile
            // (a reviewer's decision) is still owed, and taken up in the next round.
            let saved = p.store.save(&writes).await?;
            screened += saved.iter().filter(|s| **s == Saved::Stored).count();
        }
        Ok(Some(screened))
    }
}

/// The lists in force (of `versions`) that `merchant` screens against under `settings`.
fn chosen<'a>(
    versions: &'a [ListVersion],
    merchant: &MerchantId,
    settings: &ScreeningSettings,
) -> Vec<&'a ListVersion> {
    versions
        .iter()
        .filter(|v| v.serves(merchant) && settings.chooses(&v.name))
        .collect()
}

/// The lists with the versions screened against, as a screening records them.
fn named(lists: &[&ListVersion]) -> Vec<(ListName, String)> {
    lists
        .iter()
        .map(|v| (v.name.clone(), v.version.clone()))
        .collect()
}

/// [`Screening::lists_key`] of a screening made against `lists`.
fn lists_key(lists: &[&ListVersion]) -> String {
    Screening::lists_key(&named(lists))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Event;
    use crate::memory::{
        FixedClock, MemoryMerchants, MemoryProfiles, MemoryScreening, SequentialIds, outbox,
    };
    use crate::merchant::Merchant;
    use crate::paging::Page;
    use crate::ports::ProfileRepository;
    use crate::profile::{
        AttributesPatch, Email, PhoneNumber, ProfileChanges, ProfileId, ShortText,
    };
    use crate::watchlist::ListKind;
    use futures_executor::block_on;
    use time::OffsetDateTime;

    struct World {
        service: ScreeningService,
        profiles: Arc<MemoryProfiles>,
        store: Arc<MemoryScreening>,
    }

    fn world(screening_on: bool) -> World {
        let profiles = Arc::new(MemoryProfiles::default());
        let merchants = Arc::new(MemoryMerchants::default());
        let mut settings = MerchantSettings::default();
        settings.screening.on = screening_on;
        merchants.insert(Merchant {
            id: MerchantId::new("m1"),
            name: "m1".into(),
            settings,
            created_at: OffsetDateTime::UNIX_EPOCH,
        });
        let ids = Arc::new(SequentialIds::default());
        let store = Arc::new(MemoryScreening::new(profiles.clone()));
        let service = ScreeningService::new(ScreeningPorts {
            store: store.clone(),
            merchants,
            profiles: profiles.clone(),
            clock: Arc::new(FixedClock::default()),
            outbox: outbox(ids),
        });
        World {
            service,
            profiles,
            store,
        }
    }

    fn client(w: &World, id: &str, first: &str, last: &str) -> ProfileId {
        let profile = Profile::create(
            ProfileId::new(id),
            MerchantId::new("m1"),
            ProfileKey {
                email: Email::parse(&format!("{id}@example.com")).expect("valid"),
                mobile: PhoneNumber::parse(&format!("41655501{:02}", id.len())).expect("valid"),
            },
            ProfileChanges {
                first_name: ShortText::parse(first).expect("valid"),
                last_name: ShortText::parse(last).expect("valid"),
                attributes: AttributesPatch::default(),
            },
            FixedClock::default().0,
        )
        .expect("valid");
        let event = Event::about(
            "e".into(),
            &profile,
            Activity::ProfileCreated,
            "",
            profile.created_at,
        );
        block_on(w.profiles.insert(
            &profile,
            &crate::outbox::Entry {
                event,
                deliveries: Vec::new(),
            },
        ))
        .expect("stored");
        profile.id
    }

    fn import(w: &World, version: &str, names: &[&str]) {
        let entries = names
            .iter()
            .enumerate()
            .map(|(i, name)| screening::Entry {
                id: format!("E{i}"),
                names: vec![(*name).to_owned()],
                ..screening::Entry::default()
            })
            .collect::<Vec<_>>();
        let import = ListImport {
            version: ListVersion {
                name: ListName::parse("ofac").expect("name"),
                kind: ListKind::Sanctions,
                merchant_id: None,
                version: version.into(),
                imported_at: FixedClock::default().0,
                entries: entries.len() as u64,
            },
            entries,
        };
        assert!(block_on(w.service.import(&import)).expect("imported"));
    }

    fn matched(w: &World, id: &str) -> Vec<String> {
        block_on(
            w.store
                .screening(&MerchantId::new("m1"), &ProfileId::new(id)),
        )
        .expect("read")
        .expect("screened")
        .matches
        .into_iter()
        .map(|m| m.hit.entry_id)
        .collect()
    }

    #[test]
    fn a_rescreening_round_screens_whom_a_new_version_concerns_once_under_its_lease() {
        let w = world(true);
        client(&w, "ada", "Ada", "Lovelace");
        client(&w, "ivan", "Ivan", "Petrov");
        import(&w, "v1", &["LOVELACE, Ada"]);
        let lease = Duration::minutes(1);
        assert_eq!(
            block_on(w.service.rescreen_due("a", lease)).expect("ran"),
            Some(2)
        );
        assert_eq!(matched(&w, "ada"), ["E0"]);
        assert!(matched(&w, "ivan").is_empty());
        assert_eq!(
            block_on(w.service.rescreen_due("a", lease)).expect("ran"),
            Some(0),
            "nothing is owed until a list changes"
        );
        assert_eq!(
            block_on(w.service.rescreen_due("b", lease)).expect("ran"),
            None,
            "another instance holds the lease"
        );
        import(&w, "v2", &["LOVELACE, Ada", "PETROV, Ivan"]);
        assert_eq!(
            block_on(w.service.rescreen_due("a", lease)).expect("ran"),
            Some(2)
        );
        assert_eq!(matched(&w, "ivan"), ["E1"]);
        let events = block_on(w.profiles.events(&ProfileId::new("ada"), Page::default()))
            .expect("read")
            .items;
        let raised = events
            .iter()
            .filter(|e| e.activity == Activity::ScreeningMatch)
            .count();
        assert_eq!(raised, 1, "a match found again is not raised again");
    }

    #[test]
    fn a_merchant_that_does_not_screen_is_off_and_never_screened() {
        let w = world(false);
        client(&w, "ada", "Ada", "Lovelace");
        import(&w, "v1", &["LOVELACE, Ada"]);
        let lease = Duration::minutes(1);
        assert_eq!(
            block_on(w.service.rescreen_due("a", lease)).expect("ran"),
            Some(0)
        );
        let key = ProfileKey {
            email: Email::parse("ada@example.com").expect("valid"),
            mobile: PhoneNumber::parse("4165550103").expect("valid"),
        };
        let got = block_on(w.service.get(&MerchantId::new("m1"), &key));
        assert!(
            matches!(got, Err(DomainError::NotFound(Resource::Screening))),
            "{got:?}"
        );
    }
}
