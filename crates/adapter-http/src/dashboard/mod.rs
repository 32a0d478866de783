//! The merchant's dashboard (contract §10): server-rendered pages for the people who
//! review clients, another adapter over the same domain services as the JSON API. This
//! first part holds signing in and out, sessions, CSRF and the profile list.

mod login;
mod profile;
mod profiles;

use actix_web::cookie::{Cookie, SameSite};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use domain::session::{Session, SessionToken};

use crate::handlers::State;
use crate::pages::{html, redirect_to, security_headers, wants_json};

/// The cookie that holds a browser's session token.
const SESSION_COOKIE: &str = "idv_session";
/// Where the dashboard lives: the cookie is sent nowhere else.
const BASE: &str = "/dashboard";

/// How the dashboard is run, beside the services.
#[derive(Debug, Clone, Copy)]
pub struct DashboardSettings {
    /// Cookies carry `Secure` (the public address is https).
    pub secure_cookies: bool,
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
        Err(e) => {
            tracing::error!(error = %e, "session lookup failed");
            Err(message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Unavailable",
                "The service cannot be reached right now. Try again in a moment.",
            ))
        }
    }
}

/// Whether a form post carries the session's CSRF token. Their digests are compared, so
/// the comparison's timing tells nothing about the token.
pub(crate) fn csrf_ok(reviewer: &Reviewer, sent: &str) -> bool {
    let digest = |text: &str| ring::digest::digest(&ring::digest::SHA256, text.as_bytes());
    digest(&reviewer.session.csrf_token).as_ref() == digest(sent).as_ref()
}

/// The answer to a post without the right CSRF token.
pub(crate) fn csrf_refused() -> HttpResponse {
    message(
        StatusCode::FORBIDDEN,
        "Refused",
        "This form has expired or did not come from this dashboard. Go back, reload the page and try again.",
    )
}

fn session_cookie(value: &str, settings: DashboardSettings) -> Cookie<'static> {
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
            .wrap(security_headers())
            .route("", web::get().to(home))
            .route("/", web::get().to(home))
            .route("/login", web::get().to(login::form))
            .route("/login", web::post().to(login::sign_in))
            .route("/logout", web::post().to(login::sign_out))
            .route("/profiles", web::get().to(profiles::list))
            .route("/profiles/{id}", web::get().to(profile::show))
            .route("/profiles/{id}/status", web::post().to(profile::set_status))
            .route("/profiles/{id}/notes", web::post().to(profile::add_note)),
    );
}
