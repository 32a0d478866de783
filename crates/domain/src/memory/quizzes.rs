//! Quizzes in memory, over the profiles' data.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use super::{MemoryProfiles, page_of};
use crate::document::Document;
use crate::ids::{FileId, QuizId};
use crate::merchant::MerchantId;
use crate::outbox::Entry;
use crate::paging::{Page, Paged};
use crate::ports::{ProfileRepository, ProfileWrite, QuizRepository, StoreError, StoreResult};
use crate::profile::{ProfileId, SubmittedFormFields};
use crate::quiz::{Quiz, QuizLink, QuizUsage, QuizWithClient, UploadLimits};
use crate::template::Feature;
use crate::verification::Verification;

/// Quizzes over the profile fake, so that quiz creation writes profiles where the
/// profile service reads them.
#[derive(Debug)]
pub struct MemoryQuizzes {
    profiles: Arc<MemoryProfiles>,
    /// What each quiz's link has added, replaced documents included.
    added: Mutex<HashMap<QuizId, QuizUsage>>,
    /// When set, storing a document fails as a lost database would.
    pub refuse_documents: std::sync::atomic::AtomicBool,
}

impl MemoryQuizzes {
    /// Quizzes over `profiles`' data.
    pub fn new(profiles: Arc<MemoryProfiles>) -> Self {
        Self {
            profiles,
            added: Mutex::default(),
            refuse_documents: std::sync::atomic::AtomicBool::new(false),
        }
    }

    fn with_client(&self, quiz: &Quiz) -> Option<QuizWithClient> {
        let profiles = self.profiles.profiles.lock().expect("lock");
        let client = profiles.iter().find(|p| p.id == quiz.profile_id)?.clone();
        Some(QuizWithClient {
            quiz: quiz.clone(),
            client,
        })
    }
}

#[async_trait]
impl QuizRepository for MemoryQuizzes {
    async fn create(
        &self,
        profile: &ProfileWrite,
        quiz: &Quiz,
        entries: &[Entry],
    ) -> StoreResult<()> {
        let (first, rest) = entries
            .split_first()
            .ok_or(StoreError::Internal("no event".into()))?;
        match profile {
            ProfileWrite::Insert(p) => self.profiles.insert(p, first).await?,
            ProfileWrite::Update(p) => self.profiles.update(p, first).await?,
        }
        for entry in rest {
            self.profiles.record(entry);
        }
        self.profiles
            .quizzes
            .lock()
            .expect("lock")
            .push(quiz.clone());
        Ok(())
    }

    async fn find(
        &self,
        merchant: &MerchantId,
        link: &QuizLink,
    ) -> StoreResult<Option<QuizWithClient>> {
        let quiz = {
            let quizzes = self.profiles.quizzes.lock().expect("lock");
            quizzes
                .iter()
                .find(|q| {
                    &q.merchant_id == merchant
                        && q.deleted_at.is_none()
                        && match link {
                            QuizLink::Token(t) => &q.token == t,
                            QuizLink::Code(c) => &q.code == c,
                        }
                })
                .cloned()
        };
        Ok(quiz.and_then(|q| self.with_client(&q)))
    }

    async fn find_by_id(
        &self,
        merchant: &MerchantId,
        id: &QuizId,
    ) -> StoreResult<Option<QuizWithClient>> {
        let quiz = {
            let quizzes = self.profiles.quizzes.lock().expect("lock");
            quizzes
                .iter()
                .find(|q| &q.merchant_id == merchant && q.deleted_at.is_none() && &q.id == id)
                .cloned()
        };
        Ok(quiz.and_then(|q| self.with_client(&q)))
    }

    async fn list(&self, merchant: &MerchantId, page: Page) -> StoreResult<Paged<QuizWithClient>> {
        let quizzes = self.profiles.quizzes.lock().expect("lock").clone();
        let mine = quizzes
            .iter()
            .filter(|q| &q.merchant_id == merchant && q.deleted_at.is_none())
            .filter_map(|q| self.with_client(q))
            .collect();
        Ok(page_of(mine, page))
    }

