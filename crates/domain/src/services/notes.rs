use std::sync::Arc;

use super::find_profile;
use crate::error::DomainError;
use crate::event::{Activity, Actor, Event};
use crate::merchant::MerchantId;
use crate::note::{Note, NoteText};
use crate::outbox::Outbox;
use crate::paging::{Page, Paged};
use crate::ports::{Clock, IdGenerator, NoteRepository, ProfileRepository};
use crate::profile::ProfileKey;

/// A merchant's notes on its profiles.
#[derive(Clone)]
pub struct NoteService {
    profiles: Arc<dyn ProfileRepository>,
    notes: Arc<dyn NoteRepository>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    outbox: Outbox,
}

impl std::fmt::Debug for NoteService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NoteService")
    }
}

impl NoteService {
    /// The service over its ports.
    pub fn new(
        profiles: Arc<dyn ProfileRepository>,
        notes: Arc<dyn NoteRepository>,
        clock: Arc<dyn Clock>,
        ids: Arc<dyn IdGenerator>,
        outbox: Outbox,
    ) -> Self {
        Self {
            profiles,
            notes,
            clock,
            ids,
            outbox,
        }
    }

    /// Writes a note on the profile and records it.
    pub async fn create(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
        text: NoteText,
        actor: Actor<'_>,
    ) -> Result<Note, DomainError> {
        let profile = find_profile(&*self.profiles, merchant, key).await?;
        let now = self.clock.now();
        let note = Note {
            id: self.ids.next_id().into(),
            merchant_id: merchant.clone(),
            profile_id: profile.id.clone(),
            text,
            created_at: now,
        };
        let event = Event::about(
            self.ids.next_id().into(),
            &profile,
            Activity::NoteCreated,
            actor.sign("The merchant added a note"),
            now,
        );
        self.notes
            .insert(&note, &self.outbox.entry(event).await?)
            .await?;
        Ok(note)
    }

    /// Newest first.
    pub async fn list(
        &self,
        merchant: &MerchantId,
        key: &ProfileKey,
        page: Page,
    ) -> Result<Paged<Note>, DomainError> {
        let profile = find_profile(&*self.profiles, merchant, key).await?;
        Ok(self.notes.list(&profile.id, page).await?)
    }
}
