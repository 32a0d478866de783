use actix_web::HttpResponse;
use serde::Serialize;

use crate::error::ApiError;
use crate::state::State;

/// What the probes answer.
#[derive(Debug, Serialize)]
struct Health {
    status: &'static str,
}

/// `GET /healthz`: the process answers.
pub async fn live() -> HttpResponse {
    HttpResponse::Ok().json(Health { status: "ok" })
}

/// `GET /readyz`: the database answers too; load balancers route on this.
pub async fn ready(state: State) -> Result<HttpResponse, ApiError> {
    state
        .readiness
        .check()
        .await
        .map_err(ApiError::unavailable)?;
    Ok(HttpResponse::Ok().json(Health { status: "ready" }))
}
