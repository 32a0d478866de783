//! Retention (contract §15): a profile decided `Approved` or `Declined` for as many days as
//! its merchant's `retention_days` loses its personal data: its documents' files, its
//! sealed values, and what was read from its documents. The profile, its statuses, its
//! notes and its log stay, with the event `personal_data_erased`.

use std::sync::Arc;

use crate::error::DomainError;
use crate::event::Activity;
use crate::merchant::{Merchant, RetentionDays};
use crate::outbox::Outbox;
use crate::ports::{Clock, DocumentStore, MerchantRepository, ProfileRepository, StoreError};
use crate::profile::Profile;

/// Profiles read at once from storage: a merchant with many due profiles is erased in
/// batches, never loaded whole.
const BATCH: usize = 100;

/// What one run erased: counts only, never whom (they are logged).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RetentionReport {
    /// Profiles whose personal data was erased.
    pub profiles_erased: u64,
    /// Stored files removed with them.
    pub files_removed: u64,
    /// Profiles changed by someone else while they were being erased: left for the
    /// next run, which sees them as they now are.
    pub profiles_skipped: u64,
}

/// The ports a [`RetentionService`] works through.
#[derive(Clone)]
pub struct RetentionPorts {
    /// Merchants (their settings).
    pub merchants: Arc<dyn MerchantRepository>,
    /// Profiles.
    pub profiles: Arc<dyn ProfileRepository>,
    /// Where files are kept.
    pub store: Arc<dyn DocumentStore>,
    /// The clock.
    pub clock: Arc<dyn Clock>,
    /// Makes the events, with their ids, and where they go.
    pub outbox: Outbox,
}

debug_as_name!(RetentionPorts);

/// Erases what retention says must go.
#[derive(Clone)]
pub struct RetentionService {
    merchants: Arc<dyn MerchantRepository>,
    profiles: Arc<dyn ProfileRepository>,
    store: Arc<dyn DocumentStore>,
    clock: Arc<dyn Clock>,
    outbox: Outbox,
}

debug_as_name!(RetentionService);

impl RetentionService {
    /// The service over its ports.
    pub fn new(ports: RetentionPorts) -> Self {
        let RetentionPorts {
            merchants,
            profiles,
            store,
            clock,
            outbox,
        } = ports;
        Self {
            merchants,
            profiles,
            store,
            clock,
            outbox,
        }
    }

    /// Erases the personal data of every profile due, of every merchant that set a
    /// retention.
    pub async fn erase_due(&self) -> Result<RetentionReport, DomainError> {
        let mut report = RetentionReport::default();
        for merchant in self.merchants.list().await? {
            if let Some(retention) = merchant.settings.retention_days {
                self.erase_due_of(&merchant, retention, &mut report).await?;
            }
        }
        Ok(report)
    }

    async fn erase_due_of(
        &self,
        merchant: &Merchant,
        retention: RetentionDays,
        report: &mut RetentionReport,
    ) -> Result<(), DomainError> {
        loop {
            let now = self.clock.now();
            let due = self
                .profiles
                .due_for_erasure(&merchant.id, retention, now, BATCH)
                .await?;
            let mut erased = 0;
            for profile in &due {
                match self.erase(profile.clone(), retention).await? {
                    Some(files) => {
                        erased += 1;
                        report.profiles_erased += 1;
                        report.files_removed += files;
                    }
                    None => report.profiles_skipped += 1,
                }
            }
            // A short batch was the last; one where nothing could be erased would only
            // come back the same.
            if due.len() < BATCH || erased == 0 {
                return Ok(());
            }
        }
    }

