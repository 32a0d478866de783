//! The merchant's dashboard (contract §10): server-rendered pages for the people who
//! review clients, another adapter over the same domain services as the JSON API: signing
//! in and out (`login`), who may reach a handler and how a post is checked (`access`,
//! `origin`), what a handler answers instead of its page (`error`), the route table
//! (`routes`); then a module per page.

mod access;
mod audit;
mod documents;
mod error;
mod login;
mod origin;
mod profile;
mod profiles;
mod quizzes;
mod reading;
mod routes;
mod screening;
mod settings;
mod settings_forms;
mod templates;
mod verification;

use actix_web::cookie::{Cookie, SameSite};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use std::str::FromStr;

use crate::pages::{redirect_to, wants_json};

pub(crate) use access::{Admin, AdminPosted, Button, Posted, Reviewer};
pub(crate) use error::DashboardError;
pub use routes::{Access, listed as routes};

/// The cookie that holds a browser's session token.
const SESSION_COOKIE: &str = "idv_session";
/// Where the dashboard lives: the cookie is sent nowhere else.
const BASE: &str = "/dashboard";

/// How the dashboard is run, beside the services.
#[derive(Debug, Clone)]
pub struct DashboardSettings {
    /// Cookies carry `Secure` (the public address is https).
    pub secure_cookies: bool,
    /// The origin (`scheme://host[:port]`) of the public address: a post whose `Origin`
    /// is neither this nor the address it was sent to came from another site.
    pub public_origin: String,
}

/// What a verdict form with no valid status is told.
const CHOOSE_A_STATUS: &str = "Choose one of the statuses.";

/// A verdict form: one of the review statuses.
#[derive(Deserialize)]
pub(crate) struct StatusForm {
    #[serde(default)]
    status: String,
}

impl StatusForm {
    /// The status chosen, if it is one of them.
    pub fn status<S: FromStr>(&self) -> Result<S, DashboardError> {
        self.status
            .parse()
            .map_err(|_| DashboardError::not_saved(CHOOSE_A_STATUS))
    }
}

fn session_cookie(value: &str, settings: &DashboardSettings) -> Cookie<'static> {
    Cookie::build(SESSION_COOKIE, value.to_owned())
        .path(BASE)
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(settings.secure_cookies)
        .finish()
}

/// `GET /`: a browser goes to the dashboard; a program asking for JSON learns what
/// answers here.
async fn root(req: HttpRequest) -> HttpResponse {
    if wants_json(&req) {
        return HttpResponse::Ok().json(serde_json::json!({
            "service": "idv",
            "version": env!("CARGO_PKG_VERSION"),
            "docs": "/docs",
            "openapi": "/api/v1/openapi.json",
        }));
    }
    redirect_to(BASE.to_owned())
}

/// `GET /dashboard`: the profiles are the dashboard's home.
async fn home() -> HttpResponse {
    redirect_to(format!("{BASE}/profiles"))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(root))
        .configure(routes::configure);
}
