//! The client's side of a quiz: opening the link, handing in each step, submitting.

use std::sync::Arc;

use time::OffsetDateTime;

use super::examine_stored;
use crate::document::{
    Document, DocumentStatus, Evidence, FileType, MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD,
    MAX_IMAGE_PIXELS, Side, StoredFile,
};
use crate::error::{DomainError, Resource};
use crate::event::Activity;
use crate::ids::FileId;
use crate::merchant::Language;
use crate::outbox::{Entry, Outbox};
use crate::ports::{
    Clock, DocumentStore, FileUpload, IdGenerator, ImageAnalysis, MerchantRepository,
    QuizRepository, StoreError,
};
use crate::profile::{
    Address, DateOfBirth, Email, PhoneNumber, ShortText, Ssn, SubmittedFormFields,
    check_date_of_birth,
};
use crate::quiz::{Quiz, QuizLink, QuizLinks, QuizState, QuizWithClient, UploadLimits};
use crate::template::{Feature, StepKind};
use crate::validation::{Problem, Violations};
use crate::verification::{QualityIssue, Verification, Wanted};

/// The longest an upload's answer waits for room to judge its images.
pub const QUALITY_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// The form steps' fields; each `None` when not sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldsInput {
    /// The address (`address_submit`).
    pub address: Option<Address>,
    /// The mobile number (`mobile_phone_submit`).
    pub mobile_number: Option<PhoneNumber>,
    /// The e-mail address (`email_address_submit`).
    pub email_address: Option<Email>,
    /// The date of birth (`date_of_birth_submit`).
    pub date_of_birth: Option<DateOfBirth>,
    /// The SSN (`ssn_submit`).
    pub ssn: Option<Ssn>,
}

/// A file as received, with what the adapter learnt from its bytes.
#[derive(Debug, Clone)]
pub struct IncomingFile {
    /// Where its bytes were stored, from [`ClientService::begin_file`].
    pub file_id: FileId,
    /// Already sanitised.
    pub file_name: String,
    /// `None` when the bytes are none of the accepted types.
    pub file_type: Option<FileType>,
    /// Width times height, as an image's header declares them (never decoded); `None`
    /// for a PDF.
    pub pixels: Option<u64>,
    /// Lowercase hex SHA-256 of the bytes as sent.
    pub sha256: String,
    /// The size as sent. A file over the limit is not stored whole (the adapter stops
    /// writing it); this stays the true size, and the file is refused by it.
    pub size_bytes: u64,
}

/// What a quiz page shows.
#[derive(Debug, Clone)]
pub struct QuizSession {
    /// The quiz and its client.
    pub view: QuizWithClient,
    /// The merchant's name, shown to the client.
    pub merchant_name: String,
    /// The merchant's default language for the client's pages.
    pub merchant_language: Language,
    /// The quiz's addresses.
    pub links: QuizLinks,
    /// Where the quiz stands now.
    pub state: QuizState,
}

/// The client's side of a quiz: opening the link, handing in each step, submitting.
#[derive(Clone)]
pub struct ClientService {
    ports: ClientPorts,
    public_url: String,
    limits: UploadLimits,
}

debug_as_name!(ClientService);

/// The ports the client's side works over.
#[derive(Clone)]
pub struct ClientPorts {
    /// Quizzes and what is handed in through them.
    pub quizzes: Arc<dyn QuizRepository>,
    /// Merchants (their names, shown to the client).
    pub merchants: Arc<dyn MerchantRepository>,
    /// Uploaded files.
    pub store: Arc<dyn DocumentStore>,
    /// Judges the images as they arrive.
    pub images: Arc<dyn ImageAnalysis>,
    /// The clock.
    pub clock: Arc<dyn Clock>,
    /// Ids.
    pub ids: Arc<dyn IdGenerator>,
    /// Where the events go, with the deliveries they owe.
    pub outbox: Outbox,
}

debug_as_name!(ClientPorts);

impl ClientService {
    /// The service over its ports; links are made under `public_url`.
    pub fn new(ports: ClientPorts, public_url: impl Into<String>, limits: UploadLimits) -> Self {
        Self {
            ports,
            public_url: public_url.into(),
            limits,
        }
    }

