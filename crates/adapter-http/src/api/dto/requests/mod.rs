//! The request bodies: one type per operation, as serde reads it and as the OpenAPI
//! document describes it. Every field is a [`Sent`], so any JSON object reads, and each
//! type's `TryFrom` turns it into the domain's values through one [`Check`], reporting
//! every violation of the request at once (`crate::fields`).

mod document;
mod merchant;
mod note;
mod profile;
mod quiz;
mod screening;
mod template;
mod webhook;

pub use document::{DocumentRequest, DocumentStatusRequest, DownloadRequest};
pub use merchant::SettingsRequest;
pub use note::NoteRequest;
pub use profile::{ProfileKeyRequest, ProfilePageRequest, ProfileRequest, ProfileStatusRequest};
pub use quiz::{
    QuizCreateRequest, QuizExtendRequest, QuizLinkRequest, VerificationGetRequest, VerificationOf,
};
pub use screening::DisposeRequest;
pub use template::{TemplateCreateRequest, TemplateIdRequest, TemplateUpdateRequest};
pub use webhook::{
    DeliveryIdRequest, DeliveryPageRequest, WebhookCreateRequest, WebhookIdRequest,
    WebhookUpdateRequest,
};

use domain::paging::{DEFAULT_LIMIT, Page};
use serde::Deserialize;
use utoipa::ToSchema;

use super::rules;
use crate::error::ApiError;
use crate::fields::{Check, Sent};

/// `offset` and `limit`. Where the interface marks them required, missing is an error;
/// elsewhere they default to 0 and 10.
fn page(c: &mut Check, offset: &Sent, limit: &Sent, required: bool) -> Option<Page> {
    let offset = c.integer("offset", offset, required);
    let offset = c.check("offset", offset, Page::parse_offset);
    let limit = c.integer("limit", limit, required);
    let limit = c.check("limit", limit, Page::parse_limit);
    let defaulted = |v: Option<i64>, default| if required { v } else { v.or(Some(default)) };
    Page::new(defaulted(offset, 0)?, defaulted(limit, DEFAULT_LIMIT)?).ok()
}

/// profile/read, template/read, quiz/read: both required.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct PageRequest {
    /// 0 or more.
    #[serde(default)]
    #[schema(value_type = i64, minimum = 0, maximum = 9_223_372_036_854_775_807_i64, required)]
    pub offset: Sent,
    /// 1 to 50.
    #[serde(default)]
    #[schema(value_type = i64, minimum = 1, maximum = 50, required)]
    pub limit: Sent,
}

impl TryFrom<PageRequest> for Page {
    type Error = ApiError;

    fn try_from(r: PageRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let page = page(&mut c, &r.offset, &r.limit, true);
        c.finish(|| page)
    }
}

/// webhook/read: both optional.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct OptionalPageRequest {
    /// Default 0.
    #[serde(default)]
    #[schema(schema_with = rules::optional_offset)]
    pub offset: Sent,
    /// 1 to 50, default 10.
    #[serde(default)]
    #[schema(schema_with = rules::optional_limit)]
    pub limit: Sent,
}

impl OptionalPageRequest {
    fn read(&self, c: &mut Check) -> Option<Page> {
        page(c, &self.offset, &self.limit, false)
    }
}

impl TryFrom<OptionalPageRequest> for Page {
    type Error = ApiError;

    fn try_from(r: OptionalPageRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let page = r.read(&mut c);
        c.finish(|| page)
    }
}
