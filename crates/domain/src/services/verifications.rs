//! Verifying submitted quizzes (contract §13): the job a submission queues, run by a
//! worker; what the merchant reads of it; a rerun.

use std::sync::Arc;

use time::{Date, Duration, OffsetDateTime};

use crate::document::{Document, Evidence};
use crate::error::{DomainError, Resource};
use crate::event::{Activity, Actor, Event, EventStatus};
use crate::ids::DocumentId;
use crate::ids::QuizId;
use crate::merchant::{MerchantId, MerchantSettings};
use crate::outbox::Outbox;
use crate::paging::{Page, Paged};
use crate::ports::{
    Clock, DocumentRepository, DocumentStore, IdGenerator, IdentityIndex, ImageAnalysis,
    MerchantRepository, ProfileRepository, QuizRepository, SignalStore, StoreError,
    VerificationRepository,
};
use crate::profile::{Profile, ProfileId, ProfileKey, ProfileStatus};
use crate::quiz::{Quiz, QuizLink, QuizLinks};
use crate::verification::{
    Claimed, DocumentRead, Examined, Facts, IdentityKind, Verification, VerificationStatus, checks,
    document_key, documents, proof_of_address,
};

use super::{ScreeningService, examine_stored, find_profile};

/// How long a worker holds a job: past it, another worker runs it again (a crash).
pub const CLAIM: Duration = Duration::seconds(60);
/// The documents of a profile looked at for one quiz.
const DOCUMENTS_READ: i64 = 100;
/// Tries to write a result when the profile keeps changing under an automatic decision.
const MAX_ATTEMPTS: usize = 3;

/// The ports verification works over.
#[derive(Clone)]
pub struct VerificationPorts {
    /// Verifications, and the queue of pending ones.
    pub verifications: Arc<dyn VerificationRepository>,
    /// Keyed digests of SSNs and devices, per merchant.
    pub index: Arc<dyn IdentityIndex>,
    /// Quizzes.
    pub quizzes: Arc<dyn QuizRepository>,
    /// Profiles.
    pub profiles: Arc<dyn ProfileRepository>,
    /// Documents.
    pub documents: Arc<dyn DocumentRepository>,
    /// Merchants (their settings).
    pub merchants: Arc<dyn MerchantRepository>,
    /// The documents' files.
    pub store: Arc<dyn DocumentStore>,
    /// What is found in the images.
    pub images: Arc<dyn ImageAnalysis>,
    /// The clock.
    pub clock: Arc<dyn Clock>,
    /// Ids.
    pub ids: Arc<dyn IdGenerator>,
    /// Where the events go.
    pub outbox: Outbox,
    /// Screening against the merchant's lists.
    pub screening: ScreeningService,
    /// What is kept of the merchant's profiles' images, to compare clients.
    pub signals: Arc<dyn SignalStore>,
}

debug_as_name!(VerificationPorts);

/// A verification with the addresses of its quiz (none once the quiz is deleted).
#[derive(Debug, Clone)]
pub struct VerificationView {
    /// The verification.
    pub verification: Verification,
    /// Its quiz's addresses.
    pub links: Option<QuizLinks>,
}

/// Verifications: running the queue, reading, rerunning.
#[derive(Clone, Debug)]
pub struct VerificationService {
    ports: VerificationPorts,
    public_url: String,
}

impl VerificationService {
    /// The service; quiz addresses are made under `public_url`.
    pub fn new(ports: VerificationPorts, public_url: impl Into<String>) -> Self {
        Self {
            ports,
            public_url: public_url.into(),
        }
    }

    /// Claims the oldest pending verification and runs it; `None` when the queue is
    /// empty. A failure leaves the job claimed: it runs again when the claim lapses. A
    /// run whose write met a change of the profile is tried again with what it already
    /// read from the images (up to 20 s of processor time each), only the checks and the
    /// write repeated.
    pub async fn run_next(&self) -> Result<Option<Verification>, DomainError> {
        let p = &self.ports;
        let now = p.clock.now();
        let Some(job) = p.verifications.claim(now, now + CLAIM).await? else {
            return Ok(None);
        };
        let mut examined = None;
        for _ in 0..MAX_ATTEMPTS {
            match self.run(job.clone(), &mut examined).await {
                Err(DomainError::Unavailable(_)) | Err(DomainError::Busy) => continue,
                done => return done.map(Some),
            }
        }
        Err(DomainError::Unavailable(
            "the profile kept changing while it was verified; it runs again".into(),
        ))
    }

