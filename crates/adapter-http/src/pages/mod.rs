//! The client's side: the quiz pages and their form posts (contract §6). Public routes:
//! the unguessable token in the address is the only credential.

mod agreement;
mod documents;
mod fields;
mod fingerprint;
mod form_post;
mod locale;
mod open;
mod regions;
mod respond;
mod sniff;
mod submit;
mod view;

use actix_web::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use actix_web::middleware::{DefaultHeaders, from_fn};
use actix_web::{HttpResponse, web};

use crate::edge::ratelimit;

pub(crate) use locale::language_name;
pub(crate) use respond::{html, redirect_to, wants_json};

/// Largest upload: four files of 10 MiB and the form around them. A larger file than
/// allowed is still read (not stored) up to this, so its sender gets a `FILE_INVALID`
/// answer rather than a cut connection.
const MAX_UPLOAD_BYTES: usize = 4 * domain::document::MAX_FILE_BYTES + 64 * 1024;
/// Largest form post other than an upload (fields, agreement, fingerprint).
const MAX_FORM_BYTES: usize = 64 * 1024;

/// How much of a page's address a browser may tell others (`Referrer-Policy`).
#[derive(Clone, Copy)]
pub(crate) enum Referrer {
    /// Nothing, ever: a quiz page's address holds its token.
    Never,
    /// Only to this service: the dashboard's addresses hold no secret, and a browser
    /// that may not tell its own site the referrer sends `Origin: null` on form posts,
    /// which the dashboard's `Origin` check must be able to tell from another site.
    SameOrigin,
}

/// The address holds the token: it must not leak through the Referer, frames, caches or
/// content sniffing. Scripts and styles come only from this service. Wrapped outermost
/// in a scope, so its refusals (429, errors) carry them too.
pub(crate) fn security_headers(referrer: Referrer) -> DefaultHeaders {
    let referrer = match referrer {
        Referrer::Never => "no-referrer",
        Referrer::SameOrigin => "same-origin",
    };
    DefaultHeaders::new()
        .add(("Referrer-Policy", referrer))
        .add((CONTENT_SECURITY_POLICY, content_security_policy(None)))
        .add(("X-Frame-Options", "DENY"))
        .add(("X-Content-Type-Options", "nosniff"))
        .add((CACHE_CONTROL, "no-store"))
}

/// The pages' `Content-Security-Policy`. Forms post to this service only; `onward` (an
/// origin) is also let in where a quiz sends the client on after submitting, since
/// browsers hold the redirect that follows a form post to `form-action` too.
pub(crate) fn content_security_policy(onward: Option<&str>) -> String {
    let onward = onward
        .map(|origin| format!(" {origin}"))
        .unwrap_or_default();
    format!(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
         connect-src 'self'; form-action 'self'{onward}; frame-ancestors 'none'; \
         base-uri 'none'"
    )
}

fn asset(content_type: &'static str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, content_type))
        .insert_header((CACHE_CONTROL, "public, max-age=3600"))
        .body(body)
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/static/quiz.css",
        web::get().to(|| async {
            asset(
                "text/css; charset=utf-8",
                include_str!("../../static/quiz.css"),
            )
        }),
    )
    .route(
        "/static/dashboard.css",
        web::get().to(|| async {
            asset(
                "text/css; charset=utf-8",
                include_str!("../../static/dashboard.css"),
            )
        }),
    )
    .route(
        "/static/quiz.js",
        web::get().to(|| async {
            asset(
                "text/javascript; charset=utf-8",
                include_str!("../../static/quiz.js"),
            )
        }),
    )
    // Each path is a resource of its own: another method than its one is answered 405,
    // with `Allow` naming it (actix's answer for a resource's unmatched method).
    .service(
        web::scope("/q")
            .wrap(from_fn(ratelimit::client_pages))
            .wrap(security_headers(Referrer::Never))
            .service(web::resource("/{code}").get(open::short)),
    )
    .service(
        web::scope("/quiz/{token}")
            .wrap(from_fn(ratelimit::client_pages))
            .wrap(security_headers(Referrer::Never))
            .service(web::resource(["", "/"]).get(open::page))
            .service(web::resource("/fields").post(fields::handle))
            .service(web::resource("/documents").post(documents::handle))
            .service(web::resource("/agreement").post(agreement::handle))
            .service(web::resource("/fingerprint").post(fingerprint::handle))
            .service(web::resource("/submit").post(submit::handle)),
    );
}
