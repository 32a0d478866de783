use std::sync::Arc;

use time::OffsetDateTime;

use super::find_profile;
use crate::error::{DomainError, Resource};
use crate::event::{Activity, Actor, Event};
use crate::merchant::MerchantId;
use crate::outbox::Outbox;
use crate::paging::{Page, Paged};
use crate::ports::{Clock, DocumentStore, IdGenerator, ProfileRepository, StoreError};
use crate::profile::{
    Profile, ProfileChanges, ProfileFilter, ProfileId, ProfileKey, ProfileStatus,
};

/// How often a read-modify-write is retried when another writer got there first.
const MAX_ATTEMPTS: usize = 5;

/// The ports a [`ProfileService`] works through.
#[derive(Clone)]
pub struct ProfilePorts {
    /// Profiles.
    pub profiles: Arc<dyn ProfileRepository>,
    /// Where files are kept.
    pub store: Arc<dyn DocumentStore>,
    /// The clock.
    pub clock: Arc<dyn Clock>,
    /// Makes ids.
    pub ids: Arc<dyn IdGenerator>,
    /// Makes the events, with their ids, and where they go.
    pub outbox: Outbox,
}

debug_as_name!(ProfilePorts);

/// The merchant's operations on client profiles.
#[derive(Clone)]
pub struct ProfileService {
    profiles: Arc<dyn ProfileRepository>,
    store: Arc<dyn DocumentStore>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    outbox: Outbox,
}

debug_as_name!(ProfileService);

impl ProfileService {
    /// The service over its ports.
    pub fn new(ports: ProfilePorts) -> Self {
        let ProfilePorts {
            profiles,
            store,
            clock,
            ids,
            outbox,
        } = ports;
        Self {
            profiles,
            store,
            clock,
            ids,
            outbox,
        }
    }

    /// Creates a profile (`ProfileExists` when the e-mail or mobile is taken).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use domain::memory::{FixedClock, MemoryFiles, MemoryProfiles, SequentialIds, outbox};
    /// use domain::DomainError;
    /// use domain::merchant::MerchantId;
    /// use domain::profile::{AttributesPatch, Email, PhoneNumber, ProfileChanges, ProfileKey, ShortText};
    /// use domain::services::{ProfilePorts, ProfileService};
    /// let ids = Arc::new(SequentialIds::default());
    /// let service = ProfileService::new(ProfilePorts {
    ///     profiles: Arc::new(MemoryProfiles::default()),
    ///     store: Arc::new(MemoryFiles::default()),
    ///     clock: Arc::new(FixedClock::default()),
    ///     ids: ids.clone(),
    ///     outbox: outbox(ids),
    /// });
    /// let key = ProfileKey {
    ///     email: Email::parse("ada@example.com").unwrap(),
    ///     mobile: PhoneNumber::parse("4165550123").unwrap(),
    /// };
    /// let changes = || ProfileChanges {
    ///     first_name: ShortText::parse("Ada").unwrap(),
    ///     last_name: ShortText::parse("Lovelace").unwrap(),
    ///     attributes: AttributesPatch::default(),
    /// };
    /// let acme = MerchantId::new("m1");
    /// let created = futures_executor::block_on(service.create(&acme, key.clone(), changes())).unwrap();
    /// assert_eq!(created.full_name(), "Ada Lovelace");
    /// let again = futures_executor::block_on(service.create(&acme, key, changes()));
    /// assert!(matches!(again, Err(DomainError::ProfileExists)));
    /// ```
    pub async fn create(
        &self,
        merchant: &MerchantId,
        key: ProfileKey,
        changes: ProfileChanges,
    ) -> Result<Profile, DomainError> {
        let now = self.clock.now();
        let profile = Profile::create(
            ProfileId::new(self.ids.next_id()),
            merchant.clone(),
            key,
            changes,
            now,
        )?;
        // No name: the log is also what webhooks carry, and they carry no personal value
        // beyond the e-mail and mobile (contract §9).
        let details = "Profile created".to_owned();
        let entry = self
            .outbox
            .record(&profile, Activity::ProfileCreated, details, now)
            .await?;
        match self.profiles.insert(&profile, &entry).await {
            Ok(()) => Ok(profile),
            Err(StoreError::Duplicate) => Err(DomainError::ProfileExists),
            Err(e) => Err(e.into()),
        }
    }

    /// Applies a change to a profile, retrying on a concurrent change.
    pub async fn update(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
        changes: ProfileChanges,
    ) -> Result<Profile, DomainError> {
        self.modify(merchant, key, |profile, now| {
            profile.apply(changes.clone(), now)?;
            Ok((
                Activity::ProfileUpdated,
                "Profile updated by the merchant".to_owned(),
            ))
        })
        .await
    }