    /// Runs `job` once; `examined` keeps what the images said for the next try.
    async fn run(
        &self,
        mut job: Verification,
        examined: &mut Option<Vec<Examined>>,
    ) -> Result<Verification, DomainError> {
        let p = &self.ports;
        let merchant = p
            .merchants
            .find(&job.merchant_id)
            .await?
            .ok_or(DomainError::NotFound(Resource::Merchant))?;
        let Some(mut profile) = p
            .profiles
            .find_by_id(&job.merchant_id, &job.profile_id)
            .await?
        else {
            // Erased with everything under it: nothing is left to verify.
            return Err(DomainError::NotFound(Resource::Profile));
        };
        let quiz = p.quizzes.find_by_id(&job.merchant_id, &job.quiz_id).await?;
        // A quiz deleted since is judged as if submitted today.
        let submitted_on = quiz
            .as_ref()
            .and_then(|q| q.quiz.submitted_at)
            .unwrap_or_else(|| p.clock.now())
            .date();
        let (facts, reads) = self
            .facts(&profile, &job, &merchant.settings, submitted_on, examined)
            .await?;
        let now = p.clock.now();
        job.complete(checks(&facts), &merchant.settings.policy, now);
        let decided = merchant
            .settings
            .auto_decision
            .then_some(job.status)
            .and_then(decided_status)
            .filter(|status| *status != profile.status);
        let mut events = Vec::new();
        if let Some(status) = decided {
            let details = Actor::Verification.sign(format!(
                "Profile status changed from {} to {status}",
                profile.status
            ));
            profile.set_status(status, now);
            profile.revision += 1;
            events.push(
                p.outbox
                    .event(&profile, Activity::ProfileStatusChanged, details, now),
            );
        }
        events.push(self.completed_event(&profile, quiz.as_ref().map(|q| &q.quiz), &job, now));
        let entries = p.outbox.entries(events).await?;
        let changed = decided.map(|_| &profile);
        match p
            .verifications
            .complete(&job, &entries, changed, &reads)
            .await
        {
            Ok(()) => Ok(job),
            Err(StoreError::Conflict) => Err(DomainError::Unavailable(
                "the profile changed while it was verified".into(),
            )),
            Err(StoreError::Missing) => Err(DomainError::NotFound(Resource::Verification)),
            Err(e) => Err(e.into()),
        }
    }