    /// Erases one profile's personal data with its event, then removes its files;
    /// answers how many files it held, or `None` when the profile changed meanwhile (a
    /// new status, an update, a deletion): the next run judges it as it then is.
    async fn erase(
        &self,
        mut profile: Profile,
        retention: RetentionDays,
    ) -> Result<Option<u64>, DomainError> {
        let now = self.clock.now();
        profile.erase_personal_data(now);
        profile.revision += 1;
        let details = format!(
            "Personal data erased: {} days after the profile was {}",
            retention.days(),
            profile.status
        );
        let entry = self
            .outbox
            .record(&profile, Activity::PersonalDataErased, details, now)
            .await?;
        let files = match self.profiles.erase_personal_data(&profile, &entry).await {
            Ok(files) => files,
            Err(StoreError::Conflict | StoreError::Missing) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        // The records no longer name the files; their bytes follow at once (one that
        // cannot be removed now is left to the sweeper, which removes unnamed files).
        super::remove_files(self.store.as_ref(), &files).await;
        Ok(Some(files.len() as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{Document, DocumentStatus, Evidence, FileType, StoredFile};
    use crate::event::{Event, EventStatus};
    use crate::ids::{DocumentId, FileId};
    use crate::memory::{
        FixedClock, MemoryDocuments, MemoryFiles, MemoryMerchants, MemoryProfiles,
        MemorySubscriptions, SequentialIds,
    };
    use crate::merchant::{MerchantId, MerchantSettings};
    use crate::outbox::Subscription;
    use crate::paging::Page;
    use crate::ports::DocumentRepository;
    use crate::profile::{
        AttributesPatch, DateOfBirth, Email, Patch, PhoneNumber, ProfileChanges, ProfileId,
        ProfileKey, ProfileStatus, ShortText, Ssn, SubmittedFormFields,
    };
    use crate::template::Feature;
    use crate::verification::DocumentRead;
    use crate::webhook::EventFilter;
    use futures_executor::block_on;
    use time::OffsetDateTime;
    use time::macros::datetime;

    const DECIDED: OffsetDateTime = datetime!(2026-10-01 10:00 UTC);
    const NOW: OffsetDateTime = datetime!(2026-11-22 10:00 UTC);

    struct World {
        merchants: Arc<MemoryMerchants>,
        profiles: Arc<MemoryProfiles>,
        files: Arc<MemoryFiles>,
        subscriptions: Arc<MemorySubscriptions>,
        service: RetentionService,
    }

    fn world() -> World {
        let merchants = Arc::new(MemoryMerchants::default());
        let profiles = Arc::new(MemoryProfiles::default());
        let files = Arc::new(MemoryFiles::default());
        let subscriptions = Arc::new(MemorySubscriptions::default());
        let ids = Arc::new(SequentialIds::default());
        let service = RetentionService::new(RetentionPorts {
            merchants: merchants.clone(),
            profiles: profiles.clone(),
            store: files.clone(),
            clock: Arc::new(FixedClock(NOW)),
            outbox: Outbox::new(subscriptions.clone(), ids),
        });
        World {
            merchants,
            profiles,
            files,
            subscriptions,
            service,
        }
    }

    fn merchant(world: &World, id: &str, retention_days: Option<i64>) -> MerchantId {
        let id = MerchantId::new(id);
        world.merchants.insert(Merchant {
            id: id.clone(),
            name: "Acme".into(),
            settings: MerchantSettings {
                retention_days: retention_days.map(|d| RetentionDays::new(d).expect("valid")),
                ..MerchantSettings::default()
            },
            created_at: DECIDED,
        });
        id
    }

    /// A profile with an SSN, a typed date of birth and one document with a stored file
    /// and what was read from it, set to `status` at `DECIDED`.
    fn client(world: &World, merchant: &MerchantId, n: u8, status: ProfileStatus) -> Profile {
        let key = ProfileKey {
            email: Email::parse(&format!("client{n}@example.com")).expect("valid"),
            mobile: PhoneNumber::parse(&format!("41655501{n:02}")).expect("valid"),
        };
        let attributes = AttributesPatch {
            ssn: Patch::Set(Ssn::parse("123456789").expect("valid")),
            ..AttributesPatch::default()
        };
        let changes = ProfileChanges {
            first_name: ShortText::parse("Ada").expect("valid"),
            last_name: ShortText::parse("Lovelace").expect("valid"),
            attributes,
        };
        let id = ProfileId::new(format!("p{n}"));
        let mut profile =
            Profile::create(id.clone(), merchant.clone(), key, changes, DECIDED).expect("valid");
        profile.submitted = Some(SubmittedFormFields {
            date_of_birth: Some(DateOfBirth::parse("1990-01-02").expect("date")),
            ..SubmittedFormFields::default()
        });
        profile.set_status(status, DECIDED);
        let event = Event::about(
            format!("e{n}").into(),
            &profile,
            Activity::ProfileCreated,
            "Profile created",
            DECIDED,
        );
        let entry = block_on(
            Outbox::new(
                world.subscriptions.clone(),
                Arc::new(SequentialIds::default()),
            )
            .entry(event),
        )
        .expect("entry");
        block_on(world.profiles.insert(&profile, &entry)).expect("stored");
        let file_id = FileId::from(format!("file-{n}"));
        world.files.put(&file_id, b"passport bytes");
        world.profiles.hand_in(Document {
            id: DocumentId::from(format!("d{n}")),
            merchant_id: merchant.clone(),
            profile_id: id,
            quiz_id: format!("q{n}").into(),
            step: Feature::PassportUpload,
            status: DocumentStatus::Approved,
            evidence: Evidence::Files(vec![StoredFile {
                file_id,
                file_name: "passport.jpg".into(),
                file_type: FileType::Jpeg,
                size_bytes: 14,
                sha256: "ab".repeat(32),
                side: None,
            }]),
            read: vec![DocumentRead {
                document_number: Some("X1234567".into()),
                ..DocumentRead::default()
            }],
            created_at: DECIDED,
            updated_at: DECIDED,
        });
        profile
    }

    fn stored(world: &World, profile: &Profile) -> Profile {
        block_on(world.profiles.find_by_id(&profile.merchant_id, &profile.id))
            .expect("read")
            .expect("the row stays")
    }

    fn erasures(world: &World, profile: &Profile) -> usize {
        world
            .profiles
            .events_of(&profile.id)
            .iter()
            .filter(|e| e.activity == Activity::PersonalDataErased)
            .count()
    }

    #[test]
    fn a_profile_decided_long_enough_ago_loses_its_personal_data_once() {
        let world = world();
        let acme = merchant(&world, "m1", Some(30));
        let approved = client(&world, &acme, 1, ProfileStatus::Approved);

        let report = block_on(world.service.erase_due()).expect("ran");
        assert_eq!(
            report,
            RetentionReport {
                profiles_erased: 1,
                files_removed: 1,
                profiles_skipped: 0
            }
        );
        let after = stored(&world, &approved);
        assert_eq!((&after.attributes.ssn, &after.submitted), (&None, &None));
        assert_eq!(after.erased_at, Some(NOW));
        assert_eq!(
            (after.status, after.full_name().as_str()),
            (ProfileStatus::Approved, "Ada Lovelace")
        );
        assert_eq!(world.files.count(), 0, "the file's bytes are gone");
        let document = world
            .profiles
            .document(&"d1".into())
            .expect("the document stays");
        assert_eq!(document.evidence, Evidence::Files(Vec::new()));
        assert!(document.read.is_empty());
        assert_eq!(document.status, DocumentStatus::Approved);
        let documents = MemoryDocuments(world.profiles.clone());
        assert!(!block_on(documents.file_in_use(&"file-1".into())).expect("read"));

        let events = world.profiles.events_of(&approved.id);
        let erased = events.last().expect("an event");
        assert_eq!(erased.activity, Activity::PersonalDataErased);
        assert_eq!(erased.status, EventStatus::Profile(ProfileStatus::Approved));
        assert!(!erased.details.contains("123456789"), "{}", erased.details);
        assert_eq!(
            events.first().map(|e| e.activity),
            Some(Activity::ProfileCreated)
        );

        let again = block_on(world.service.erase_due()).expect("ran");
        assert_eq!(again, RetentionReport::default(), "never twice");
        assert_eq!(erasures(&world, &approved), 1);
    }

    #[test]
    fn pending_recent_and_unretained_profiles_keep_everything() {
        let world = world();
        let acme = merchant(&world, "m1", Some(30));
        let pending = client(&world, &acme, 1, ProfileStatus::Pending);
        let keeper = merchant(&world, "m2", None);
        let kept = client(&world, &keeper, 2, ProfileStatus::Declined);
        let patient = merchant(&world, "m3", Some(60));
        let recent = client(&world, &patient, 3, ProfileStatus::Declined);

        let report = block_on(world.service.erase_due()).expect("ran");
        assert_eq!(report, RetentionReport::default());
        for profile in [&pending, &kept, &recent] {
            let after = stored(&world, profile);
            assert!(after.attributes.ssn.is_some() && after.submitted.is_some());
            assert_eq!(after.erased_at, None);
            assert_eq!(erasures(&world, profile), 0);
        }
        assert_eq!(world.files.count(), 3);
    }

    #[test]
    fn the_erasure_is_offered_to_the_merchants_webhooks() {
        let world = world();
        let acme = merchant(&world, "m1", Some(1));
        world.subscriptions.set(
            &acme,
            vec![Subscription {
                webhook_id: "w1".into(),
                events: EventFilter::default(),
            }],
        );
        let declined = client(&world, &acme, 1, ProfileStatus::Declined);
        let before = world.profiles.deliveries().len();
        block_on(world.service.erase_due()).expect("ran");
        let deliveries = world.profiles.deliveries();
        assert_eq!(deliveries.len(), before + 1);
        let last = deliveries.last().expect("a delivery");
        assert_eq!(last.activity, Activity::PersonalDataErased);
        let events = block_on(world.profiles.events(&declined.id, Page::default())).expect("log");
        assert_eq!(events.items[0].id, last.event_id);
    }
}
