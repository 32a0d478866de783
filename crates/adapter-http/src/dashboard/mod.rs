//! The merchant's dashboard (contract §10): server-rendered pages for the people who
//! review clients, another adapter over the same domain services as the JSON API: signing
//! in and out, sessions and CSRF here; a module per page.

mod audit;
mod documents;
mod login;
mod origin;
mod profile;
mod profiles;
mod quizzes;
mod settings;
mod templates;

use actix_web::cookie::{Cookie, SameSite};
use actix_web::http::StatusCode;
use actix_web::middleware::from_fn;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use std::str::FromStr;

use domain::DomainError;
use domain::services::Initiator;
use domain::session::{Session, SessionToken};
use serde::Deserialize;

use crate::handlers::State;
use crate::pages::{Referrer, html, redirect_to, security_headers, wants_json};

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

/// A signed-in reviewer, as a page sees them.
pub(crate) struct Reviewer {
    pub token: SessionToken,
    pub session: Session,
}

/// The reviewer behind the request's cookie, or the answer that sends the browser to
/// sign in.
pub(crate) async fn reviewer(state: &State, req: &HttpRequest) -> Result<Reviewer, HttpResponse> {
    let to_login = || redirect_to(format!("{BASE}/login"));
    let Some(cookie) = req.cookie(SESSION_COOKIE) else {
        return Err(to_login());
    };
    let token = SessionToken::new(cookie.value());
    match state.sign_in.session(&token).await {
        Ok(Some(session)) => Ok(Reviewer { token, session }),
        Ok(None) => Err(to_login()),
        Err(e) => Err(failed(e)),
    }
}

/// Whether a token sent with a form is the one expected. Their digests are compared, so
/// the comparison's timing tells nothing about the token.
fn same_token(expected: &str, sent: &str) -> bool {
    let digest = |text: &str| ring::digest::digest(&ring::digest::SHA256, text.as_bytes());
    digest(expected).as_ref() == digest(sent).as_ref()
}

/// Whether a form post carries the session's CSRF token.
fn csrf_ok(reviewer: &Reviewer, sent: &str) -> bool {
    same_token(&reviewer.session.csrf_token, sent)
}

/// The signed-in reviewer behind a form post that carries their session's CSRF token;
/// otherwise the answer to give (to sign in, or refused).
pub(crate) async fn poster(
    state: &State,
    req: &HttpRequest,
    csrf_token: &str,
) -> Result<Reviewer, HttpResponse> {
    let reviewer = reviewer(state, req).await?;
    if csrf_ok(&reviewer, csrf_token) {
        Ok(reviewer)
    } else {
        Err(csrf_refused())
    }
}

impl Reviewer {
    /// Who acts through this session, and from where, for the audit trail.
    pub fn initiator(&self, req: &HttpRequest) -> Initiator {
        Initiator {
            auditor: self.session.auditor(),
            address: crate::client_addr::client_ip(req).to_string(),
        }
    }
}

/// Like `poster`, for the addresses only an admin may post to (API keys, settings):
/// a reviewer's post is refused with 403 and changes nothing.
pub(crate) async fn admin_poster(
    state: &State,
    req: &HttpRequest,
    csrf_token: &str,
) -> Result<Reviewer, HttpResponse> {
    let reviewer = poster(state, req, csrf_token).await?;
    if reviewer.session.role.is_admin() {
        Ok(reviewer)
    } else {
        Err(message(
            StatusCode::FORBIDDEN,
            "Refused",
            "Only an admin of this merchant may change API keys and settings.",
        ))
    }
}

/// The answer to a post without the right CSRF token.
fn csrf_refused() -> HttpResponse {
    message(
        StatusCode::FORBIDDEN,
        "Refused",
        "This form has expired or did not come from this dashboard. Go back, reload the page and try again.",
    )
}

/// A form whose only field is the CSRF token (a button that changes something).
#[derive(Deserialize)]
pub(crate) struct CsrfForm {
    #[serde(default)]
    pub csrf_token: String,
}

/// A verdict form: one of the review statuses, and the CSRF token.
#[derive(Deserialize)]
pub(crate) struct StatusForm {
    #[serde(default)]
    pub csrf_token: String,
    #[serde(default)]
    status: String,
}

impl StatusForm {
    /// The status chosen, if it is one of them.
    pub fn status<S: FromStr>(&self) -> Option<S> {
        self.status.parse().ok()
    }
}

/// What a verdict form with no valid status is told.
pub(crate) const CHOOSE_A_STATUS: &str = "Choose one of the statuses.";

/// The answer to a form whose values are refused: nothing was changed.
pub(crate) fn not_saved(text: &str) -> HttpResponse {
    message(StatusCode::BAD_REQUEST, "Not saved", text)
}

/// The 404 page: nothing of the reviewer's merchant has this address (another
/// merchant's object looks exactly the same).
pub(crate) fn not_found() -> HttpResponse {
    message(
        StatusCode::NOT_FOUND,
        "Not found",
        "Nothing of yours has this address.",
    )
}

/// The answer when a domain call fails: a missing object is the 404 page, a refusal
/// names what to fix, anything else is logged and the reviewer asked to retry.
pub(crate) fn failed(e: DomainError) -> HttpResponse {
    match e {
        DomainError::NotFound(_) => not_found(),
        DomainError::Invalid(violations) => not_saved(&violations.to_string()),
        DomainError::KeyLimitReached => not_saved(
            "This merchant already holds 20 enabled API keys. Disable one before making another.",
        ),
        e => {
            tracing::error!(error = %e, "a dashboard page failed");
            message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Unavailable",
                "The service cannot be reached right now. Try again in a moment.",
            )
        }
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

#[derive(Template)]
#[template(path = "dashboard/message.html")]
struct MessagePage<'a> {
    heading: &'a str,
    text: &'a str,
}

pub(crate) fn message(status: StatusCode, heading: &str, text: &str) -> HttpResponse {
    html(status, &MessagePage { heading, text })
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
    cfg.route("/", web::get().to(root)).service(
        web::scope(BASE)
            .wrap(from_fn(origin::same_origin_posts))
            .wrap(security_headers(Referrer::SameOrigin))
            .route("", web::get().to(home))
            .route("/", web::get().to(home))
            .route("/login", web::get().to(login::form))
            .route("/login", web::post().to(login::sign_in))
            .route("/logout", web::post().to(login::sign_out))
            .route("/profiles", web::get().to(profiles::list))
            .route("/profiles/{id}", web::get().to(profile::show))
            .route("/profiles/{id}/status", web::post().to(profile::set_status))
            .route("/profiles/{id}/notes", web::post().to(profile::add_note))
            .route("/profiles/{id}/quizzes", web::post().to(quizzes::create))
            .route("/quizzes/{id}", web::get().to(quizzes::show))
            .route(
                "/documents/{id}/status",
                web::post().to(documents::set_status),
            )
            .route(
                "/documents/{id}/files/{file_id}",
                web::get().to(documents::file),
            )
            .route("/templates", web::get().to(templates::list))
            .route("/audit", web::get().to(audit::list))
            .route("/settings", web::get().to(settings::show))
            .route("/settings", web::post().to(settings::save))
            .route("/settings/keys", web::post().to(settings::create_key))
            .route(
                "/settings/keys/{key}/disable",
                web::post().to(settings::disable_key),
            ),
    );
}