    /// What the checks look at, the merchant's other profiles counted by the blind index,
    /// and what was read from each of the quiz's documents (to be stored with them). The
    /// images are examined once: `examined` holds what an earlier try found.
    async fn facts(
        &self,
        profile: &Profile,
        job: &Verification,
        settings: &MerchantSettings,
        submitted_on: Date,
        examined: &mut Option<Vec<Examined>>,
    ) -> Result<(Facts, Vec<(DocumentId, Vec<DocumentRead>)>), DomainError> {
        let p = &self.ports;
        let page = Page::new(0, DOCUMENTS_READ).unwrap_or_default();
        let documents = p.documents.list(&profile.id, page).await?.items;
        let of_quiz: Vec<&Document> = documents
            .iter()
            .filter(|d| d.quiz_id == job.quiz_id)
            .collect();
        let typed = profile.submitted.as_ref();
        let ssn = typed
            .and_then(|s| s.ssn.clone())
            .or_else(|| profile.attributes.ssn.clone());
        let date_of_birth = typed
            .and_then(|s| s.date_of_birth)
            .or(profile.attributes.date_of_birth);
        let fingerprint = of_quiz.iter().find_map(|d| match &d.evidence {
            Evidence::Fingerprint { fingerprint } => Some(fingerprint.clone()),
            _ => None,
        });
        let images = match examined {
            Some(images) => images.clone(),
            None => examined.insert(self.examine(&of_quiz).await?).clone(),
        };
        let read = documents::reads(&images);
        let note = |kind, value: String| async move {
            p.index
                .note(&job.merchant_id, &profile.id, kind, &value)
                .await
        };
        let ssn_elsewhere = match &ssn {
            Some(ssn) => Some(note(IdentityKind::Ssn, ssn.as_str().to_owned()).await?),
            None => None,
        };
        let device_elsewhere = match fingerprint {
            Some(fingerprint) => Some(note(IdentityKind::Device, fingerprint).await?),
            None => None,
        };
        let mut document_elsewhere = None;
        for key in read.iter().filter_map(|(_, r)| document_key(r)) {
            let others = note(IdentityKind::Document, key).await?;
            document_elsewhere = Some(document_elsewhere.unwrap_or(0).max(others));
        }
        let screened = p
            .screening
            .for_verification(settings, profile, date_of_birth.map(|d| d.date()))
            .await?;
        // The others' first: the profile's own are kept in place of its earlier ones.
        let kept = p.signals.others(&job.merchant_id, &profile.id).await?;
        let signals = crate::signals::signals_of(&images, settings.face_search);
        p.signals
            .keep(&job.merchant_id, &profile.id, &signals)
            .await?;
        let claimed = Claimed::of(profile);
        // What proofs of address say is kept with them, beside what IDs say.
        let proofs = proof_of_address::reads(&images, &claimed, submitted_on);
        let stored = of_quiz
            .iter()
            .filter(|d| images.iter().any(|i| i.document_id == d.id))
            .map(|d| {
                let of_document = read.iter().chain(&proofs).filter(|(id, _)| *id == d.id);
                (d.id.clone(), of_document.map(|(_, r)| r.clone()).collect())
            })
            .collect();
        let facts = Facts {
            today: p.clock.now().date(),
            submitted_on,
            minimum_age: settings.minimum_age,
            proof_of_address_max_age: settings.proof_of_address_max_age,
            ssn,
            date_of_birth,
            ssn_elsewhere,
            device_elsewhere,
            document_elsewhere,
            claimed,
            images,
            screened,
            profile_id: profile.id.clone(),
            face_search: settings.face_search,
            kept,
        };
        Ok((facts, stored))
    }

    /// Every image of the quiz's documents the checks look at, examined one after the
    /// other (a job uses one core). A file the store no longer holds is unreadable.
    async fn examine(&self, documents: &[&Document]) -> Result<Vec<Examined>, DomainError> {
        let p = &self.ports;
        let mut examined = Vec::new();
        for document in documents {
            // PDFs too: the analysis reads a scan's first page (contract §17).
            for file in document.files() {
                let Some(wanted) = documents::wanted(document.step, file.side) else {
                    continue;
                };
                let room = p.images.room(&document.merchant_id).await;
                let (store, images) = (p.store.as_ref(), p.images.as_ref());
                let report = examine_stored(store, images, room, &file.file_id, wanted).await?;
                examined.push(Examined {
                    document_id: document.id.clone(),
                    step: document.step,
                    side: file.side,
                    report,
                });
            }
        }
        Ok(examined)
    }

    fn completed_event(
        &self,
        profile: &Profile,
        quiz: Option<&Quiz>,
        job: &Verification,
        now: OffsetDateTime,
    ) -> Event {
        let outbox = &self.ports.outbox;
        let details = format!("Verification completed: {}", job.status.as_str());
        let mut event = match quiz {
            Some(quiz) => outbox.quiz_event(
                profile,
                quiz,
                QuizLinks::of(&self.public_url, quiz),
                Activity::VerificationCompleted,
                details,
                now,
            ),
            None => outbox.event(profile, Activity::VerificationCompleted, details, now),
        };
        event.status = EventStatus::Verification(job.status);
        event
    }

    /// The latest verification of the merchant's quiz at `link`.
    pub async fn of_quiz(
        &self,
        merchant: &MerchantId,
        link: &QuizLink,
    ) -> Result<VerificationView, DomainError> {
        let p = &self.ports;
        let quiz = p
            .quizzes
            .find(merchant, link)
            .await?
            .ok_or(DomainError::NotFound(Resource::Quiz))?
            .quiz;
        let verification = p
            .verifications
            .latest_of_quiz(&quiz.id)
            .await?
            .ok_or(DomainError::NotFound(Resource::Verification))?;
        Ok(VerificationView {
            verification,
            links: Some(QuizLinks::of(&self.public_url, &quiz)),
        })
    }

