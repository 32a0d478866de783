//! Signing in and out.

use actix_web::cookie::Cookie;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use domain::services::{Credentials, SignIn};
use serde::Deserialize;

use super::{BASE, CsrfForm, DashboardSettings, SESSION_COOKIE, poster};
use crate::client_addr::client_ip;
use crate::handlers::State;
use crate::pages::{html, redirect_to};

#[derive(Template)]
#[template(path = "dashboard/login.html")]
struct LoginPage<'a> {
    email: &'a str,
    error: Option<&'a str>,
}

pub(super) async fn form() -> HttpResponse {
    html(
        StatusCode::OK,
        &LoginPage {
            email: "",
            error: None,
        },
    )
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
}

pub(super) async fn sign_in(
    state: State,
    settings: web::Data<DashboardSettings>,
    req: HttpRequest,
    form: web::Form<LoginForm>,
) -> HttpResponse {
    let address = client_ip(&req).to_string();
    let outcome = state
        .sign_in
        .sign_in(Credentials {
            email: &form.email,
            password: &form.password,
            code: &form.totp,
            address: &address,
        })
        .await;
    let refused = |status, error| {
        html(
            status,
            &LoginPage {
                email: form.email.trim(),
                error: Some(error),
            },
        )
    };
    match outcome {
        Ok(SignIn::Signed(token, _)) => {
            let mut to_profiles = redirect_to(format!("{BASE}/profiles"));
            match to_profiles.add_cookie(&super::session_cookie(token.expose(), **settings)) {
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
        Err(e) => {
            tracing::error!(error = %e, "sign-in failed");
            refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "The service cannot be reached right now. Try again in a moment.",
            )
        }
    }
}

/// Ends the session at once, server-side, and clears the cookie.
pub(super) async fn sign_out(
    state: State,
    req: HttpRequest,
    form: web::Form<CsrfForm>,
) -> HttpResponse {
    let reviewer = match poster(&state, &req, &form.csrf_token).await {
        Ok(r) => r,
        Err(answer) => return answer,
    };
    let address = client_ip(&req).to_string();
    if let Err(e) = state
        .sign_in
        .sign_out(&reviewer.token, &reviewer.session, &address)
        .await
    {
        tracing::error!(error = %e, "sign-out failed");
    }
    let mut to_login = redirect_to(format!("{BASE}/login"));
    let mut gone = Cookie::build(SESSION_COOKIE, "").path(BASE).finish();
    gone.make_removal();
    let _ = to_login.add_cookie(&gone);
    to_login
}