    /// The addresses of a quiz that is not deleted, whatever its state.
    pub async fn find_links(&self, link: &QuizLink) -> Result<QuizLinks, DomainError> {
        let view = self.find(link).await?;
        Ok(QuizLinks::of(&self.public_url, &view.quiz))
    }

    /// `Ok` when the link names a quiz that still takes submissions; checked before a
    /// request's body is read, so a stranger's post to a dead link costs nothing.
    pub async fn ensure_active(&self, link: &QuizLink) -> Result<(), DomainError> {
        self.active(link).await.map(|_| ())
    }

    /// The quiz behind a link, in whatever state; logs the first opening of an active one.
    /// `examples/kyc_flow.rs` plays a client's whole quiz.
    pub async fn open(&self, link: &QuizLink) -> Result<QuizSession, DomainError> {
        let mut view = self.find(link).await?;
        let now = self.ports.clock.now();
        let state = view.quiz.state(now);
        if state == QuizState::Active && view.quiz.opened_at.is_none() {
            view.quiz.opened_at = Some(now);
            let entry = self
                .record_event(
                    &view,
                    Activity::QuizOpened,
                    "The client opened the quiz",
                    now,
                )
                .await?;
            match self.ports.quizzes.mark_opened(&view.quiz, &entry).await {
                Ok(()) | Err(StoreError::Conflict) => {}
                Err(e) => return Err(e.into()),
            }
        }
        let (merchant_name, merchant_language) = self
            .ports
            .merchants
            .find(&view.quiz.merchant_id)
            .await?
            .map(|m| (m.name, m.settings.default_language))
            .unwrap_or_default();
        let links = QuizLinks::of(&self.public_url, &view.quiz);
        Ok(QuizSession {
            view,
            merchant_name,
            merchant_language,
            links,
            state,
        })
    }

    /// Stores the form fields sent for the `*_submit` steps the quiz asks for.
    pub async fn submit_fields(
        &self,
        link: &QuizLink,
        input: FieldsInput,
    ) -> Result<QuizWithClient, DomainError> {
        let mut view = self.active(link).await?;
        let sent = [
            (
                Feature::AddressSubmit,
                "address_line_1",
                input.address.is_some(),
            ),
            (
                Feature::MobilePhoneSubmit,
                "mobile_number",
                input.mobile_number.is_some(),
            ),
            (
                Feature::EmailAddressSubmit,
                "email_address",
                input.email_address.is_some(),
            ),
            (
                Feature::DateOfBirthSubmit,
                "date_of_birth",
                input.date_of_birth.is_some(),
            ),
            (Feature::SsnSubmit, "ssn", input.ssn.is_some()),
        ];
        let mut violations = Violations::new();
        for (feature, field, present) in sent {
            if present && !view.quiz.asks_for(feature) {
                violations.push(field, Problem::Invalid, "is not asked for by this quiz");
            }
        }
        if !sent.iter().any(|(_, _, present)| *present) {
            violations.push(
                "fields",
                Problem::Required,
                "at least one asked field is required",
            );
        }
        let now = self.ports.clock.now();
        check_date_of_birth(input.date_of_birth.as_ref(), now.date(), &mut violations);
        violations.into_result(())?;

        // Only what this post sent: the store writes each field on its own, so a
        // concurrent post of other fields keeps its values.
        let sent_fields = SubmittedFormFields {
            address: input.address.as_ref().map(Address::one_line),
            mobile_number: input.mobile_number,
            email_address: input.email_address,
            date_of_birth: input.date_of_birth,
            ssn: input.ssn,
            created_at: now,
            updated_at: now,
        };
        let mut done = Vec::new();
        for (feature, _, present) in sent {
            if present {
                view.quiz.completed.insert(feature);
                done.push(feature.name());
            }
        }
        let details = format!("The client submitted: {}", done.join(", "));
        let entry = self
            .record_event(&view, Activity::FormFieldsSubmitted, details, now)
            .await?;
        match self
            .ports
            .quizzes
            .save_fields(&view.quiz, &view.client.id, &sent_fields, &entry)
            .await
        {
            Ok(()) => Ok(view),
            Err(StoreError::Conflict) => Err(DomainError::QuizSubmitted),
            Err(e) => Err(e.into()),
        }
    }

