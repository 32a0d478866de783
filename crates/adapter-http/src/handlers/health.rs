use actix_web::HttpResponse;

use crate::error::ApiError;
use crate::handlers::State;

/// `GET /healthz`: the process answers.
pub async fn live() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "status": "ok" }))
}

/// `GET /readyz`: the database answers too; load balancers route on this.
pub async fn ready(state: State) -> Result<HttpResponse, ApiError> {
    state
        .readiness
        .check()
        .await
        .map_err(ApiError::unavailable)?;
    Ok(HttpResponse::Ok().json(serde_json::json!({ "status": "ready" })))
}
