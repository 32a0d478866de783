//! webhook/create, webhook/update, webhook/delete, webhook/rotate-secret and the
//! deliveries' requests (webhook/read takes an `OptionalPageRequest`).

use domain::ids::{DeliveryId, WebhookId};
use domain::paging::Page;
use domain::services::WebhookInput;
use serde::Deserialize;
use utoipa::ToSchema;

use super::{OptionalPageRequest, rules};
use crate::error::ApiError;
use crate::fields::{Check, Sent};

/// The endpoint fields a body may hold; `enabled` only where the request has it.
fn input(
    c: &mut Check,
    url: &Sent,
    events: &Sent,
    description: &Sent,
    enabled: Option<&Sent>,
) -> WebhookInput {
    WebhookInput {
        url: c.optional("url", url, |u| Ok(u.to_owned())),
        events: c.strings("events", events),
        description: c.text("description", description),
        enabled: enabled.and_then(|sent| c.flag("enabled", sent)),
    }
}

/// webhook/create.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct WebhookCreateRequest {
    /// `https://...`; `http://` and private addresses only where the operator allows them.
    /// No credentials.
    #[serde(default)]
    #[schema(schema_with = rules::webhook_url, required)]
    pub url: Sent,
    /// Activity names (`profile_created`...); absent or empty: all.
    #[serde(default)]
    #[schema(schema_with = rules::webhook_events)]
    pub events: Sent,
    /// At most 255 characters.
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 255)]
    pub description: Sent,
}

impl TryFrom<WebhookCreateRequest> for WebhookInput {
    type Error = ApiError;

    fn try_from(r: WebhookCreateRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let input = input(&mut c, &r.url, &r.events, &r.description, None);
        c.finish(|| Some(input))
    }
}

/// webhook/update: any of the fields besides `webhook_id`.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct WebhookUpdateRequest {
    #[serde(default)]
    #[schema(schema_with = rules::object_id, required)]
    pub webhook_id: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::webhook_url)]
    pub url: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::webhook_events)]
    pub events: Sent,
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 255)]
    pub description: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::flag)]
    pub enabled: Sent,
}

impl TryFrom<WebhookUpdateRequest> for (WebhookId, WebhookInput) {
    type Error = ApiError;

    fn try_from(r: WebhookUpdateRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let id = c.required_id("webhook_id", &r.webhook_id, WebhookId::parse);
        let input = input(&mut c, &r.url, &r.events, &r.description, Some(&r.enabled));
        c.finish(|| Some((id?, input)))
    }
}

/// webhook/delete, webhook/rotate-secret.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct WebhookIdRequest {
    #[serde(default)]
    #[schema(schema_with = rules::object_id, required)]
    pub webhook_id: Sent,
}

impl TryFrom<WebhookIdRequest> for WebhookId {
    type Error = ApiError;

    fn try_from(r: WebhookIdRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let id = c.required_id("webhook_id", &r.webhook_id, WebhookId::parse);
        c.finish(|| id)
    }
}

/// webhook/delivery/read.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct DeliveryPageRequest {
    #[serde(default)]
    #[schema(schema_with = rules::object_id, required)]
    pub webhook_id: Sent,
    #[serde(flatten)]
    pub page: OptionalPageRequest,
}

impl TryFrom<DeliveryPageRequest> for (WebhookId, Page) {
    type Error = ApiError;

    fn try_from(r: DeliveryPageRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let id = c.required_id("webhook_id", &r.webhook_id, WebhookId::parse);
        let page = r.page.read(&mut c);
        c.finish(|| Some((id?, page?)))
    }
}

/// webhook/delivery/retry.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct DeliveryIdRequest {
    #[serde(default)]
    #[schema(schema_with = rules::object_id, required)]
    pub delivery_id: Sent,
}

impl TryFrom<DeliveryIdRequest> for DeliveryId {
    type Error = ApiError;

    fn try_from(r: DeliveryIdRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let id = c.required_id("delivery_id", &r.delivery_id, DeliveryId::parse);
        c.finish(|| id)
    }
}
