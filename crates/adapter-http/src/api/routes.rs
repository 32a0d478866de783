//! The route table of the merchant API, `/docs` and the health checks (the quiz pages'
//! routes are in `pages/mod.rs`, the dashboard's in `dashboard/routes.rs`).

use actix_web::http::header::{CACHE_CONTROL, LOCATION};
use actix_web::middleware::DefaultHeaders;
use actix_web::{FromRequest, Handler, HttpResponse, Responder, web};
use domain::merchant::OperationKind::{self, Read, Write};
use utoipa_swagger_ui::SwaggerUi;

use crate::api::openapi::ApiDocument;

use crate::api::handlers::{
    document, event, fallback, health, merchant, note, profile, quiz, screening, template,
    verification, webhook,
};

/// Declares every merchant API operation once: its path under `/api/v1/`, what it does to
/// the merchant's data, and its handler. The route table (`operations`), the
/// classification a read-only key is held to (`OPERATIONS`, contract §15) and the paths
/// of the OpenAPI document (`Documented`) are all made from the one list; the metrics
/// label a request by the route it matched.
macro_rules! operations {
    ($($path:literal => $kind:ident, $($handler:ident)::+;)*) => {
        /// Every merchant API operation, with what it does to the merchant's data: a
        /// read-only key may call only those that `Read`.
        pub const OPERATIONS: &[(&str, OperationKind)] = &[$(($path, $kind)),*];

        /// The merchant operations, under `/api/v1/`.
        fn operations(cfg: &mut web::ServiceConfig) {
            $(operation(cfg, $path, $kind, $($handler)::+);)*
        }

        /// The operations as their handlers' `#[utoipa::path]`s describe them.
        #[derive(utoipa::OpenApi)]
        #[openapi(paths($($($handler)::+),*))]
        pub(crate) struct Documented;
    };
}

operations! {
    "profile/create" => Write, profile::create::handle;
    "profile/update" => Write, profile::update::handle;
    "profile/get" => Read, profile::get::handle;
    "profile/read" => Read, profile::read::handle;
    "profile/update-status" => Write, profile::update_status::handle;
    "profile/delete" => Write, profile::delete::handle;
    "template/create" => Write, template::create::handle;
    "template/update" => Write, template::update::handle;
    "template/get" => Read, template::get::handle;
    "template/read" => Read, template::read::handle;
    "quiz/create" => Write, quiz::create::handle;
    "quiz/get" => Read, quiz::get::handle;
    "quiz/read" => Read, quiz::read::handle;
    "quiz/expire" => Write, quiz::expire::handle;
    "quiz/extend" => Write, quiz::extend::handle;
    "quiz/delete" => Write, quiz::delete::handle;
    "document/get" => Read, document::get::handle;
    "document/read" => Read, document::read::handle;
    "document/update-status" => Write, document::update_status::handle;
    "document/delete" => Write, document::delete::handle;
    "document/download" => Read, document::download::handle;
    "note/create" => Write, note::create::handle;
    "note/read" => Read, note::read::handle;
    "event/read" => Read, event::read::handle;
    "merchant/settings/get" => Read, merchant::settings_get::handle;
    "merchant/settings/update" => Write, merchant::settings_update::handle;
    "webhook/create" => Write, webhook::create::handle;
    "webhook/read" => Read, webhook::read::handle;
    "webhook/update" => Write, webhook::update::handle;
    "webhook/delete" => Write, webhook::delete::handle;
    "webhook/rotate-secret" => Write, webhook::rotate_secret::handle;
    "webhook/delivery/read" => Read, webhook::delivery_read::handle;
    "webhook/delivery/retry" => Write, webhook::delivery_retry::handle;
    "verification/get" => Read, verification::get::handle;
    "verification/read" => Read, verification::read::handle;
    // Queues a verification: it changes what the merchant holds.
    "verification/rerun" => Write, verification::rerun::handle;
    "screening/get" => Read, screening::get::handle;
    // A reviewer's decision changes what the merchant holds.
    "screening/dispose" => Write, screening::dispose::handle;
}

/// What the operation named `path` (e.g. `profile/get`) does; `None` for what is none.
pub fn kind_of(path: &str) -> Option<OperationKind> {
    OPERATIONS
        .iter()
        .find(|(name, _)| *name == path)
        .map(|&(_, kind)| kind)
}

/// A merchant API operation: POST only; any other method is `HTTP_METHOD_INVALID`.
fn operation<F, Args>(cfg: &mut web::ServiceConfig, path: &str, kind: OperationKind, handler: F)
where
    F: Handler<Args>,
    Args: FromRequest + 'static,
    F::Output: Responder + 'static,
{
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
                    web::get().to(|document: web::Data<ApiDocument>| async move {
                        HttpResponse::Ok()
                            .content_type("application/json")
                            .body(document.as_str().to_owned())
                    }),
                )
                .configure(operations),
        );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The contract lets a read-only key call the `get` and `read` operations; downloading
    /// a document's file reads too. Every other operation changes something. A new
    /// operation is classified where it is declared, and this keeps the classification true
    /// to its name.
    #[test]
    fn the_operations_that_read_are_those_named_get_read_or_download() {
        for &(path, kind) in OPERATIONS {
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
}
