//! The route table of the merchant API, `/docs` and the health checks (the quiz pages'
//! routes are in `pages/mod.rs`, the dashboard's in `dashboard/routes.rs`).

use actix_web::http::header::{CACHE_CONTROL, LOCATION};
use actix_web::middleware::DefaultHeaders;
use actix_web::{FromRequest, Handler, HttpResponse, Responder, web};
use utoipa_swagger_ui::SwaggerUi;

use crate::openapi;

use crate::handlers::{
    document, event, fallback, health, merchant, note, profile, quiz, template, webhook,
};

/// Every merchant API operation, under `/api/v1/`. The OpenAPI document must hold each
/// (a test checks it), and only these may be registered.
pub const OPERATIONS: [&str; 33] = [
    "profile/create",
    "profile/update",
    "profile/get",
    "profile/read",
    "profile/update-status",
    "profile/delete",
    "template/create",
    "template/update",
    "template/get",
    "template/read",
    "quiz/create",
    "quiz/get",
    "quiz/read",
    "quiz/expire",
    "quiz/extend",
    "quiz/delete",
    "document/get",
    "document/read",
    "document/update-status",
    "document/delete",
    "document/download",
    "note/create",
    "note/read",
    "event/read",
    "merchant/settings/get",
    "merchant/settings/update",
    "webhook/create",
    "webhook/read",
    "webhook/update",
    "webhook/delete",
    "webhook/rotate-secret",
    "webhook/delivery/read",
    "webhook/delivery/retry",
];

/// A merchant API operation: POST only; any other method is `HTTP_METHOD_INVALID`.
fn operation<F, Args>(cfg: &mut web::ServiceConfig, path: &str, handler: F)
where
    F: Handler<Args>,
    Args: FromRequest + 'static,
    F::Output: Responder + 'static,
{
    assert!(
        OPERATIONS.contains(&path),
        "{path} must be listed in OPERATIONS (and documented)"
    );
    cfg.service(
        web::resource(format!("/{path}"))
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
}
