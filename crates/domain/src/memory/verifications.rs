//! Verifications and their queue, in memory, over the profiles' data.

use std::sync::Arc;

use async_trait::async_trait;
use time::OffsetDateTime;

use super::{MemoryProfiles, page_of};
use crate::ids::{DocumentId, QuizId};
use crate::outbox::Entry;
use crate::paging::{Page, Paged};
use crate::ports::{ProfileRepository, StoreError, StoreResult, VerificationRepository};
use crate::profile::{Profile, ProfileId};
use crate::verification::{DocumentRead, Verification, VerificationStatus};

/// Verifications, over the same data as the quizzes whose submission queues them.
#[derive(Debug)]
pub struct MemoryVerifications(pub Arc<MemoryProfiles>);

#[async_trait]
impl VerificationRepository for MemoryVerifications {
    async fn queue(&self, verification: &Verification) -> StoreResult<()> {
        let mut all = self.0.verifications.lock().expect("lock");
        all.push((verification.clone(), None));
        Ok(())
    }

    async fn claim(
        &self,
        now: OffsetDateTime,
        until: OffsetDateTime,
    ) -> StoreResult<Option<Verification>> {
        let mut all = self.0.verifications.lock().expect("lock");
        let free = all.iter_mut().find(|(v, claim)| {
            v.status == VerificationStatus::Pending && claim.is_none_or(|lapses| lapses <= now)
        });
        Ok(free.map(|(v, claim)| {
            *claim = Some(until);
            v.clone()
        }))
    }

    async fn complete(
        &self,
        verification: &Verification,
        entries: &[Entry],
        profile: Option<&Profile>,
        reads: &[(DocumentId, Vec<DocumentRead>)],
    ) -> StoreResult<()> {
        // Gone, or completed already (by a claimer that took up a lapsed claim).
        if !self
            .0
            .verifications
            .lock()
            .expect("lock")
            .iter()
            .any(|(v, _)| v.id == verification.id && v.status == VerificationStatus::Pending)
        {
            return Err(StoreError::Missing);
        }
        if let Some(profile) = profile {
            let (first, rest) = entries.split_first().ok_or(StoreError::Missing)?;
            self.0.update(profile, first).await?;
            rest.iter().for_each(|e| self.0.record(e));
        } else {
            entries.iter().for_each(|e| self.0.record(e));
        }
        let mut all = self.0.verifications.lock().expect("lock");
        let stored = all
            .iter_mut()
            .find(|(v, _)| v.id == verification.id)
            .ok_or(StoreError::Missing)?;
        *stored = (verification.clone(), None);
        drop(all);
        let mut documents = self.0.documents.lock().expect("lock");
        for (id, read) in reads {
            if let Some(document) = documents.iter_mut().find(|d| d.id == *id) {
                document.read = read.clone();
            }
        }
        Ok(())
    }

    async fn latest_of_quiz(&self, quiz: &QuizId) -> StoreResult<Option<Verification>> {
        let all = self.0.verifications.lock().expect("lock");
        Ok(all
            .iter()
            .rev()
            .find(|(v, _)| &v.quiz_id == quiz)
            .map(|(v, _)| v.clone()))
    }

    async fn list_of_profile(
        &self,
        profile: &ProfileId,
        page: Page,
    ) -> StoreResult<Paged<Verification>> {
        let all = self.0.verifications.lock().expect("lock");
        let mine: Vec<Verification> = all
            .iter()
            .filter(|(v, _)| &v.profile_id == profile)
            .map(|(v, _)| v.clone())
            .collect();
        Ok(page_of(mine, page))
    }
}