    /// The file bytes one more upload to this quiz may carry, checked before the
    /// upload's body is read: `UploadLimitReached` when the link may add no more.
    pub async fn upload_room(&self, link: &QuizLink) -> Result<u64, DomainError> {
        let view = self.active(link).await?;
        let usage = self.ports.quizzes.usage(&view.quiz).await?;
        self.limits
            .room(usage)
            .ok_or(DomainError::UploadLimitReached)
    }

    /// A new file in the store, to be written as its bytes arrive. Its id goes into the
    /// `IncomingFile` handed to [`ClientService::upload`], or to
    /// [`ClientService::discard_files`] if the upload is given up.
    pub async fn begin_file(&self) -> Result<(FileId, Box<dyn FileUpload>), DomainError> {
        let file_id: FileId = self.ports.ids.next_id().into();
        let upload = self.ports.store.begin(&file_id).await?;
        Ok((file_id, upload))
    }

    /// Records 1 to 4 stored files for an upload step as one new document. Files that
    /// are refused, or whose document cannot be stored, are removed from the store.
    pub async fn upload(
        &self,
        link: &QuizLink,
        step: Feature,
        side: Option<Side>,
        files: Vec<IncomingFile>,
    ) -> Result<Document, DomainError> {
        let ids: Vec<FileId> = files.iter().map(|f| f.file_id.clone()).collect();
        let result = self.record_upload(link, step, side, files).await;
        if result.is_err() {
            // The bytes must not outlive a document that was never stored.
            self.discard_files(&ids).await;
        }
        result
    }

    async fn record_upload(
        &self,
        link: &QuizLink,
        step: Feature,
        side: Option<Side>,
        files: Vec<IncomingFile>,
    ) -> Result<Document, DomainError> {
        let view = self.active(link).await?;
        if step.kind() != StepKind::Upload || !view.quiz.asks_for(step) {
            return Err(Violations::single(
                "step",
                Problem::Invalid,
                "is not an upload step of this quiz",
            )
            .into());
        }
        if side.is_some() && !step.has_sides() {
            return Err(Violations::single(
                "side",
                Problem::Invalid,
                "is only asked of a driver's licence or another ID",
            )
            .into());
        }
        let types = check_files(&files)?;
        let now = self.ports.clock.now();
        let stored: Vec<StoredFile> = files
            .into_iter()
            .zip(types)
            .map(|(file, file_type)| StoredFile {
                file_id: file.file_id,
                file_name: file.file_name,
                file_type,
                size_bytes: file.size_bytes,
                sha256: file.sha256,
                side,
            })
            .collect();
        let count = stored.len();
        let document = self.document(&view, step, Evidence::Files(stored), now);
        let details = format!(
            "The client uploaded {} ({count} file{})",
            step.label(),
            if count == 1 { "" } else { "s" }
        );
        self.record(view, step, &document, details, now).await?;
        Ok(document)
    }

    /// Whether the images of a document just uploaded are usable (contract §14: the
    /// client is told at once what to fix): every `document_quality` issue any of them
    /// has, in report order; none for a document of PDFs only. `None` when an image found
    /// no room to be examined within `QUALITY_WAIT` (3 s): the client is answered without
    /// the judgement (the verification judges the images later), so a flood of uploads
    /// neither holds an answer long nor keeps the verifications from the cores.
    pub async fn quality(
        &self,
        document: &Document,
    ) -> Result<Option<Vec<QualityIssue>>, DomainError> {
        let mut issues = Vec::new();
        for file in document
            .files()
            .iter()
            .filter(|f| f.file_type != FileType::Pdf)
        {
            let (store, images) = (self.ports.store.as_ref(), self.ports.images.as_ref());
            let Some(room) = images
                .room_within(&document.merchant_id, QUALITY_WAIT)
                .await
            else {
                return Ok(None);
            };
            let report =
                examine_stored(store, images, room, &file.file_id, Wanted::default()).await?;
            issues.extend(report.quality);
        }
        issues.sort_unstable();
        issues.dedup();
        Ok(Some(issues))
    }

    /// Removes files of an upload that was given up. A file that cannot be removed now is
    /// left to the sweeper, which removes files no document names.
    pub async fn discard_files(&self, file_ids: &[FileId]) {
        super::remove_files(self.ports.store.as_ref(), file_ids).await;
    }