    /// The profile's verifications, newest first.
    pub async fn of_profile(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
        page: Page,
    ) -> Result<Paged<VerificationView>, DomainError> {
        let p = &self.ports;
        let profile = find_profile(&*p.profiles, merchant, key).await?;
        let found = p.verifications.list_of_profile(&profile.id, page).await?;
        let quizzes = p
            .quizzes
            .list_of_profile(
                &profile.id,
                Page::new(0, DOCUMENTS_READ).unwrap_or_default(),
            )
            .await?
            .items;
        let links_of = |v: &Verification| {
            quizzes
                .iter()
                .find(|q| q.id == v.quiz_id)
                .map(|q| QuizLinks::of(&self.public_url, q))
        };
        Ok(Paged {
            items: found
                .items
                .into_iter()
                .map(|verification| VerificationView {
                    links: links_of(&verification),
                    verification,
                })
                .collect(),
            total_count: found.total_count,
            filtered: found.filtered,
        })
    }

    /// Blocks the face kept of the merchant's profile: a selfie within reach of it fails
    /// `duplicate_face` with `face_on_blocklist`, whoever sends it. Answers how many of
    /// the profile's faces are blocked: none when no face was kept of it (`face_search`
    /// was off at its verification, or it was erased).
    pub async fn block_face(
        &self,
        merchant: &MerchantId,
        profile: &ProfileId,
    ) -> Result<u64, DomainError> {
        Ok(self.ports.signals.block_faces(merchant, profile).await?)
    }

    /// Queues another verification of the merchant's submitted quiz at `link`
    /// (`NotFound(Verification)` when it was never submitted).
    pub async fn rerun(
        &self,
        merchant: &MerchantId,
        link: &QuizLink,
    ) -> Result<VerificationView, DomainError> {
        let found = self.ports.quizzes.find(merchant, link).await?;
        self.queue_again(merchant, found.map(|q| q.quiz)).await
    }

    /// Like [`Self::rerun`], for the merchant's quiz with this id (the dashboard's).
    pub async fn rerun_by_id(
        &self,
        merchant: &MerchantId,
        quiz: &QuizId,
    ) -> Result<VerificationView, DomainError> {
        let found = self.ports.quizzes.find_by_id(merchant, quiz).await?;
        self.queue_again(merchant, found.map(|q| q.quiz)).await
    }

    async fn queue_again(
        &self,
        merchant: &MerchantId,
        quiz: Option<Quiz>,
    ) -> Result<VerificationView, DomainError> {
        let p = &self.ports;
        let quiz = quiz.ok_or(DomainError::NotFound(Resource::Quiz))?;
        if quiz.submitted_at.is_none() {
            return Err(DomainError::NotFound(Resource::Verification));
        }
        let verification = Verification::queued(
            p.ids.next_id().into(),
            merchant,
            &quiz.profile_id,
            &quiz.id,
            p.clock.now(),
        );
        p.verifications.queue(&verification).await?;
        Ok(VerificationView {
            verification,
            links: Some(QuizLinks::of(&self.public_url, &quiz)),
        })
    }
}