    async fn list_of_profile(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Quiz>> {
        let quizzes = self.profiles.quizzes.lock().expect("lock");
        let theirs = quizzes
            .iter()
            .filter(|q| &q.profile_id == profile && q.deleted_at.is_none())
            .cloned()
            .collect();
        Ok(page_of(theirs, page))
    }

    async fn mark_expired(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()> {
        self.change(quiz, entry, StoreError::Conflict, |stored| {
            let first = stored.expired_at.is_none();
            first.then(|| stored.expired_at = quiz.expired_at).is_some()
        })
    }

    async fn mark_extended(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()> {
        self.change(quiz, entry, StoreError::Conflict, |stored| {
            let open = stored.submitted_at.is_none();
            if open {
                stored.expiry_days = quiz.expiry_days;
                stored.expires_at = quiz.expires_at;
                stored.expired_at = None;
            }
            open
        })
    }

    async fn mark_deleted(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()> {
        self.change(quiz, entry, StoreError::Missing, |stored| {
            stored.deleted_at = quiz.deleted_at;
            true
        })
    }

    async fn find_live(&self, link: &QuizLink) -> StoreResult<Option<QuizWithClient>> {
        let merchant = {
            let quizzes = self.profiles.quizzes.lock().expect("lock");
            quizzes
                .iter()
                .find(|q| match link {
                    QuizLink::Token(t) => &q.token == t,
                    QuizLink::Code(c) => &q.code == c,
                })
                .map(|q| q.merchant_id.clone())
        };
        match merchant {
            Some(m) => self.find(&m, link).await,
            None => Ok(None),
        }
    }

    async fn mark_opened(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()> {
        self.change(quiz, entry, StoreError::Conflict, |stored| {
            let first = stored.opened_at.is_none();
            first.then(|| stored.opened_at = quiz.opened_at).is_some()
        })
    }

    async fn save_fields(
        &self,
        quiz: &Quiz,
        profile: &ProfileId,
        sent: &SubmittedFormFields,
        entry: &Entry,
    ) -> StoreResult<()> {
        self.change(quiz, entry, StoreError::Conflict, |stored| {
            stored.submitted_at.is_none() && add_steps(stored, quiz)
        })?;
        {
            let mut profiles = self.profiles.profiles.lock().expect("lock");
            let stored = profiles
                .iter_mut()
                .find(|p| &p.id == profile)
                .ok_or(StoreError::Missing)?;
            let submitted = stored.submitted.get_or_insert(SubmittedFormFields {
                created_at: sent.created_at,
                ..SubmittedFormFields::default()
            });
            merge(&mut submitted.address, &sent.address);
            merge(&mut submitted.mobile_number, &sent.mobile_number);
            merge(&mut submitted.email_address, &sent.email_address);
            merge(&mut submitted.date_of_birth, &sent.date_of_birth);
            merge(&mut submitted.ssn, &sent.ssn);
            submitted.updated_at = sent.updated_at;
        }
        Ok(())
    }

    async fn usage(&self, quiz: &Quiz) -> StoreResult<QuizUsage> {
        Ok(self.added(quiz))
    }

    async fn add_document(
        &self,
        quiz: &Quiz,
        document: &Document,
        entry: &Entry,
        limits: UploadLimits,
    ) -> StoreResult<Vec<FileId>> {
        if self.refuse_documents.load(Ordering::SeqCst) {
            return Err(StoreError::Unavailable("database gone".into()));
        }
        let bytes = document.files().iter().map(|f| f.size_bytes).sum();
        if !limits.admits(self.added(quiz), bytes) {
            return Err(StoreError::LimitReached);
        }
        self.change(quiz, entry, StoreError::Conflict, |stored| {
            stored.submitted_at.is_none() && add_steps(stored, quiz)
        })?;
        let mut added = self.added.lock().expect("lock");
        let usage = added.entry(quiz.id.clone()).or_default();
        usage.documents += 1;
        usage.bytes += bytes;
        drop(added);
        let mut documents = self.profiles.documents.lock().expect("lock");
        let (replaced, kept) = std::mem::take(&mut *documents)
            .into_iter()
            .partition::<Vec<_>, _>(|d| document.replaces(d));
        *documents = kept;
        documents.push(document.clone());
        Ok(replaced
            .iter()
            .flat_map(|d| d.files().iter().map(|f| f.file_id.clone()))
            .collect())
    }

    async fn mark_submitted(
        &self,
        quiz: &Quiz,
        entry: &Entry,
        verification: &Verification,
    ) -> StoreResult<()> {
        self.change(quiz, entry, StoreError::Conflict, |stored| {
            let first = stored.submitted_at.is_none();
            first
                .then(|| stored.submitted_at = quiz.submitted_at)
                .is_some()
        })?;
        let mut verifications = self.profiles.verifications.lock().expect("lock");
        verifications.push((verification.clone(), None));
        Ok(())
    }
}

/// A field sent replaces the stored one; a field not sent leaves it.
fn merge<T: Clone>(slot: &mut Option<T>, value: &Option<T>) {
    if value.is_some() {
        slot.clone_from(value);
    }
}

/// Adds the steps `quiz` completed to those stored (another writer's stay).
fn add_steps(stored: &mut Quiz, quiz: &Quiz) -> bool {
    for &step in Feature::ALL {
        if quiz.completed.contains(step) {
            stored.completed.insert(step);
        }
    }
    true
}

impl MemoryQuizzes {
    /// Applies `apply` to the stored quiz (not deleted) and records `event`, as one write;
    /// `refusal` when `apply` declines, `Missing` when the quiz is gone.
    /// The quiz's documents and their bytes, leaving out those `left_out` names.
    fn added(&self, quiz: &Quiz) -> QuizUsage {
        let added = self.added.lock().expect("lock");
        added.get(&quiz.id).copied().unwrap_or_default()
    }

    fn change(
        &self,
        quiz: &Quiz,
        entry: &Entry,
        refusal: StoreError,
        apply: impl FnOnce(&mut Quiz) -> bool,
    ) -> StoreResult<()> {
        let mut quizzes = self.profiles.quizzes.lock().expect("lock");
        let stored = quizzes
            .iter_mut()
            .find(|q| q.id == quiz.id && q.deleted_at.is_none())
            .ok_or(StoreError::Missing)?;
        if !apply(stored) {
            return Err(refusal);
        }
        self.profiles.record(entry);
        Ok(())
    }
}