    /// `agreement_sign`: the client's typed full name and consent.
    pub async fn sign_agreement(
        &self,
        link: &QuizLink,
        signed_name: ShortText,
        consent: bool,
    ) -> Result<Document, DomainError> {
        let view = self.active(link).await?;
        let mut violations = Violations::new();
        if !view.quiz.asks_for(Feature::AgreementSign) {
            violations.push(
                "step",
                Problem::Invalid,
                "agreement_sign is not a step of this quiz",
            );
        }
        if !consent {
            violations.push("consent", Problem::Required, "the client must agree");
        }
        violations.into_result(())?;
        let now = self.ports.clock.now();
        // The name signed is kept in the document, not in the log: webhooks carry the
        // log's details, and no personal value beyond the e-mail and mobile (contract §9).
        let details = "The client signed the agreement".to_owned();
        let evidence = Evidence::Agreement {
            signed_name: signed_name.as_str().to_owned(),
            signed_at: now,
        };
        let document = self.document(&view, Feature::AgreementSign, evidence, now);
        self.record(view, Feature::AgreementSign, &document, details, now)
            .await?;
        Ok(document)
    }

    /// `device_finger_print`: a hash the page computed from browser attributes.
    pub async fn fingerprint(
        &self,
        link: &QuizLink,
        fingerprint: String,
    ) -> Result<Document, DomainError> {
        let view = self.active(link).await?;
        if !view.quiz.asks_for(Feature::DeviceFingerPrint) {
            return Err(Violations::single(
                "step",
                Problem::Invalid,
                "device_finger_print is not a step of this quiz",
            )
            .into());
        }
        let valid = fingerprint.len() == 64 && fingerprint.bytes().all(|b| b.is_ascii_hexdigit());
        if !valid {
            return Err(Violations::single(
                "fingerprint",
                Problem::Invalid,
                "must be 64 hex characters",
            )
            .into());
        }
        let now = self.ports.clock.now();
        let evidence = Evidence::Fingerprint {
            fingerprint: fingerprint.to_ascii_lowercase(),
        };
        let document = self.document(&view, Feature::DeviceFingerPrint, evidence, now);
        self.record(
            view,
            Feature::DeviceFingerPrint,
            &document,
            "The client's device was recorded",
            now,
        )
        .await?;
        Ok(document)
    }

    /// Completes the quiz when every required step is done; otherwise names the missing
    /// steps (`<STEP>_REQUIRED`).
    pub async fn complete(&self, link: &QuizLink) -> Result<Quiz, DomainError> {
        let mut view = self.active(link).await?;
        let missing = view.quiz.missing_steps();
        if !missing.is_empty() {
            let mut violations = Violations::new();
            for step in missing {
                let reason = match step.kind() {
                    StepKind::Provider => {
                        "needs an outside provider that this service does not have configured"
                    }
                    _ => "is required",
                };
                violations.push(step.name(), Problem::Required, reason);
            }
            return Err(violations.into());
        }
        let now = self.ports.clock.now();
        view.quiz.submitted_at = Some(now);
        let entry = self
            .record_event(
                &view,
                Activity::QuizSubmitted,
                "The client completed the quiz",
                now,
            )
            .await?;
        let verification = Verification::queued(
            self.ports.ids.next_id().into(),
            &view.quiz.merchant_id,
            &view.quiz.profile_id,
            &view.quiz.id,
            now,
        );
        match self
            .ports
            .quizzes
            .mark_submitted(&view.quiz, &entry, &verification)
            .await
        {
            Ok(()) => Ok(view.quiz),
            Err(StoreError::Conflict) => Err(DomainError::QuizSubmitted),
            Err(e) => Err(e.into()),
        }
    }

    async fn find(&self, link: &QuizLink) -> Result<QuizWithClient, DomainError> {
        self.ports
            .quizzes
            .find_live(link)
            .await?
            .ok_or(DomainError::NotFound(Resource::Quiz))
    }

    /// A quiz that still takes submissions.
    async fn active(&self, link: &QuizLink) -> Result<QuizWithClient, DomainError> {
        let view = self.find(link).await?;
        match view.quiz.state(self.ports.clock.now()) {
            QuizState::Active => Ok(view),
            QuizState::Submitted => Err(DomainError::QuizSubmitted),
            QuizState::Expired => Err(DomainError::QuizExpired),
            QuizState::Deleted => Err(DomainError::NotFound(Resource::Quiz)),
        }
    }

