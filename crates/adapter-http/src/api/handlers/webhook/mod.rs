//! Webhook endpoints and their deliveries (contract §9).

pub mod create;
pub mod delete;
pub mod delivery_read;
pub mod delivery_retry;
pub mod read;
pub mod rotate_secret;
pub mod update;

use domain::services::WebhookInput;

use crate::fields::Fields;

/// The endpoint fields a body may hold; `enabled` only where `with_enabled`.
fn read_input(f: &mut Fields<'_>, with_enabled: bool) -> WebhookInput {
    WebhookInput {
        url: f.optional("url", |u| Ok(u.to_owned())),
        events: f.strings("events"),
        description: f.text("description"),
        enabled: if with_enabled {
            f.flag("enabled")
        } else {
            None
        },
    }
}