    /// Sets a profile's status; the log names `actor` when it is a reviewer.
    pub async fn set_status(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
        status: ProfileStatus,
        actor: Actor<'_>,
    ) -> Result<Profile, DomainError> {
        self.modify(merchant, key, |profile, now| {
            let details = actor.sign(format!(
                "Profile status changed from {} to {status}",
                profile.status
            ));
            profile.set_status(status, now);
            Ok((Activity::ProfileStatusChanged, details))
        })
        .await
    }

    /// The profile, or `NotFound(Profile)`.
    pub async fn get(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
    ) -> Result<Profile, DomainError> {
        find_profile(&*self.profiles, merchant, key).await
    }

    /// The merchant's profiles, newest first.
    pub async fn list(
        &self,
        merchant: &MerchantId,
        page: Page,
    ) -> Result<Paged<Profile>, DomainError> {
        Ok(self.profiles.list(merchant, page).await?)
    }

    /// The merchant's profile with this id, or `NotFound(Profile)` (also for another
    /// merchant's).
    pub async fn get_by_id(
        &self,
        merchant: &MerchantId,
        id: &ProfileId,
    ) -> Result<Profile, DomainError> {
        self.profiles
            .find_by_id(merchant, id)
            .await?
            .ok_or(DomainError::NotFound(Resource::Profile))
    }

    /// The merchant's profiles `filter` selects, newest first.
    pub async fn search(
        &self,
        merchant: &MerchantId,
        filter: &ProfileFilter,
        page: Page,
    ) -> Result<Paged<Profile>, DomainError> {
        Ok(self.profiles.search(merchant, filter, page).await?)
    }

    /// Erases the profile and all under it; returns when it happened. The log keeps a
    /// tombstone that says a profile was erased, without anything that identified it.
    pub async fn delete(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
    ) -> Result<OffsetDateTime, DomainError> {
        let profile = self.get(merchant, key).await?;
        let now = self.clock.now();
        let mut tombstone = self.outbox.event(
            &profile,
            Activity::ProfileDeleted,
            "Profile erased with everything recorded under it",
            now,
        );
        tombstone.profile_id = None;
        let tombstone = self.outbox.entry(tombstone).await?;
        match self.profiles.delete(&profile, &tombstone).await {
            Ok(file_ids) => {
                // The records are gone; their files follow at once.
                super::remove_files(self.store.as_ref(), &file_ids).await;
                Ok(now)
            }
            Err(StoreError::Missing) => Err(DomainError::NotFound(Resource::Profile)),
            Err(e) => Err(e.into()),
        }
    }

    /// The profile's activity log, newest first.
    pub async fn events(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
        page: Page,
    ) -> Result<Paged<Event>, DomainError> {
        let profile = self.get(merchant, key).await?;
        Ok(self.profiles.events(&profile.id, page).await?)
    }

