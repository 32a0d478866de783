//! Notes in memory, over the profiles' data.

use std::sync::Arc;

use async_trait::async_trait;

use super::{MemoryProfiles, page_of};
use crate::note::Note;
use crate::outbox::Entry;
use crate::paging::{Page, Paged};
use crate::ports::{NoteRepository, StoreResult};
use crate::profile::ProfileId;

/// Notes, over the same data as the profiles they belong to.
#[derive(Debug)]
pub struct MemoryNotes(pub Arc<MemoryProfiles>);

#[async_trait]
impl NoteRepository for MemoryNotes {
    async fn insert(&self, note: &Note, entry: &Entry) -> StoreResult<()> {
        self.0.notes.lock().expect("lock").push(note.clone());
        self.0.record(entry);
        Ok(())
    }

    async fn list(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Note>> {
        let notes = self.0.notes.lock().expect("lock");
        let mine = notes
            .iter()
            .filter(|n| &n.profile_id == profile)
            .cloned()
            .collect();
        Ok(page_of(mine, page))
    }
}
