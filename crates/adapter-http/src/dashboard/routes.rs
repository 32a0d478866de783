//! The dashboard's route table: every address under `/dashboard`, its method, who may
//! reach it, and its handler, as data. The scope is built from it, and the e2e guard reads
//! it (`adapter_http::dashboard_routes`) to check every address does as it says here.

use actix_web::http::header::{ALLOW, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::from_fn;
use actix_web::web;

use super::{BASE, audit, documents, home, login, origin, profile, profiles, quizzes, settings};
use super::{error::message, screening, templates, verification};
use crate::pages::{Referrer, security_headers};

/// Who may reach an address. Its handler's extractors decide it; the table says it, for
/// the e2e guard to check the two agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone: the home redirect and signing in.
    Anyone,
    /// A signed-in reviewer or admin (`Reviewer`, `Posted`).
    Reviewer,
    /// A signed-in admin (`Admin`, `AdminPosted`).
    Admin,
}

/// What a route's handler is: given the route for its method, the route to it.
type Handler = fn(actix_web::Route) -> actix_web::Route;

/// One address of the dashboard.
struct Route {
    method: Method,
    /// The path under `/dashboard`, `{name}` for a segment the handler reads.
    path: &'static str,
    access: Access,
    handler: Handler,
}

const fn get(path: &'static str, access: Access, handler: Handler) -> Route {
    Route {
        method: Method::GET,
        path,
        access,
        handler,
    }
}

const fn post(path: &'static str, access: Access, handler: Handler) -> Route {
    Route {
        method: Method::POST,
        path,
        access,
        handler,
    }
}

use Access::{Admin, Anyone, Reviewer};

const ROUTES: &[Route] = &[
    get("", Anyone, |r| r.to(home)),
    get("/", Anyone, |r| r.to(home)),
    get("/login", Anyone, |r| r.to(login::form)),
    post("/login", Anyone, |r| r.to(login::sign_in)),
    post("/logout", Reviewer, |r| r.to(login::sign_out)),
    get("/profiles", Reviewer, |r| r.to(profiles::list)),
    get("/profiles/{id}", Reviewer, |r| r.to(profile::show)),
    post("/profiles/{id}/status", Reviewer, |r| {
        r.to(profile::set_status)
    }),
    post("/profiles/{id}/notes", Reviewer, |r| {
        r.to(profile::add_note)
    }),
    post("/profiles/{id}/screening", Reviewer, |r| {
        r.to(screening::dispose)
    }),
    post("/profiles/{id}/face/block", Reviewer, |r| {
        r.to(verification::block_face)
    }),
    post("/profiles/{id}/quizzes", Reviewer, |r| {
        r.to(quizzes::create)
    }),
    get("/quizzes/{id}", Reviewer, |r| r.to(quizzes::show)),
    post("/quizzes/{id}/verify", Reviewer, |r| {
        r.to(verification::rerun)
    }),
    post("/settings/verification", Admin, |r| {
        r.to(verification::save_policy)
    }),
    post("/documents/{id}/status", Reviewer, |r| {
        r.to(documents::set_status)
    }),
    get("/documents/{id}/files/{file_id}", Reviewer, |r| {
        r.to(documents::file)
    }),
    get("/templates", Reviewer, |r| r.to(templates::list)),
    get("/audit", Admin, |r| r.to(audit::list)),
    get("/settings", Reviewer, |r| r.to(settings::show)),
    post("/settings", Admin, |r| r.to(settings::save)),
    post("/settings/retention", Admin, |r| {
        r.to(settings::save_retention)
    }),
    post("/settings/keys", Admin, |r| r.to(settings::create_key)),
    post("/settings/keys/{key}/disable", Admin, |r| {
        r.to(settings::disable_key)
    }),
];

/// Every dashboard address: its method, its full path pattern and who may reach it.
pub fn listed() -> Vec<(&'static str, String, Access)> {
    ROUTES
        .iter()
        .map(|r| (r.method.as_str(), format!("{BASE}{}", r.path), r.access))
        .collect()
}

/// The dashboard's scope: one resource per path with its methods; any other method is
/// answered 405 with `Allow` naming them (RFC 9110 §15.5.6).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope(BASE)
            .wrap(from_fn(origin::same_origin_posts))
            .wrap(security_headers(Referrer::SameOrigin))
            .configure(resources),
    );
}

fn resources(cfg: &mut web::ServiceConfig) {
    let mut paths: Vec<&str> = Vec::new();
    for route in ROUTES {
        if !paths.contains(&route.path) {
            paths.push(route.path);
        }
    }
    for path in paths {
        let routes = ROUTES.iter().filter(|r| r.path == path);
        let methods: Vec<&str> = routes.clone().map(|r| r.method.as_str()).collect();
        let allow = HeaderValue::from_str(&methods.join(", ")).ok();
        let resource = routes.fold(web::resource(path), |resource, r| {
            resource.route((r.handler)(web::method(r.method.clone())))
        });
        cfg.service(resource.default_service(web::to(move || {
            let mut answer = message(
                StatusCode::METHOD_NOT_ALLOWED,
                "Not allowed",
                "This address does not take this kind of request.",
            );
            if let Some(allow) = &allow {
                answer.headers_mut().insert(ALLOW, allow.clone());
            }
            async move { answer }
        })));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_address_is_listed_once_and_signing_in_is_the_one_open_post() {
        let listed = listed();
        for (i, route) in listed.iter().enumerate() {
            assert!(
                !listed[..i]
                    .iter()
                    .any(|r| (r.0, &r.1) == (route.0, &route.1)),
                "{route:?} twice"
            );
        }
        // Signing in is the one post anyone may make: it checks its own token.
        let open_posts: Vec<&str> = ROUTES
            .iter()
            .filter(|r| r.method == Method::POST && r.access == Access::Anyone)
            .map(|r| r.path)
            .collect();
        assert_eq!(open_posts, ["/login"]);
    }
}
