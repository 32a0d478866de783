use std::sync::Arc;

use async_trait::async_trait;
use domain::services::Services;

/// Whether the service's dependencies answer; backs `GET /readyz`.
#[async_trait]
pub trait Readiness: Send + Sync {
    async fn check(&self) -> Result<(), String>;
}

/// The shared state as a handler takes it.
pub type State = actix_web::web::Data<ApiState>;

/// What the handlers share: the use cases (reached as `state.profiles`, `state.clock`...)
/// and whether the service's dependencies answer.
#[derive(Clone)]
pub struct ApiState {
    pub services: Services,
    pub readiness: Arc<dyn Readiness>,
}

/// Handlers reach the use cases through the state, as one: `state.quizzes.send(..)`.
impl std::ops::Deref for ApiState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.services
    }
}

impl std::fmt::Debug for ApiState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiState")
    }
}