/// The profile status an outcome decides, if it decides one (`review` leaves it to a
/// person; `pending` is no outcome).
fn decided_status(outcome: VerificationStatus) -> Option<ProfileStatus> {
    match outcome {
        VerificationStatus::Passed => Some(ProfileStatus::Approved),
        VerificationStatus::Declined => Some(ProfileStatus::Declined),
        VerificationStatus::Review | VerificationStatus::Pending => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{DocumentStatus, FileType, Side, StoredFile};
    use crate::event::Event as LoggedEvent;
    use crate::memory::{
        FixedClock, MemoryDocuments, MemoryFiles, MemoryIdentityIndex, MemoryMerchants,
        MemoryProfiles, MemoryQuizzes, MemoryScreening, MemorySignals, MemoryVerifications,
        ScriptedImages, SequentialIds, outbox,
    };
    use crate::merchant::Merchant;
    use crate::profile::{
        AttributesPatch, Email, PhoneNumber, ProfileChanges, ProfileId, ShortText, Ssn,
        SubmittedFormFields,
    };
    use crate::services::ScreeningPorts;
    use crate::template::Feature;
    use crate::verification::ImageReport;
    use crate::verification::{BarcodeReading, CheckStatus, ReadSource};
    use crate::verification::{CheckName, Policy, Reason};
    use futures_executor::block_on;

    struct World {
        service: VerificationService,
        data: Arc<MemoryProfiles>,
        verifications: Arc<MemoryVerifications>,
        files: Arc<MemoryFiles>,
        images: Arc<ScriptedImages>,
    }

    fn world(auto_decision: bool) -> World {
        let data = Arc::new(MemoryProfiles::default());
        let merchants = Arc::new(MemoryMerchants::default());
        let settings = MerchantSettings {
            auto_decision,
            policy: Policy::parse([("ssn_used_by_another_profile", "review")]).expect("ok"),
            ..MerchantSettings::default()
        };
        for id in ["m1", "m2"] {
            merchants.insert(Merchant {
                id: MerchantId::new(id),
                name: id.into(),
                settings: settings.clone(),
                created_at: OffsetDateTime::UNIX_EPOCH,
            });
        }
        let ids = Arc::new(SequentialIds::default());
        let verifications = Arc::new(MemoryVerifications(data.clone()));
        let files = Arc::new(MemoryFiles::default());
        let images = Arc::new(ScriptedImages::default());
        let screening = ScreeningService::new(ScreeningPorts {
            store: Arc::new(MemoryScreening::new(data.clone())),
            merchants: merchants.clone(),
            profiles: data.clone(),
            clock: Arc::new(FixedClock::default()),
            outbox: outbox(ids.clone()),
        });
        let service = VerificationService::new(
            VerificationPorts {
                verifications: verifications.clone(),
                index: Arc::new(MemoryIdentityIndex::default()),
                quizzes: Arc::new(MemoryQuizzes::new(data.clone())),
                profiles: data.clone(),
                documents: Arc::new(MemoryDocuments(data.clone())),
                merchants,
                store: files.clone(),
                images: images.clone(),
                clock: Arc::new(FixedClock::default()),
                outbox: outbox(ids.clone()),
                ids,
                screening,
                signals: Arc::new(MemorySignals::new(data.clone())),
            },
            "https://idv.example",
        );
        World {
            service,
            data,
            verifications,
            files,
            images,
        }
    }

    /// A client of `merchant` who typed `ssn`, with a queued verification.
    fn submitted(w: &World, merchant: &str, id: &str, ssn: &str) -> ProfileId {
        let key = ProfileKey {
            email: Email::parse(&format!("{id}@example.com")).expect("valid"),
            mobile: PhoneNumber::parse(&format!("416555{:04}", id.len() * 7)).expect("valid"),
        };
        let changes = ProfileChanges {
            first_name: ShortText::parse("Ada").expect("valid"),
            last_name: ShortText::parse("Lovelace").expect("valid"),
            attributes: AttributesPatch::default(),
        };
        let merchant = MerchantId::new(merchant);
        let mut profile = Profile::create(
            ProfileId::new(id),
            merchant.clone(),
            key,
            changes,
            OffsetDateTime::UNIX_EPOCH,
        )
        .expect("valid");
        profile.submitted = Some(SubmittedFormFields {
            ssn: Some(Ssn::parse(ssn).expect("valid")),
            ..SubmittedFormFields::default()
        });
        let created = LoggedEvent::about(
            format!("e-{id}").into(),
            &profile,
            Activity::ProfileCreated,
            "",
            OffsetDateTime::UNIX_EPOCH,
        );
        let entry = crate::outbox::Entry {
            event: created,
            deliveries: Vec::new(),
        };
        block_on(w.data.insert(&profile, &entry)).expect("stored");
        let job = Verification::queued(
            format!("v-{id}").into(),
            &merchant,
            &profile.id,
            &format!("q-{id}").into(),
            OffsetDateTime::UNIX_EPOCH,
        );
        block_on(w.verifications.queue(&job)).expect("queued");
        profile.id
    }

    fn status_of(w: &World, merchant: &str, id: &ProfileId) -> ProfileStatus {
        let found = block_on(w.data.find_by_id(&MerchantId::new(merchant), id));
        found.expect("read").expect("found").status
    }

    #[test]
    fn each_job_runs_once_and_an_automatic_decision_is_logged_by_verification() {
        let w = world(true);
        let bad = submitted(&w, "m1", "bad", "666123456");
        let done = block_on(w.service.run_next()).expect("ran").expect("a job");
        assert_eq!(done.status, VerificationStatus::Declined);
        let ssn = done.checks.iter().find(|c| c.name == CheckName::SsnFormat);
        assert_eq!(
            ssn.map(|c| c.reasons.clone()),
            Some(vec![Reason::SsnInvalid])
        );
        assert_eq!(status_of(&w, "m1", &bad), ProfileStatus::Declined);
        assert!(
            block_on(w.service.run_next()).expect("ran").is_none(),
            "done once"
        );
        let log = w.data.events_of(&bad);
        let activities: Vec<Activity> = log.iter().map(|e| e.activity).collect();
        assert_eq!(
            activities,
            [
                Activity::ProfileCreated,
                Activity::ProfileStatusChanged,
                Activity::VerificationCompleted
            ]
        );
        assert!(
            log[1].details.ends_with("by verification"),
            "{}",
            log[1].details
        );
        assert_eq!(
            log[2].status,
            EventStatus::Verification(VerificationStatus::Declined)
        );
    }

    #[test]
    fn a_repeated_ssn_is_counted_within_its_merchant_only_and_review_decides_nothing() {
        let w = world(true);
        let first = submitted(&w, "m1", "first", "123456702");
        let second = submitted(&w, "m1", "second", "123456702");
        let elsewhere = submitted(&w, "m2", "elsewhere", "123456702");
        let outcomes: Vec<VerificationStatus> = (0..3)
            .map(|_| {
                block_on(w.service.run_next())
                    .expect("ran")
                    .expect("a job")
                    .status
            })
            .collect();
        assert_eq!(
            outcomes,
            [
                VerificationStatus::Passed,
                VerificationStatus::Review,
                VerificationStatus::Passed
            ]
        );
        assert_eq!(status_of(&w, "m1", &first), ProfileStatus::Approved);
        assert_eq!(
            status_of(&w, "m1", &second),
            ProfileStatus::Pending,
            "review is left to a person"
        );
        assert_eq!(status_of(&w, "m2", &elsewhere), ProfileStatus::Approved);
    }

    /// Hands in a licence for the client's quiz: an image whose barcode reads `number`.
    fn licence(w: &World, profile: &ProfileId, document: &str, number: &str) {
        let file_id: crate::ids::FileId = format!("f-{document}").into();
        let bytes = format!("image of {document}").into_bytes();
        w.files.put(&file_id, &bytes);
        let read = DocumentRead {
            source: Some(ReadSource::Barcode),
            issuer: Some("CA".into()),
            first_name: Some("ADA".into()),
            last_name: Some("LOVELACE".into()),
            document_number: Some(number.into()),
            ..DocumentRead::default()
        };
        w.images.answer(
            &bytes,
            ImageReport {
                barcode: Some(BarcodeReading::Read(read)),
                ..ImageReport::default()
            },
        );
        w.data.hand_in(Document {
            id: document.into(),
            merchant_id: MerchantId::new("m1"),
            profile_id: profile.clone(),
            quiz_id: format!("q-{}", profile).into(),
            step: Feature::DriverLicenceUpload,
            status: DocumentStatus::Pending,
            evidence: Evidence::Files(vec![StoredFile {
                file_id,
                file_name: "back.png".into(),
                file_type: FileType::Png,
                size_bytes: bytes.len() as u64,
                sha256: "00".repeat(32),
                side: Some(Side::Back),
            }]),
            read: Vec::new(),
            created_at: OffsetDateTime::UNIX_EPOCH,
            updated_at: OffsetDateTime::UNIX_EPOCH,
        });
    }

    /// The world's images, counting how often one is examined, and changing a profile
    /// (as a merchant's update would) while the first image is looked at.
    struct ChangingWhileExamined {
        images: Arc<ScriptedImages>,
        data: Arc<MemoryProfiles>,
        changed: ProfileId,
        examined: std::sync::atomic::AtomicUsize,
    }

    #[async_trait::async_trait]
    impl ImageAnalysis for ChangingWhileExamined {
        async fn room(&self, merchant: &MerchantId) -> crate::ports::ImageRoom {
            self.images.room(merchant).await
        }

        async fn room_within(
            &self,
            merchant: &MerchantId,
            wait: std::time::Duration,
        ) -> Option<crate::ports::ImageRoom> {
            self.images.room_within(merchant, wait).await
        }

        async fn examine(
            &self,
            room: crate::ports::ImageRoom,
            image: Vec<u8>,
            wanted: crate::verification::Wanted,
        ) -> ImageReport {
            use std::sync::atomic::Ordering;
            if self.examined.fetch_add(1, Ordering::SeqCst) == 0 {
                let merchant = MerchantId::new("m1");
                let mut profile = self
                    .data
                    .find_by_id(&merchant, &self.changed)
                    .await
                    .expect("read")
                    .expect("found");
                profile.revision += 1;
                let event = LoggedEvent::about(
                    "e-meanwhile".into(),
                    &profile,
                    Activity::ProfileUpdated,
                    "",
                    OffsetDateTime::UNIX_EPOCH,
                );
                let entry = crate::outbox::Entry {
                    event,
                    deliveries: Vec::new(),
                };
                self.data.update(&profile, &entry).await.expect("changed");
            }
            self.images.examine(room, image, wanted).await
        }
    }

    #[test]
    fn a_run_retried_after_a_conflict_keeps_what_the_images_said() {
        let mut w = world(true);
        let client = submitted(&w, "m1", "client", "123456702");
        licence(&w, &client, "d-client", "D-123 456");
        let images = Arc::new(ChangingWhileExamined {
            images: w.images.clone(),
            data: w.data.clone(),
            changed: client.clone(),
            examined: std::sync::atomic::AtomicUsize::new(0),
        });
        w.service.ports.images = images.clone();
        let done = block_on(w.service.run_next()).expect("ran").expect("a job");
        assert_eq!(done.status, VerificationStatus::Passed);
        assert_eq!(
            status_of(&w, "m1", &client),
            ProfileStatus::Approved,
            "written on the second try, over the change"
        );
        assert_eq!(
            images.examined.load(std::sync::atomic::Ordering::SeqCst),
            1,
            "the image was examined once"
        );
    }

    #[test]
    fn what_is_read_is_kept_on_the_document_and_a_document_on_two_profiles_is_found() {
        let w = world(false);
        let first = submitted(&w, "m1", "first", "123456702");
        let second = submitted(&w, "m1", "second", "123456703");
        licence(&w, &first, "d-first", "D-123 456");
        licence(&w, &second, "d-second", "d123456");
        let runs: Vec<Verification> = (0..2)
            .map(|_| block_on(w.service.run_next()).expect("ran").expect("a job"))
            .collect();
        let check = |v: &Verification, name| {
            v.checks
                .iter()
                .find(|c| c.name == name)
                .cloned()
                .expect("listed")
        };
        assert_eq!(
            check(&runs[0], CheckName::Barcode).status,
            CheckStatus::Passed
        );
        assert_eq!(
            check(&runs[0], CheckName::NameMatch).status,
            CheckStatus::Passed
        );
        assert_eq!(
            check(&runs[0], CheckName::DuplicateIdentity).status,
            CheckStatus::Passed
        );
        assert_eq!(
            check(&runs[1], CheckName::DuplicateIdentity).reasons,
            [Reason::DocumentUsedByAnotherProfile]
        );
        let kept = w.data.document(&"d-first".into()).expect("stored").read;
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].document_number.as_deref(), Some("D-123 456"));
    }
}
