//! Use cases: plain structs over the ports, one per area of the interface.

mod client;
mod documents;
mod merchants;
mod notes;
mod profiles;
mod quizzes;
mod templates;

pub use client::{AddressInput, ClientService, FieldsInput, IncomingFile, QuizSession};
pub use documents::DocumentService;
pub use merchants::MerchantService;
pub use notes::NoteService;
pub use profiles::ProfileService;
pub use quizzes::{QuizPorts, QuizRequest, QuizService, TemplateChoice};
pub use templates::{ListChanges, TemplateService};

use crate::DomainError;
use crate::ports::StoreError;

impl From<StoreError> for DomainError {
    /// The default reading of a storage failure; use cases map `Duplicate`, `Missing`
    /// and `Conflict` themselves where those have a meaning for the caller.
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Unavailable(cause) => DomainError::Unavailable(cause),
            other => DomainError::Internal(other.to_string()),
        }
    }
}
