//! The route table of the merchant API, `/docs` and the health checks (the quiz pages'
//! routes are in `pages/mod.rs`, the dashboard's in `dashboard/routes.rs`).

use actix_web::http::header::{CACHE_CONTROL, LOCATION};
use actix_web::middleware::DefaultHeaders;
use actix_web::{FromRequest, Handler, HttpResponse, Responder, web};
use domain::merchant::OperationKind::{self, Read, Write};
use utoipa_swagger_ui::SwaggerUi;

use crate::api::openapi;

use crate::api::handlers::{
    document, event, fallback, health, merchant, note, profile, quiz, screening, template,
    verification, webhook,
};

/// Every merchant API operation, under `/api/v1/`, with what it does to the merchant's
/// data: a read-only key may call only those that `Read` (contract §15). The OpenAPI
/// document must hold each (a test checks it), and only these may be registered.
pub const OPERATIONS: [(&str, OperationKind); 38] = [
    ("profile/create", Write),
    ("profile/update", Write),
    ("profile/get", Read),
    ("profile/read", Read),
    ("profile/update-status", Write),
    ("profile/delete", Write),
    ("template/create", Write),
    ("template/update", Write),
    ("template/get", Read),
    ("template/read", Read),
    ("quiz/create", Write),
    ("quiz/get", Read),
    ("quiz/read", Read),
    ("quiz/expire", Write),
    ("quiz/extend", Write),
    ("quiz/delete", Write),
    ("document/get", Read),
    ("document/read", Read),
    ("document/update-status", Write),
    ("document/delete", Write),
    ("document/download", Read),
    ("note/create", Write),
    ("note/read", Read),
    ("event/read", Read),
    ("merchant/settings/get", Read),
    ("merchant/settings/update", Write),
    ("webhook/create", Write),
    ("webhook/read", Read),
    ("webhook/update", Write),
    ("webhook/delete", Write),
    ("webhook/rotate-secret", Write),
    ("webhook/delivery/read", Read),
    ("webhook/delivery/retry", Write),
    ("verification/get", Read),
    ("verification/read", Read),
    // Queues a verification: it changes what the merchant holds.
    ("verification/rerun", Write),
    ("screening/get", Read),
    // A reviewer's decision changes what the merchant holds.
    ("screening/dispose", Write),
];

/// What the operation named `path` (e.g. `profile/get`) does; `None` for what is none.
pub fn kind_of(path: &str) -> Option<OperationKind> {
    OPERATIONS
        .iter()
        .find(|(name, _)| *name == path)
        .map(|&(_, kind)| kind)
}

/// A merchant API operation: POST only; any other method is `HTTP_METHOD_INVALID`.
fn operation<F, Args>(cfg: &mut web::ServiceConfig, path: &str, handler: F)
where
    F: Handler<Args>,
    Args: FromRequest + 'static,
    F::Output: Responder + 'static,
{
    let kind = kind_of(path)
        .unwrap_or_else(|| panic!("{path} must be listed in OPERATIONS (and documented)"));
    cfg.service(
        web::resource(format!("/{path}"))
            // The signed-request extractor refuses a read-only key what this kind forbids.
            .app_data(kind)
            .route(web::post().to(handler))
            .default_service(web::to(fallback::method_not_allowed)),
    );
}

/// Every API answer, success or error: it holds a merchant's data, so no cache keeps it,
/// and no client reads it as another type than it says.
fn api_headers() -> DefaultHeaders {
    DefaultHeaders::new()
        .add((CACHE_CONTROL, "no-store"))
        .add(("X-Content-Type-Options", "nosniff"))
}

/// The Swagger UI is served from the binary and works offline: its scripts, styles and
/// images come from here (its CSS holds images as `data:` addresses), and it fetches
/// only the OpenAPI document. The one inline style it needs, its logo's colours (an SVG
/// `<style>` element), is allowed by its hash; a browser test checks that nothing else
/// is refused.
fn docs_headers() -> DefaultHeaders {
    DefaultHeaders::new()
        .add((
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; \
             style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='; \
             img-src 'self' data:; connect-src 'self'; form-action 'none'; \
             frame-ancestors 'none'; base-uri 'none'",
        ))
        .add(("X-Content-Type-Options", "nosniff"))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/healthz", web::get().to(health::live))
        .route("/readyz", web::get().to(health::ready))
        .service(
            web::scope("/docs")
                .wrap(docs_headers())
                .route(
                    "",
                    web::get().to(|| async {
                        HttpResponse::Found()
                            .insert_header((LOCATION, "/docs/"))
                            .finish()
                    }),
                )
                .service(
                    SwaggerUi::new("/{_:.*}").config(
                        utoipa_swagger_ui::Config::from("/api/v1/openapi.json")
                            .try_it_out_enabled(false),
                    ),
                ),
        )
        // Paths under the API's prefix that no operation serves (404, 405) are API
        // answers too: the scope's headers hold for them.
        .service(
            web::scope("/api/v1")
                .wrap(api_headers())
                .route(
                    "/openapi.json",
                    web::get().to(|| async {
                        HttpResponse::Ok()
                            .content_type("application/json")
                            .body(openapi::document_json())
                    }),
                )
                .configure(operations),
        );
}

