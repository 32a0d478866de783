//! quiz/create, the requests that name a quiz by its address (quiz/get, quiz/expire,
//! quiz/delete, quiz/extend, verification/rerun), and verification/get.

use domain::ids::TemplateId;
use domain::merchant::QuizExpiryDays;
use domain::profile::ProfileKey;
use domain::quiz::{QuizLink, RedirectUrl};
use domain::services::{QuizRequest, TemplateChoice};
use domain::template::parse_template_name;
use serde::Deserialize;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

use super::template::list;
use super::{ProfileKeyRequest, ProfileRequest, rules};
use crate::error::ApiError;
use crate::fields::{Check, Sent};

/// quiz/create: the client's profile fields (created or updated), and the template.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct QuizCreateRequest {
    #[serde(flatten)]
    pub profile: ProfileRequest,
    #[serde(default)]
    #[schema(schema_with = rules::quiz_expiry_days_or_default)]
    pub quiz_expiry_days: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::quiz_template, required)]
    pub template: Sent,
    /// Where the client's browser is sent (303) after submitting, with `quiz=<short
    /// code>` added to the query: https only, no credentials, at most 2048 characters of
    /// an address (others percent-encoded); anything else is `REDIRECT_URL_INVALID`.
    #[serde(default)]
    #[schema(schema_with = rules::redirect_url)]
    pub redirect_url: Sent,
}

/// quiz/create's `template`: a stored template's id, or a list sent with the quiz.
#[derive(Debug, Default, Deserialize)]
struct TemplateChoiceRequest {
    #[serde(default)]
    template_id: Sent,
    #[serde(default)]
    list: Sent,
    #[serde(default)]
    template_name: Sent,
}

impl TryFrom<QuizCreateRequest> for QuizRequest {
    type Error = ApiError;

    fn try_from(r: QuizCreateRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let profile = r.profile.read(&mut c);
        // Anything but a whole number from 1 to 30 silently means the merchant's default.
        let expiry_days = r.quiz_expiry_days.whole_number();
        let template = c
            .nested::<TemplateChoiceRequest>("template", &r.template, true)?
            .map(|t| TemplateChoice {
                template_id: c.optional_id("template_id", &t.template_id, TemplateId::parse),
                list: list(&mut c, &t.list, false),
                name: c.optional("template_name", &t.template_name, parse_template_name),
            });
        let redirect_url = c.optional("redirect_url", &r.redirect_url, RedirectUrl::parse);
        c.finish(|| {
            let (key, changes) = profile?;
            Some(QuizRequest {
                key,
                changes,
                expiry_days,
                template: template?,
                redirect_url,
            })
        })
    }
}

/// `url` (or its alias `short_url`): the quiz's long or short address.
fn link(c: &mut Check, url: &Sent, short_url: &Sent) -> Option<QuizLink> {
    if url.is_sent() || !short_url.is_sent() {
        c.required("url", url, QuizLink::parse)
    } else {
        c.required("short_url", short_url, QuizLink::parse)
    }
}

/// quiz/get, quiz/expire, quiz/delete, verification/rerun: `url` (or `short_url`), either
/// address.
#[derive(Debug, Default, Deserialize)]
pub struct QuizLinkRequest {
    #[serde(default)]
    pub url: Sent,
    #[serde(default)]
    pub short_url: Sent,
}

impl PartialSchema for QuizLinkRequest {
    fn schema() -> RefOr<Schema> {
        rules::with_quiz_address(ObjectBuilder::new(), None).into()
    }
}

impl ToSchema for QuizLinkRequest {}

impl TryFrom<QuizLinkRequest> for QuizLink {
    type Error = ApiError;

    fn try_from(r: QuizLinkRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let link = link(&mut c, &r.url, &r.short_url);
        c.finish(|| link)
    }
}

/// verification/get: a quiz's address (`url` or `short_url`), or, with neither, a
/// profile's pair: its latest verification.
#[derive(Debug, Default, Deserialize)]
pub struct VerificationGetRequest {
    #[serde(default)]
    pub url: Sent,
    #[serde(default)]
    pub short_url: Sent,
    #[serde(flatten)]
    pub key: ProfileKeyRequest,
}

impl PartialSchema for VerificationGetRequest {
    fn schema() -> RefOr<Schema> {
        let pair = serde_json::json!({
            "email_address": { "type": "string", "format": "email", "minLength": 3, "maxLength": 45 },
            "mobile_number": { "type": "string", "pattern": rules::MOBILE },
        });
        rules::with_quiz_address(
            ObjectBuilder::new()
                .property("email_address", <String as PartialSchema>::schema())
                .property("mobile_number", <String as PartialSchema>::schema()),
            Some((&["email_address", "mobile_number"], pair)),
        )
        .into()
    }
}

impl ToSchema for VerificationGetRequest {}

/// Whose latest verification verification/get asks for.
#[derive(Debug)]
pub enum VerificationOf {
    Quiz(QuizLink),
    Profile(ProfileKey),
}

impl TryFrom<VerificationGetRequest> for VerificationOf {
    type Error = ApiError;

    fn try_from(r: VerificationGetRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        if r.url.is_sent() || r.short_url.is_sent() || !r.key.email_address.is_sent() {
            let link = link(&mut c, &r.url, &r.short_url);
            c.finish(|| link.map(Self::Quiz))
        } else {
            let key = r.key.read(&mut c);
            c.finish(|| key.map(Self::Profile))
        }
    }
}

/// quiz/extend: the quiz's address and its new validity, counted from now.
#[derive(Debug, Default, Deserialize)]
pub struct QuizExtendRequest {
    #[serde(default)]
    pub url: Sent,
    #[serde(default)]
    pub short_url: Sent,
    #[serde(default)]
    pub quiz_expiry_days: Sent,
}

impl PartialSchema for QuizExtendRequest {
    fn schema() -> RefOr<Schema> {
        let days = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(1))
            .maximum(Some(30))
            .description(Some("1 to 30, required."));
        rules::with_quiz_address(
            ObjectBuilder::new()
                .property("quiz_expiry_days", days)
                .required("quiz_expiry_days"),
            None,
        )
        .into()
    }
}

impl ToSchema for QuizExtendRequest {}

impl TryFrom<QuizExtendRequest> for (QuizLink, QuizExpiryDays) {
    type Error = ApiError;

    fn try_from(r: QuizExtendRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let link = link(&mut c, &r.url, &r.short_url);
        // Unlike quiz/create's, a bad number here is refused: nothing silently falls back.
        let days = c.integer("quiz_expiry_days", &r.quiz_expiry_days, true);
        let days = c.check("quiz_expiry_days", days, QuizExpiryDays::new);
        c.finish(|| Some((link?, days?)))
    }
}
