//! Use cases: plain structs over the ports, one per area of the interface.

mod audit;
mod client;
mod documents;
mod merchants;
mod notes;
mod profiles;
mod quizzes;
mod retention;
mod screening;
mod sign_in;
mod templates;
mod users;
mod verifications;
mod webhooks;

pub use audit::{AuditPorts, AuditTrail, Initiator};
pub use client::{ClientPorts, ClientService, FieldsInput, IncomingFile, QuizSession};
pub use documents::{DocumentAt, DocumentPorts, DocumentService, SWEEP_AFTER, SweepReport};
pub use merchants::{MerchantPorts, MerchantService};
pub use notes::{NotePorts, NoteService};
pub use profiles::{ProfilePorts, ProfileService};
pub use quizzes::{QuizPorts, QuizRequest, QuizService, TemplateChoice};
pub use retention::{RetentionPorts, RetentionReport, RetentionService};
pub use screening::{DispositionInput, RESCREEN_AFTER, ScreeningPorts, ScreeningService};
pub use sign_in::{Credentials, SignIn, SignInPorts, SignInService};
pub use templates::{ListChanges, TemplatePorts, TemplateService};
pub use users::{UserPorts, UserService};
pub use verifications::{VerificationPorts, VerificationService, VerificationView};
pub use webhooks::{
    CLAIM_LEASE, IN_FLIGHT_PER_MERCHANT, WebhookInput, WebhookPorts, WebhookService,
};

use std::sync::Arc;

use crate::DomainError;
use crate::error::Resource;
use crate::ids::FileId;
use crate::merchant::MerchantId;
use crate::ports::{Clock, DocumentStore, ImageAnalysis, ImageRoom, ProfileRepository, StoreError};
use crate::profile::{Profile, ProfileKey};
use crate::verification::{ImageReport, Wanted};

/// Every use case, built once over the adapters (the binary's wiring) and shared by what
/// drives them: the API and the dashboard, the background workers, the command line.
#[derive(Clone)]
pub struct Services {
    /// Client profiles.
    pub profiles: ProfileService,
    /// Merchant accounts, keys and settings.
    pub merchants: MerchantService,
    /// Templates of quiz steps.
    pub templates: TemplateService,
    /// Quizzes as the merchant sends them.
    pub quizzes: QuizService,
    /// Quizzes as the client fills them.
    pub client: ClientService,
    /// Documents and their files.
    pub documents: DocumentService,
    /// Notes on profiles.
    pub notes: NoteService,
    /// Webhook endpoints and deliveries.
    pub webhooks: WebhookService,
    /// Dashboard sign-in.
    pub sign_in: SignInService,
    /// Verifications: run, decided, reviewed.
    pub verifications: VerificationService,
    /// What each merchant's retention lets go.
    pub retention: RetentionService,
    /// Sanctions and PEP screening.
    pub screening: ScreeningService,
    /// The audit trail.
    pub audit: AuditTrail,
    /// The clock the services read, and that signatures are checked against.
    pub clock: Arc<dyn Clock>,
}

debug_as_name!(Services);

/// The merchant's profile with this pair, or `NotFound(Profile)`.
async fn find_profile(
    profiles: &dyn ProfileRepository,
    merchant: &MerchantId,
    key: &ProfileKey,
) -> Result<Profile, DomainError> {
    profiles
        .find(merchant, key)
        .await?
        .ok_or(DomainError::NotFound(Resource::Profile))
}

impl From<StoreError> for DomainError {
    /// The default reading of a storage failure; use cases map `Duplicate`, `Missing`
    /// and `Conflict` themselves where those have a meaning for the caller.
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Busy => DomainError::Busy,
            StoreError::LimitReached => DomainError::UploadLimitReached,
            unavailable @ StoreError::Unavailable(_) => {
                DomainError::Unavailable(Box::new(unavailable))
            }
            other => DomainError::Internal(Box::new(other)),
        }
    }
}

/// What `images` finds in a stored file of `merchant`'s, looking for `wanted`, examined
/// in `room`; a file the store no longer holds is reported unreadable (the sweeper or an
/// erasure took it). Room first: the file's bytes are read only when they can be looked
/// at.
async fn examine_stored(
    store: &dyn DocumentStore,
    images: &dyn ImageAnalysis,
    room: ImageRoom,
    file_id: &FileId,
    wanted: Wanted,
) -> Result<ImageReport, DomainError> {
    Ok(match store.get(file_id).await? {
        Some(bytes) => images.examine(room, bytes, wanted).await,
        None => ImageReport::unreadable(wanted),
    })
}

/// Removes the files of a change that has committed (or of an upload given up). Every file
/// is tried, whatever happens to the others; one that cannot be removed now does not undo
/// what was acknowledged: the store reports it, and the sweeper removes later what no
/// document names.
async fn remove_files<'a>(
    store: &dyn DocumentStore,
    file_ids: impl IntoIterator<Item = &'a FileId>,
) {
    for id in file_ids {
        let _ = store.delete(id).await;
    }
}