    /// Read, change, write back with the event the change returns; on a concurrent
    /// change, start again from the fresh profile so no acknowledged change is lost.
    async fn modify<F>(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
        change: F,
    ) -> Result<Profile, DomainError>
    where
        F: Fn(&mut Profile, OffsetDateTime) -> Result<(Activity, String), DomainError>,
    {
        for _ in 0..MAX_ATTEMPTS {
            let mut profile = self.get(merchant, key).await?;
            let now = self.clock.now();
            let (activity, details) = change(&mut profile, now)?;
            profile.revision += 1;
            let entry = self.outbox.record(&profile, activity, details, now).await?;
            match self.profiles.update(&profile, &entry).await {
                Ok(()) => return Ok(profile),
                Err(StoreError::Conflict) => continue,
                Err(StoreError::Missing) => return Err(DomainError::NotFound(Resource::Profile)),
                Err(e) => return Err(e.into()),
            }
        }
        Err(DomainError::Unavailable(
            "the profile kept changing concurrently; try again".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{FixedClock, MemoryFiles, MemoryProfiles, SequentialIds};
    use crate::profile::{AttributesPatch, Email, Patch, PhoneNumber, ShortText};
    use futures_executor::block_on;

    fn service(store: Arc<MemoryProfiles>) -> ProfileService {
        let ids = Arc::new(SequentialIds::default());
        ProfileService::new(ProfilePorts {
            profiles: store,
            store: Arc::new(MemoryFiles::default()),
            clock: Arc::new(FixedClock::default()),
            ids: ids.clone(),
            outbox: crate::memory::outbox(ids),
        })
    }

    fn key(email: &str, mobile: &str) -> ProfileKey {
        ProfileKey {
            email: Email::parse(email).expect("valid"),
            mobile: PhoneNumber::parse(mobile).expect("valid"),
        }
    }

    fn changes(first: &str) -> ProfileChanges {
        ProfileChanges {
            first_name: ShortText::parse(first).expect("valid"),
            last_name: ShortText::parse("Lovelace").expect("valid"),
            attributes: AttributesPatch::default(),
        }
    }

    fn m(id: &str) -> MerchantId {
        MerchantId::new(id)
    }

    #[test]
    fn creating_a_profile_logs_profile_created() {
        let store = Arc::new(MemoryProfiles::default());
        let svc = service(store.clone());
        let p = block_on(svc.create(
            &m("m1"),
            key("ada@example.com", "4165550123"),
            changes("Ada"),
        ))
        .expect("created");
        let events = block_on(svc.events(&m("m1"), &p.key, Page::default())).expect("events");
        assert_eq!(events.items.len(), 1);
        assert_eq!(events.items[0].activity, Activity::ProfileCreated);
        assert_eq!(
            events.items[0].status,
            crate::event::EventStatus::Profile(ProfileStatus::Pending)
        );
    }

    #[test]
    fn a_taken_email_or_mobile_is_profile_exists() {
        let svc = service(Arc::new(MemoryProfiles::default()));
        block_on(svc.create(
            &m("m1"),
            key("ada@example.com", "4165550123"),
            changes("Ada"),
        ))
        .expect("created");
        for k in [
            key("ADA@example.com", "4165550999"),
            key("bob@example.com", "4165550123"),
        ] {
            let err = block_on(svc.create(&m("m1"), k, changes("Bob"))).expect_err("taken");
            assert!(matches!(err, DomainError::ProfileExists), "{err:?}");
        }
        block_on(svc.create(
            &m("m2"),
            key("ada@example.com", "4165550123"),
            changes("Ada"),
        ))
        .expect("another merchant may hold the same pair");
    }

    #[test]
    fn status_changes_are_logged_with_the_new_status() {
        let svc = service(Arc::new(MemoryProfiles::default()));
        let k = key("ada@example.com", "4165550123");
        block_on(svc.create(&m("m1"), k.clone(), changes("Ada"))).expect("created");
        let p = block_on(svc.set_status(&m("m1"), &k, ProfileStatus::Approved, Actor::Api))
            .expect("set");
        assert_eq!(p.status, ProfileStatus::Approved);
        let events = block_on(svc.events(&m("m1"), &k, Page::default())).expect("events");
        let newest = &events.items[0];
        assert_eq!(newest.activity, Activity::ProfileStatusChanged);
        assert_eq!(
            newest.status,
            crate::event::EventStatus::Profile(ProfileStatus::Approved)
        );
        assert_eq!(
            newest.details,
            "Profile status changed from Pending to Approved"
        );
    }

    #[test]
    fn another_merchant_cannot_reach_a_profile() {
        let svc = service(Arc::new(MemoryProfiles::default()));
        let k = key("ada@example.com", "4165550123");
        block_on(svc.create(&m("m1"), k.clone(), changes("Ada"))).expect("created");
        let err = block_on(svc.update(&m("m2"), &k, changes("Eve"))).expect_err("not theirs");
        assert!(matches!(err, DomainError::NotFound(Resource::Profile)));
        let err = block_on(svc.delete(&m("m2"), &k)).expect_err("not theirs");
        assert!(matches!(err, DomainError::NotFound(Resource::Profile)));
    }

    #[test]
    fn an_update_retries_after_a_concurrent_change_and_keeps_both() {
        let store = Arc::new(MemoryProfiles::default());
        let svc = service(store.clone());
        let k = key("ada@example.com", "4165550123");
        block_on(svc.create(&m("m1"), k.clone(), changes("Ada"))).expect("created");
        // Another writer sets the city between our read and our write.
        store.fail_next_update_with_conflict_after(|p| {
            p.attributes.city = Some(ShortText::parse("Paris").expect("valid"));
        });
        let mut c = changes("Ada");
        c.attributes.ssn = Patch::Set(crate::profile::Ssn::parse("123456789").expect("valid"));
        let p = block_on(svc.update(&m("m1"), &k, c)).expect("updated on retry");
        assert_eq!(
            p.attributes.city.as_ref().map(|c| c.as_str()),
            Some("Paris")
        );
        assert!(p.attributes.ssn.is_some());
    }

    #[test]
    fn deleting_leaves_only_an_anonymous_tombstone() {
        let store = Arc::new(MemoryProfiles::default());
        let svc = service(store.clone());
        let k = key("ada@example.com", "4165550123");
        block_on(svc.create(&m("m1"), k.clone(), changes("Ada"))).expect("created");
        block_on(svc.delete(&m("m1"), &k)).expect("deleted");
        assert!(matches!(
            block_on(svc.get(&m("m1"), &k)),
            Err(DomainError::NotFound(_))
        ));
        let tombstones = store.orphan_events();
        assert_eq!(tombstones.len(), 1);
        assert_eq!(tombstones[0].activity, Activity::ProfileDeleted);
        assert!(!tombstones[0].details.contains("Ada"));
        block_on(svc.create(&m("m1"), k, changes("Ada"))).expect("the pair is free again");
    }
}
