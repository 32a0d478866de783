use std::sync::Arc;

use async_trait::async_trait;
use domain::ports::Clock;
use domain::services::{
    AuditTrail, ClientService, DocumentService, MerchantService, NoteService, ProfileService,
    QuizService, ScreeningService, SignInService, TemplateService, VerificationService,
    WebhookService,
};

/// Whether the service's dependencies answer; backs `GET /readyz`.
#[async_trait]
pub trait Readiness: Send + Sync {
    async fn check(&self) -> Result<(), String>;
}

/// The shared state as a handler takes it.
pub type State = actix_web::web::Data<ApiState>;

/// What the handlers share: the use cases and the clock signatures are checked against.
#[derive(Clone)]
pub struct ApiState {
    pub profiles: ProfileService,
    pub merchants: MerchantService,
    pub templates: TemplateService,
    pub quizzes: QuizService,
    pub client: ClientService,
    pub documents: DocumentService,
    pub notes: NoteService,
    pub webhooks: WebhookService,
    pub sign_in: SignInService,
    pub audit: AuditTrail,
    pub verifications: VerificationService,
    pub screening: ScreeningService,
    pub clock: Arc<dyn Clock>,
    pub readiness: Arc<dyn Readiness>,
}

impl std::fmt::Debug for ApiState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiState")
    }
}