/// The merchant operations, under `/api/v1/`.
fn operations(cfg: &mut web::ServiceConfig) {
    operation(cfg, "profile/create", profile::create::handle);
    operation(cfg, "profile/update", profile::update::handle);
    operation(cfg, "profile/get", profile::get::handle);
    operation(cfg, "profile/read", profile::read::handle);
    operation(cfg, "profile/update-status", profile::update_status::handle);
    operation(cfg, "profile/delete", profile::delete::handle);
    operation(cfg, "template/create", template::create::handle);
    operation(cfg, "template/update", template::update::handle);
    operation(cfg, "template/get", template::get::handle);
    operation(cfg, "template/read", template::read::handle);
    operation(cfg, "quiz/create", quiz::create::handle);
    operation(cfg, "quiz/get", quiz::get::handle);
    operation(cfg, "quiz/read", quiz::read::handle);
    operation(cfg, "quiz/expire", quiz::expire::handle);
    operation(cfg, "quiz/extend", quiz::extend::handle);
    operation(cfg, "quiz/delete", quiz::delete::handle);
    operation(cfg, "document/get", document::get::handle);
    operation(cfg, "document/read", document::read::handle);
    operation(
        cfg,
        "document/update-status",
        document::update_status::handle,
    );
    operation(cfg, "document/delete", document::delete::handle);
    operation(cfg, "document/download", document::download::handle);
    operation(cfg, "note/create", note::create::handle);
    operation(cfg, "note/read", note::read::handle);
    operation(cfg, "event/read", event::read::handle);
    operation(cfg, "merchant/settings/get", merchant::settings_get::handle);
    operation(
        cfg,
        "merchant/settings/update",
        merchant::settings_update::handle,
    );
    operation(cfg, "webhook/create", webhook::create::handle);
    operation(cfg, "webhook/read", webhook::read::handle);
    operation(cfg, "webhook/update", webhook::update::handle);
    operation(cfg, "webhook/delete", webhook::delete::handle);
    operation(cfg, "webhook/rotate-secret", webhook::rotate_secret::handle);
    operation(cfg, "webhook/delivery/read", webhook::delivery_read::handle);
    operation(
        cfg,
        "webhook/delivery/retry",
        webhook::delivery_retry::handle,
    );
    operation(cfg, "verification/get", verification::get::handle);
    operation(cfg, "verification/read", verification::read::handle);
    operation(cfg, "verification/rerun", verification::rerun::handle);
    operation(cfg, "screening/get", screening::get::handle);
    operation(cfg, "screening/dispose", screening::dispose::handle);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The contract lets a read-only key call the `get` and `read` operations; downloading
    /// a document's file reads too. Every other operation changes something. A new
    /// operation is classified in `OPERATIONS` before it can be registered, and this keeps
    /// the classification true to its name.
    #[test]
    fn the_operations_that_read_are_those_named_get_read_or_download() {
        for (path, kind) in OPERATIONS {
            let verb = path.rsplit('/').next().unwrap_or_default();
            let reads = matches!(verb, "get" | "read" | "download");
            assert_eq!(kind == Read, reads, "{path} is classified {kind:?}");
        }
        let reading: Vec<&str> = OPERATIONS
            .iter()
            .filter(|(_, kind)| *kind == Read)
            .map(|(path, _)| *path)
            .collect();
        assert_eq!(reading.len(), 17, "{reading:?}");
        for path in [
            "document/download",
            "screening/get",
            "merchant/settings/get",
            "webhook/read",
            "webhook/delivery/read",
        ] {
            assert_eq!(kind_of(path), Some(Read), "{path}");
        }
        for path in [
            "screening/dispose",
            "webhook/delivery/retry",
            "webhook/rotate-secret",
            "quiz/expire",
        ] {
            assert_eq!(kind_of(path), Some(Write), "{path}");
        }
        let mut names: Vec<&str> = OPERATIONS.iter().map(|(path, _)| *path).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), OPERATIONS.len(), "each operation once");
    }

    #[test]
    fn every_registered_operation_is_classified() {
        // Registering panics on an operation missing from the table.
        let _ = actix_web::App::new().configure(operations);
        assert_eq!(kind_of("profile/export"), None);
    }

    #[test]
    #[should_panic(expected = "must be listed in OPERATIONS")]
    fn an_operation_missing_from_the_table_cannot_be_registered() {
        let _ = actix_web::App::new().configure(|cfg| {
            operation(cfg, "profile/export", profile::get::handle);
        });
    }
}
