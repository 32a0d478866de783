//! In-memory implementations of the ports: the domain's unit tests run on them, and so
//! can another tool's. They pass the same port contract suite (`contract/`) as the
//! SQLite and PostgreSQL adapters, so they behave as those do: a write changes only what
//! the real adapters change, completed steps and submitted fields merge, a profile's
//! deletion takes everything under it.

mod audit;
mod clock;
mod codes;
mod devices;
mod documents;
mod files;
mod hasher;
mod identities;
mod ids;
mod images;
mod limiter;
mod merchants;
mod notes;
mod outbox;
mod profiles;
mod quizzes;
mod screening;
mod sessions;
mod signals;
mod templates;
mod users;
mod verifications;
mod webhooks;

pub use audit::MemoryAudit;
pub use clock::FixedClock;
pub use codes::ReversedCodes;
pub use devices::MemoryDeviceMarks;
pub use documents::MemoryDocuments;
pub use files::MemoryFiles;
pub use hasher::PlainHasher;
pub use identities::MemoryIdentityIndex;
pub use ids::SequentialIds;
pub use images::ScriptedImages;
pub use limiter::MemoryLimiter;
pub use merchants::MemoryMerchants;
pub use notes::MemoryNotes;
pub use outbox::MemorySubscriptions;
pub use outbox::outbox;
pub use profiles::MemoryProfiles;
pub use quizzes::MemoryQuizzes;
pub use screening::MemoryScreening;
pub use sessions::MemorySessions;
pub use signals::MemorySignals;
pub use templates::MemoryTemplates;
pub use users::MemoryUsers;
pub use verifications::MemoryVerifications;
pub use webhooks::MemoryWebhooks;

use crate::event::Event;
use crate::outbox::Entry;
use crate::paging::{Page, Paged};

/// An event as the log keeps it: without its subject, which only deliveries take.
fn logged(entry: &Entry) -> Event {
    Event {
        subject: None,
        ..entry.event.clone()
    }
}

fn page_of<T: Clone>(mut items: Vec<T>, page: Page) -> Paged<T> {
    let total = items.len() as i64;
    items.reverse();
    let items = items
        .into_iter()
        .skip(page.offset() as usize)
        .take(page.limit() as usize)
        .collect();
    Paged {
        items,
        total_count: total,
        filtered: total,
    }
}