    async fn record(
        &self,
        mut view: QuizWithClient,
        step: Feature,
        document: &Document,
        details: impl Into<String>,
        now: OffsetDateTime,
    ) -> Result<(), DomainError> {
        view.quiz.completed.insert(step);
        let links = QuizLinks::of(&self.public_url, &view.quiz);
        let event = self
            .ports
            .outbox
            .quiz_event(
                &view.client,
                &view.quiz,
                links,
                Activity::DocumentUploaded,
                details,
                now,
            )
            .with_document(&document.id);
        match self
            .ports
            .quizzes
            .add_document(
                &view.quiz,
                document,
                &self.ports.outbox.entry(event).await?,
                self.limits,
            )
            .await
        {
            Ok(replaced) => {
                // The replaced documents no longer name these files; one left here is
                // the sweeper's.
                super::remove_files(self.ports.store.as_ref(), &replaced).await;
                Ok(())
            }
            Err(StoreError::Conflict) => Err(DomainError::QuizSubmitted),
            Err(e) => Err(e.into()),
        }
    }

    fn document(
        &self,
        view: &QuizWithClient,
        step: Feature,
        evidence: Evidence,
        now: OffsetDateTime,
    ) -> Document {
        Document {
            id: self.ports.ids.next_id().into(),
            merchant_id: view.quiz.merchant_id.clone(),
            profile_id: view.client.id.clone(),
            quiz_id: view.quiz.id.clone(),
            step,
            status: DocumentStatus::Pending,
            evidence,
            read: Vec::new(),
            created_at: now,
            updated_at: now,
        }
    }

    /// The entry of a new event about the client's quiz.
    async fn record_event(
        &self,
        view: &QuizWithClient,
        activity: Activity,
        details: impl Into<String>,
        now: OffsetDateTime,
    ) -> Result<Entry, DomainError> {
        let links = QuizLinks::of(&self.public_url, &view.quiz);
        self.ports
            .outbox
            .record_about_quiz(&view.client, &view.quiz, links, activity, details, now)
            .await
    }
}

