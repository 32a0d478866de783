//! The route table: every path the service answers, in one place.

use actix_web::{FromRequest, Handler, Responder, web};

use crate::handlers::{document, event, fallback, health, merchant, note, profile, quiz, template};

/// A merchant API operation: POST only; any other method is `HTTP_METHOD_INVALID`.
fn operation<F, Args>(cfg: &mut web::ServiceConfig, path: &str, handler: F)
where
    F: Handler<Args>,
    Args: FromRequest + 'static,
    F::Output: Responder + 'static,
{
    cfg.service(
        web::resource(format!("/api/v1/{path}"))
            .route(web::post().to(handler))
            .default_service(web::to(fallback::method_not_allowed)),
    );
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/healthz", web::get().to(health::live))
        .route("/readyz", web::get().to(health::ready));

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
}
