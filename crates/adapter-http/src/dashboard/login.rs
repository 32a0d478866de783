//! Signing in and out. A sign-in is bounded before any password is hashed (contract §16):
//! the client address's budget first (429), then the form's CSRF token, then room in the
//! hasher (503 when as many checks run as the machine allows); the user's own lock-out is
//! counted by the domain in the same step that reads it. A browser that signed in before
//! holds a device mark, which lets its user's check through a room of the hasher a flood
//! cannot take.

use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieAge};
use actix_web::http::StatusCode;
use actix_web::http::header::RETRY_AFTER;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use domain::DomainError;
use domain::error::Report;
use domain::services::{Credentials, SignIn};
use domain::session::KNOWN_DEVICE_FOR;
use ring::rand::{SecureRandom, SystemRandom};
use serde::Deserialize;

use super::access::same_token;
use super::error::message;
use super::{BASE, Button, DashboardSettings, Posted, SESSION_COOKIE};
use crate::edge::client_addr::client_ip;
use crate::edge::ratelimit::RateLimits;
use crate::pages::{html, redirect_to};
use crate::state::State;

/// The cookie that holds the sign-in form's CSRF token: there is no session yet to hold
/// it, so the form's token must match this cookie, which another site can neither read
/// nor set (double submit, `SameSite=Strict`).
const LOGIN_COOKIE: &str = "idv_login";
/// How long a sign-in form stays usable.
const FORM_LIFETIME: CookieAge = CookieAge::hours(1);
/// The cookie that holds the device mark of the browser's last sign-in. Sent only to the
/// sign-in post, never readable by scripts.
const DEVICE_COOKIE: &str = "idv_device";

#[derive(Template)]
#[template(path = "dashboard/login.html")]
struct LoginPage<'a> {
    email: &'a str,
    error: Option<&'a str>,
    csrf_token: &'a str,
}

/// The sign-in form with a fresh CSRF token, and the cookie that token must match.
fn login_page(
    status: StatusCode,
    email: &str,
    error: Option<&str>,
    settings: &DashboardSettings,
) -> HttpResponse {
    let mut bytes = [0u8; 32];
    if SystemRandom::new().fill(&mut bytes).is_err() {
        tracing::error!("no random source for a sign-in form");
        return message(
            StatusCode::SERVICE_UNAVAILABLE,
            "Unavailable",
            "The service cannot be reached right now. Try again in a moment.",
        );
    }
    let token = URL_SAFE_NO_PAD.encode(bytes);
    let mut page = html(
        status,
        &LoginPage {
            email,
            error,
            csrf_token: &token,
        },
    );
    let cookie = Cookie::build(LOGIN_COOKIE, token.clone())
        .path(format!("{BASE}/login"))
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(settings.secure_cookies)
        .max_age(FORM_LIFETIME)
        .finish();
    if let Err(e) = page.add_cookie(&cookie) {
        tracing::error!(error = %e, "sign-in form cookie not set");
    }
    page
}

pub(super) async fn form(settings: web::Data<DashboardSettings>) -> HttpResponse {
    login_page(StatusCode::OK, "", None, &settings)
}

#[derive(Deserialize)]
pub(super) struct LoginForm {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    /// The one-time code, for users with a second factor.
    #[serde(default)]
    totp: String,
    #[serde(default)]
    csrf_token: String,
}

/// A refusal that may be tried again after `seconds`.
fn retry_after(mut answer: HttpResponse, seconds: u64) -> HttpResponse {
    if let Ok(value) = seconds.to_string().parse() {
        answer.headers_mut().insert(RETRY_AFTER, value);
    }
    answer
}

pub(super) async fn sign_in(
    state: State,
    settings: web::Data<DashboardSettings>,
    limits: web::Data<RateLimits>,
    req: HttpRequest,
    form: web::Form<LoginForm>,
) -> HttpResponse {
    let address = client_ip(&req);
    let refused = |status, error| login_page(status, form.email.trim(), Some(error), &settings);
    if let Some(budget) = &limits.sign_in
        && let Err(wait) = budget.check(&address.to_string()).await
    {
        let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
        return retry_after(
            refused(
                StatusCode::TOO_MANY_REQUESTS,
                "Too many sign-in attempts from your network. Wait a minute and try again.",
            ),
            seconds,
        );
    }
    let form_token = req.cookie(LOGIN_COOKIE);
    if !form_token.is_some_and(|cookie| same_token(cookie.value(), &form.csrf_token)) {
        return refused(
            StatusCode::FORBIDDEN,
            "This form has expired or did not come from this dashboard. Sign in again.",
        );
    }
    let address = address.to_string();
    let device = req.cookie(DEVICE_COOKIE);
    let outcome = state
        .sign_in
        .sign_in(Credentials {
            email: &form.email,
            password: &form.password,
            code: &form.totp,
            address: &address,
            device: device.as_ref().map_or("", |c| c.value()),
        })
        .await;
    match outcome {
        Ok(SignIn::Signed(token, _, mark)) => {
            let mut to_profiles = redirect_to(format!("{BASE}/profiles"));
            let device = Cookie::build(DEVICE_COOKIE, mark)
                .path(format!("{BASE}/login"))
                .http_only(true)
                .same_site(SameSite::Strict)
                .secure(settings.secure_cookies)
                .max_age(KNOWN_DEVICE_FOR)
                .finish();
            let cookies = to_profiles
                .add_cookie(&super::session_cookie(token.expose(), &settings))
                .and_then(|()| to_profiles.add_cookie(&device));
            match cookies {
                Ok(()) => to_profiles,
                Err(e) => {
                    tracing::error!(error = %e, "session cookie not set");
                    refused(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        "Signing in failed. Try again.",
                    )
                }
            }
        }
        Ok(SignIn::Refused) => refused(
            StatusCode::UNAUTHORIZED,
            "The e-mail address or the password is not right.",
        ),
        Ok(SignIn::Locked(_)) => refused(
            StatusCode::TOO_MANY_REQUESTS,
            "Too many failed attempts. Signing in is locked for 15 minutes.",
        ),
        Err(DomainError::Busy) => retry_after(
            refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "Many people are signing in right now. Try again in a moment.",
            ),
            1,
        ),
        Err(e) => {
            tracing::error!(error = %Report(&e), "sign-in failed");
            refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "The service cannot be reached right now. Try again in a moment.",
            )
        }
    }
}

/// Ends the session at once, server-side, and clears the cookie.
pub(super) async fn sign_out(state: State, posted: Posted<Button>) -> HttpResponse {
    let reviewer = posted.reviewer;
    let address = reviewer.address.to_string();
    if let Err(e) = state
        .sign_in
        .sign_out(&reviewer.token, &reviewer.session, &address)
        .await
    {
        tracing::error!(error = %Report(&e), "sign-out failed");
    }
    let mut to_login = redirect_to(format!("{BASE}/login"));
    let mut gone = Cookie::build(SESSION_COOKIE, "").path(BASE).finish();
    gone.make_removal();
    let _ = to_login.add_cookie(&gone);
    to_login
}