/// The type of each file, if all of them may be kept: 1 to 4 files, each at most 10 MiB,
/// of an accepted type and, for an image, of at most 50 megapixels.
fn check_files(files: &[IncomingFile]) -> Result<Vec<FileType>, DomainError> {
    let refuse = |problem, reason: String| -> DomainError {
        Violations::single("file", problem, reason).into()
    };
    if files.is_empty() {
        return Err(refuse(
            Problem::Required,
            "at least one file is required".into(),
        ));
    }
    if files.len() > MAX_FILES_PER_UPLOAD {
        return Err(refuse(
            Problem::Invalid,
            format!("at most {MAX_FILES_PER_UPLOAD} files per step"),
        ));
    }
    files
        .iter()
        .map(|file| {
            if file.size_bytes > MAX_FILE_BYTES as u64 {
                return Err(refuse(
                    Problem::Invalid,
                    format!("{} is larger than 10 MiB", file.file_name),
                ));
            }
            if file.pixels.is_some_and(|pixels| pixels > MAX_IMAGE_PIXELS) {
                return Err(refuse(
                    Problem::Invalid,
                    format!("{} declares more than 50 megapixels", file.file_name),
                ));
            }
            file.file_type.ok_or_else(|| {
                refuse(
                    Problem::Invalid,
                    format!("{} is not a JPEG, PNG or PDF", file.file_name),
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Activity;
    use crate::memory::{
        FixedClock, MemoryFiles, MemoryMerchants, MemoryProfiles, MemoryQuizzes, MemoryTemplates,
        SequentialIds,
    };
    use crate::merchant::{Merchant, MerchantId, MerchantSettings};
    use crate::paging::Page;
    use crate::ports::ProfileRepository;
    use crate::profile::{AttributesPatch, Email, PhoneNumber, ProfileChanges, ProfileKey};
    use crate::profile::{Country, LongText, Postal, State};
    use crate::quiz::QuizUsage;
    use crate::services::{QuizPorts, QuizRequest, QuizService, TemplateChoice};
    use crate::template::Requirement;
    use crate::verification::ImageReport;
    use futures_executor::block_on;
    use std::sync::atomic::Ordering;

    struct World {
        client: ClientService,
        quizzes: Arc<MemoryQuizzes>,
        profiles: Arc<MemoryProfiles>,
        files: Arc<MemoryFiles>,
        images: Arc<crate::memory::ScriptedImages>,
        link: QuizLink,
    }

    /// A quiz asking for a passport (required), an address (required) and an SSN
    /// (optional).
    fn world() -> World {
        let clock = Arc::new(FixedClock::default());
        let ids = Arc::new(SequentialIds::default());
        let profiles = Arc::new(MemoryProfiles::default());
        let quizzes = Arc::new(MemoryQuizzes::new(profiles.clone()));
        let merchants = Arc::new(MemoryMerchants::default());
        merchants.insert(Merchant {
            id: MerchantId::new("m1"),
            name: "Acme".into(),
            settings: MerchantSettings::default(),
            created_at: clock.0,
        });
        let files = Arc::new(MemoryFiles::default());
        let ports = QuizPorts {
            quizzes: quizzes.clone(),
            profiles: profiles.clone(),
            templates: Arc::new(MemoryTemplates::default()),
            merchants: merchants.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            secrets: ids.clone(),
            outbox: crate::memory::outbox(ids.clone()),
        };
        let request = QuizRequest {
            key: ProfileKey {
                email: Email::parse("ada@example.com").expect("valid"),
                mobile: PhoneNumber::parse("4165550123").expect("valid"),
            },
            changes: ProfileChanges {
                first_name: ShortText::parse("Ada").expect("valid"),
                last_name: ShortText::parse("Lovelace").expect("valid"),
                attributes: AttributesPatch::default(),
            },
            expiry_days: None,
            redirect_url: None,
            template: TemplateChoice {
                list: Some(vec![
                    (Feature::PassportUpload, Requirement::Required),
                    (Feature::AddressSubmit, Requirement::Required),
                    (Feature::SsnSubmit, Requirement::Optional),
                ]),
                ..TemplateChoice::default()
            },
        };
        let created = block_on(QuizService::new(ports, "https://idv.example").create(
            &MerchantId::new("m1"),
            request,
            crate::event::Actor::Api,
        ))
        .expect("quiz created");
        let images = Arc::new(crate::memory::ScriptedImages::default());
        let client = ClientService::new(
            ClientPorts {
                quizzes: quizzes.clone(),
                merchants,
                store: files.clone(),
                images: images.clone(),
                clock,
                outbox: crate::memory::outbox(ids.clone()),
                ids,
            },
            "https://idv.example",
            UploadLimits::default(),
        );
        World {
            client,
            quizzes,
            profiles,
            files,
            images,
            link: QuizLink::Token(created.quiz.token),
        }
    }

    #[test]
    fn an_upload_is_told_at_once_what_is_wrong_with_its_images() {
        let w = world();
        w.images.answer(
            &[1, 2, 3],
            ImageReport {
                quality: vec![QualityIssue::TooDark, QualityIssue::Blurry],
                ..ImageReport::default()
            },
        );
        let document = block_on(w.client.upload(
            &w.link,
            Feature::PassportUpload,
            None,
            vec![photo(&w), photo(&w)],
        ))
        .expect("stored");
        let issues = block_on(w.client.quality(&document)).expect("judged");
        assert_eq!(
            issues,
            Some(vec![QualityIssue::Blurry, QualityIssue::TooDark])
        );
    }

    /// A JPEG written to the store as an upload would be.
    fn photo(w: &World) -> IncomingFile {
        let (file_id, mut upload) = block_on(w.client.begin_file()).expect("begun");
        block_on(upload.write(vec![1, 2, 3])).expect("written");
        block_on(upload.finish()).expect("finished");
        IncomingFile {
            file_id,
            file_name: "id.jpg".into(),
            file_type: Some(FileType::Jpeg),
            pixels: Some(6),
            sha256: "00".repeat(32),
            size_bytes: 3,
        }
    }

    fn address() -> Address {
        Address::new(
            LongText::parse("1 Main St").expect("valid"),
            None,
            ShortText::parse("Toronto").expect("valid"),
            Some(State::parse("ON").expect("valid")),
            Postal::parse("M5V 2T6").expect("valid"),
            Country::parse("CA").expect("valid"),
        )
        .expect("valid")
    }

    fn activities(w: &World) -> Vec<Activity> {
        let view = block_on(w.client.open(&w.link)).expect("open").view;
        let events = block_on(
            w.profiles
                .events(&view.client.id, Page::new(0, 50).expect("page")),
        )
        .expect("events");
        events.items.iter().map(|e| e.activity).collect()
    }

    #[test]
    fn the_first_opening_alone_is_logged() {
        let w = world();
        block_on(w.client.open(&w.link)).expect("open");
        block_on(w.client.open(&w.link)).expect("open again");
        assert_eq!(
            activities(&w)
                .iter()
                .filter(|a| **a == Activity::QuizOpened)
                .count(),
            1
        );
    }

    #[test]
    fn fields_of_steps_not_asked_for_are_refused() {
        let w = world();
        let input = FieldsInput {
            email_address: Some(Email::parse("a@b.co").expect("valid")),
            ..FieldsInput::default()
        };
        let err = block_on(w.client.submit_fields(&w.link, input)).expect_err("not asked");
        assert!(
            matches!(err, DomainError::Invalid(v) if v.iter().any(|v| v.field == "email_address"))
        );
        let err = block_on(w.client.submit_fields(&w.link, FieldsInput::default()))
            .expect_err("nothing sent");
        assert!(matches!(err, DomainError::Invalid(_)));
    }

    #[test]
    fn submission_waits_for_every_required_step_then_happens_once() {
        let w = world();
        let missing = |r: Result<Quiz, DomainError>| match r {
            Err(DomainError::Invalid(v)) => v.iter().map(|v| v.field.clone()).collect::<Vec<_>>(),
            other => panic!("expected missing steps, got {other:?}"),
        };
        assert_eq!(
            missing(block_on(w.client.complete(&w.link))),
            ["passport_upload", "address_submit"]
        );
        block_on(
            w.client
                .upload(&w.link, Feature::PassportUpload, None, vec![photo(&w)]),
        )
        .expect("uploaded");
        let input = FieldsInput {
            address: Some(address()),
            ..FieldsInput::default()
        };
        block_on(w.client.submit_fields(&w.link, input)).expect("saved");
        let stored = block_on(w.client.open(&w.link)).expect("open").view.client;
        assert_eq!(
            stored.submitted.and_then(|s| s.address).as_deref(),
            Some("1 Main St, Toronto, ON M5V 2T6, CA")
        );
        block_on(w.client.complete(&w.link)).expect("completed: the optional SSN is not needed");
        assert!(matches!(
            block_on(w.client.complete(&w.link)),
            Err(DomainError::QuizSubmitted)
        ));
        assert!(matches!(
            block_on(
                w.client
                    .upload(&w.link, Feature::PassportUpload, None, vec![photo(&w)])
            ),
            Err(DomainError::QuizSubmitted)
        ));
    }

    #[test]
    fn stored_bytes_are_removed_when_the_document_cannot_be_recorded() {
        let w = world();
        w.quizzes.refuse_documents.store(true, Ordering::SeqCst);
        let err = block_on(w.client.upload(
            &w.link,
            Feature::PassportUpload,
            None,
            vec![photo(&w), photo(&w)],
        ));
        assert!(matches!(err, Err(DomainError::Unavailable(_))));
        assert_eq!(w.files.count(), 0, "no orphan bytes");
        w.quizzes.refuse_documents.store(false, Ordering::SeqCst);
        block_on(
            w.client
                .upload(&w.link, Feature::PassportUpload, None, vec![photo(&w)]),
        )
        .expect("uploaded");
        assert_eq!(w.files.count(), 1);
    }

    #[test]
    fn fields_sent_in_separate_posts_are_all_kept() {
        let w = world();
        let address = FieldsInput {
            address: Some(address()),
            ..FieldsInput::default()
        };
        let ssn = FieldsInput {
            ssn: Some(Ssn::parse("123456789").expect("valid")),
            ..FieldsInput::default()
        };
        block_on(w.client.submit_fields(&w.link, address)).expect("address");
        block_on(w.client.submit_fields(&w.link, ssn)).expect("ssn");
        let submitted = block_on(w.client.open(&w.link))
            .expect("open")
            .view
            .client
            .submitted
            .expect("submitted");
        assert!(submitted.address.is_some(), "the address stays");
        assert_eq!(submitted.ssn.as_ref().map(Ssn::as_str), Some("123456789"));
    }

    #[test]
    fn a_link_takes_no_more_documents_than_its_limit() {
        let w = world();
        for _ in 0..UploadLimits::default().max_documents {
            assert!(block_on(w.client.upload_room(&w.link)).is_ok());
            block_on(
                w.client
                    .upload(&w.link, Feature::PassportUpload, None, vec![photo(&w)]),
            )
            .expect("within the limit");
        }
        assert!(matches!(
            block_on(w.client.upload_room(&w.link)),
            Err(DomainError::UploadLimitReached)
        ));
        let before = w.files.count();
        let refused =
            block_on(
                w.client
                    .upload(&w.link, Feature::PassportUpload, None, vec![photo(&w)]),
            );
        assert!(matches!(refused, Err(DomainError::UploadLimitReached)));
        assert_eq!(
            w.files.count(),
            before,
            "the refused file's bytes are removed"
        );
    }

    #[test]
    fn upload_limits_count_documents_and_bytes() {
        let limits = UploadLimits {
            max_documents: 2,
            max_bytes: 100,
        };
        let used = |documents, bytes| QuizUsage { documents, bytes };
        assert_eq!(limits.room(used(0, 0)), Some(100));
        assert_eq!(limits.room(used(1, 40)), Some(60));
        assert_eq!(limits.room(used(2, 0)), None);
        assert_eq!(limits.room(used(1, 100)), None);
        assert!(limits.admits(used(1, 40), 60));
        assert!(!limits.admits(used(1, 40), 61));
        assert!(!limits.admits(used(2, 0), 1));
    }

    #[test]
    fn only_upload_steps_the_quiz_asks_for_take_files() {
        let w = world();
        for step in [Feature::SelfieUpload, Feature::AddressSubmit] {
            let err = block_on(w.client.upload(&w.link, step, None, vec![photo(&w)]))
                .expect_err("not an asked upload");
            assert!(matches!(err, DomainError::Invalid(v) if v.iter().any(|v| v.field == "step")));
        }
        // A passport page has no sides to name.
        let sided = block_on(w.client.upload(
            &w.link,
            Feature::PassportUpload,
            Some(Side::Front),
            vec![photo(&w)],
        ))
        .expect_err("a passport has no sides");
        assert!(matches!(sided, DomainError::Invalid(v) if v.iter().any(|v| v.field == "side")));
    }

    fn file(name: &str, size: usize, file_type: Option<FileType>) -> IncomingFile {
        IncomingFile {
            file_id: "F1".into(),
            file_name: name.into(),
            file_type,
            pixels: None,
            sha256: String::new(),
            size_bytes: size as u64,
        }
    }

    fn code<T>(result: Result<T, DomainError>) -> Option<(String, Problem)> {
        match result {
            Err(DomainError::Invalid(v)) => v.iter().next().map(|v| (v.field.clone(), v.problem)),
            _ => None,
        }
    }

    #[test]
    fn uploads_take_one_to_four_accepted_files_of_at_most_10_mib() {
        let ok = || file("id.jpg", 10, Some(FileType::Jpeg));
        assert!(check_files(&[ok()]).is_ok());
        assert!(check_files(&[ok(), ok(), ok(), ok()]).is_ok());
        assert_eq!(
            code(check_files(&[])),
            Some(("file".into(), Problem::Required))
        );
        assert_eq!(
            code(check_files(&[ok(), ok(), ok(), ok(), ok()])),
            Some(("file".into(), Problem::Invalid))
        );
        assert!(check_files(&[file("big.pdf", MAX_FILE_BYTES, Some(FileType::Pdf))]).is_ok());
        assert!(check_files(&[file("big.pdf", MAX_FILE_BYTES + 1, Some(FileType::Pdf))]).is_err());
        assert!(check_files(&[file("x.jpg", 10, None)]).is_err());
    }

    #[test]
    fn images_declaring_more_than_50_megapixels_are_refused() {
        let image = |pixels| IncomingFile {
            pixels: Some(pixels),
            ..file("id.png", 10, Some(FileType::Png))
        };
        assert!(check_files(&[image(MAX_IMAGE_PIXELS)]).is_ok());
        assert_eq!(
            code(check_files(&[image(MAX_IMAGE_PIXELS + 1)])),
            Some(("file".into(), Problem::Invalid))
        );
        assert!(check_files(&[image(30_000 * 30_000)]).is_err());
    }
}
