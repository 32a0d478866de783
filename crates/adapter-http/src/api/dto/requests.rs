//! The request bodies, as the OpenAPI document describes them. Handlers read bodies field
//! by field (`fields.rs`) so that every problem of a request is reported at once; these
//! types are the contract those readers implement. They describe, and are never built:
//! hence the `dead_code` allowance.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;
use utoipa::openapi::RefOr;
use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::schema::{Object, ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

use super::rules;

/// A number or a numeric string (`125.50`, `"125.50"`).
#[derive(Deserialize, ToSchema)]
#[serde(untagged)]
pub enum NumberOrString {
    Number(f64),
    Text(String),
}

/// The pair that identifies a profile.
#[derive(ToSchema)]
pub struct ProfileKeyRequest {
    /// E-mail, at most 45 characters; compared case-insensitively.
    #[schema(format = Email, max_length = 45, min_length = 3)]
    pub email_address: String,
    /// 10 digits, NANP (first and fourth digit 2-9).
    #[schema(schema_with = rules::mobile)]
    pub mobile_number: String,
}

/// profile/create and profile/update: absent leaves a field as it is (update), `null`
/// or `""` clears it.
#[derive(Deserialize, ToSchema)]
pub struct ProfileRequest {
    /// E-mail, at most 45 characters; compared case-insensitively.
    #[schema(format = Email, max_length = 45, min_length = 3)]
    pub email_address: String,
    /// 10 digits, NANP (first and fourth digit 2-9).
    #[schema(schema_with = rules::mobile)]
    pub mobile_number: String,
    /// 1 to 45 characters, no control characters.
    #[schema(schema_with = rules::short_text)]
    pub first_name: String,
    /// 1 to 45 characters, no control characters.
    #[schema(schema_with = rules::short_text)]
    pub last_name: String,
    #[schema(schema_with = rules::clearable_long_text)]
    pub merchant_reference: Option<String>,
    #[schema(schema_with = rules::clearable_long_text)]
    pub customer_id: Option<String>,
    #[schema(schema_with = rules::clearable_short_text)]
    pub middle_name: Option<String>,
    /// `YYYY-MM-DD`, in the past.
    #[schema(schema_with = rules::clearable_date_of_birth)]
    pub date_of_birth: Option<String>,
    #[schema(schema_with = rules::clearable_phone)]
    pub home_phone_number: Option<String>,
    #[schema(schema_with = rules::clearable_ip)]
    pub ip_address: Option<String>,
    #[schema(schema_with = rules::clearable_long_text)]
    pub address_line_1: Option<String>,
    #[schema(schema_with = rules::clearable_long_text)]
    pub address_line_2: Option<String>,
    #[schema(schema_with = rules::clearable_short_text)]
    pub city: Option<String>,
    #[schema(schema_with = rules::clearable_state)]
    pub state: Option<String>,
    #[schema(schema_with = rules::clearable_postal)]
    pub postal: Option<String>,
    /// ISO 3166-1 alpha-2.
    #[schema(schema_with = rules::clearable_country)]
    pub country: Option<String>,
    #[schema(schema_with = rules::clearable_long_text)]
    pub driver_licence_id: Option<String>,
    /// 9 digits.
    #[schema(schema_with = rules::clearable_ssn)]
    pub ssn: Option<String>,
    /// Non-negative, at most two decimals.
    #[schema(schema_with = rules::clearable_amount)]
    pub amount: Option<NumberOrString>,
}

/// profile/update-status.
#[derive(ToSchema)]
pub struct ProfileStatusRequest {
    /// E-mail, at most 45 characters; compared case-insensitively.
    #[schema(format = Email, max_length = 45, min_length = 3)]
    pub email_address: String,
    /// 10 digits, NANP (first and fourth digit 2-9).
    #[schema(schema_with = rules::mobile)]
    pub mobile_number: String,
    #[schema(schema_with = rules::profile_status)]
    pub status: String,
}

/// profile/read, template/read, quiz/read: both required.
#[derive(ToSchema)]
pub struct PageRequest {
    /// 0 or more.
    #[schema(minimum = 0, maximum = 9_223_372_036_854_775_807_i64)]
    pub offset: i64,
    /// 1 to 50.
    #[schema(minimum = 1, maximum = 50)]
    pub limit: i64,
}

/// document/read, note/read, event/read.
#[derive(ToSchema)]
pub struct ProfilePageRequest {
    /// E-mail, at most 45 characters; compared case-insensitively.
    #[schema(format = Email, max_length = 45, min_length = 3)]
    pub email_address: String,
    /// 10 digits, NANP (first and fourth digit 2-9).
    #[schema(schema_with = rules::mobile)]
    pub mobile_number: String,
    /// Default 0.
    #[schema(schema_with = rules::optional_offset)]
    pub offset: Option<i64>,
    /// 1 to 50, default 10.
    #[schema(schema_with = rules::optional_limit)]
    pub limit: Option<i64>,
}

/// template/create: missing list members are 0; at least one must be 1 or 2.
#[derive(ToSchema)]
pub struct TemplateCreateRequest {
    #[schema(schema_with = rules::template_name)]
    pub template_name: String,
    #[schema(schema_with = template_list_asking)]
    pub list: HashMap<String, u8>,
}

fn template_list_asking() -> Object {
    rules::template_list(true)
}

fn template_list_changes() -> Object {
    rules::template_list(false)
}

/// A template's id: a string, or an integer read as its decimal string.
#[derive(ToSchema)]
pub struct TemplateIdRequest {
    #[schema(schema_with = rules::template_id)]
    pub template_id: NumberOrString,
}

/// template/update: missing list members keep their value.
#[derive(ToSchema)]
pub struct TemplateUpdateRequest {
    #[schema(schema_with = rules::template_id)]
    pub template_id: NumberOrString,
    #[schema(schema_with = rules::optional_template_name)]
    pub template_name: Option<String>,
    #[schema(schema_with = template_list_changes)]
    pub list: HashMap<String, u8>,
}

/// quiz/create: the client's profile fields (created or updated), and the template.
#[derive(Deserialize, ToSchema)]
pub struct QuizCreateRequest {
    #[serde(flatten)]
    pub profile: ProfileRequest,
    /// 1 to 30; anything else means the merchant's default.
    pub quiz_expiry_days: Option<i64>,
    #[schema(schema_with = rules::quiz_template)]
    pub template: serde_json::Value,
    /// Where the client's browser is sent (303) after submitting, with `quiz=<short
    /// code>` added to the query: https only, no credentials, at most 2048 characters of
    /// an address (others percent-encoded); anything else is `REDIRECT_URL_INVALID`.
    #[schema(schema_with = rules::redirect_url)]
    pub redirect_url: Option<String>,
}

/// quiz/get, quiz/expire, quiz/delete, verification/rerun: `url` (or `short_url`), either
/// address.
pub struct QuizLinkRequest;

impl PartialSchema for QuizLinkRequest {
    fn schema() -> RefOr<Schema> {
        rules::with_quiz_address(ObjectBuilder::new(), None).into()
    }
}

impl ToSchema for QuizLinkRequest {}

/// verification/get: a quiz's address (`url` or `short_url`), or, with neither, a
/// profile's pair: its latest verification.
pub struct VerificationGetRequest;

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

/// quiz/extend: the quiz's address and its new validity, counted from now.
pub struct QuizExtendRequest;

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

/// document/get and document/delete.
#[derive(ToSchema)]
pub struct DocumentRequest {
    /// E-mail, at most 45 characters; compared case-insensitively.
    #[schema(format = Email, max_length = 45, min_length = 3)]
    pub email_address: String,
    /// 10 digits, NANP (first and fourth digit 2-9).
    #[schema(schema_with = rules::mobile)]
    pub mobile_number: String,
    #[schema(schema_with = rules::object_id)]
    pub document_id: String,
}

/// document/update-status.
#[derive(ToSchema)]
pub struct DocumentStatusRequest {
    /// E-mail, at most 45 characters; compared case-insensitively.
    #[schema(format = Email, max_length = 45, min_length = 3)]
    pub email_address: String,
    /// 10 digits, NANP (first and fourth digit 2-9).
    #[schema(schema_with = rules::mobile)]
    pub mobile_number: String,
    #[schema(schema_with = rules::object_id)]
    pub document_id: String,
    #[schema(schema_with = rules::document_status)]
    pub status: String,
}

/// document/download.
#[derive(ToSchema)]
pub struct DownloadRequest {
    /// E-mail, at most 45 characters; compared case-insensitively.
    #[schema(format = Email, max_length = 45, min_length = 3)]
    pub email_address: String,
    /// 10 digits, NANP (first and fourth digit 2-9).
    #[schema(schema_with = rules::mobile)]
    pub mobile_number: String,
    #[schema(schema_with = rules::object_id)]
    pub document_id: String,
    #[schema(schema_with = rules::object_id)]
    pub file_id: String,
}

/// note/create.
#[derive(ToSchema)]
pub struct NoteRequest {
    /// E-mail, at most 45 characters; compared case-insensitively.
    #[schema(format = Email, max_length = 45, min_length = 3)]
    pub email_address: String,
    /// 10 digits, NANP (first and fourth digit 2-9).
    #[schema(schema_with = rules::mobile)]
    pub mobile_number: String,
    /// 1 to 255 characters, plain text: no markup (`<b`, `&amp;`) and no control
    /// characters but line breaks and tabs.
    #[schema(schema_with = rules::note)]
    pub note: String,
}

/// merchant/settings/update: any of the settings; those not sent are kept. At least one.
pub struct SettingsRequest;

impl PartialSchema for SettingsRequest {
    fn schema() -> RefOr<Schema> {
        let mut schema = SettingsFields::schema();
        if let RefOr::T(Schema::Object(fields)) = &mut schema {
            let one_of_them: Vec<serde_json::Value> = SETTINGS
                .iter()
                .map(|name| serde_json::json!({ "required": [name] }))
                .collect();
            fields.extensions = Some(Extensions::from_iter([("anyOf", one_of_them)]));
        }
        schema
    }
}

impl ToSchema for SettingsRequest {}

/// The settings merchant/settings/update takes.
pub const SETTINGS: [&str; 6] = [
    "quiz_expiry_days",
    "minimum_age",
    "policy",
    "auto_decision",
    "default_language",
    "retention_days",
];

/// merchant/settings/update's fields, each with its rule.
#[derive(ToSchema)]
struct SettingsFields {
    #[schema(schema_with = rules::quiz_expiry_days)]
    pub quiz_expiry_days: Option<i64>,
    #[schema(schema_with = rules::minimum_age)]
    pub minimum_age: Option<i64>,
    /// Failure reason codes, each to `decline` or `review`; replaces the merchant's earlier
    /// choices (`{}`: back to the default).
    #[schema(schema_with = rules::optional_policy)]
    pub policy: Option<BTreeMap<String, String>>,
    #[schema(schema_with = rules::flag)]
    pub auto_decision: Option<i64>,
    /// The client's pages' default language: `en`, `fr` or `es`.
    #[schema(pattern = "^(en|fr|es)$")]
    pub default_language: Option<String>,
    #[schema(schema_with = rules::retention_days)]
    pub retention_days: Option<i64>,
}

/// webhook/create.
#[derive(ToSchema)]
pub struct WebhookCreateRequest {
    /// `https://...`; `http://` and private addresses only where the operator allows them.
    /// No credentials.
    #[schema(schema_with = rules::webhook_url)]
    pub url: String,
    /// Activity names (`profile_created`...); absent or empty: all.
    #[schema(schema_with = rules::webhook_events)]
    pub events: Option<Vec<String>>,
    /// At most 255 characters.
    #[schema(max_length = 255)]
    pub description: Option<String>,
}

/// webhook/update: any of the fields besides `webhook_id`.
#[derive(ToSchema)]
pub struct WebhookUpdateRequest {
    #[schema(schema_with = rules::object_id)]
    pub webhook_id: String,
    #[schema(schema_with = rules::webhook_url)]
    pub url: Option<String>,
    #[schema(schema_with = rules::webhook_events)]
    pub events: Option<Vec<String>>,
    #[schema(max_length = 255)]
    pub description: Option<String>,
    #[schema(schema_with = rules::flag)]
    pub enabled: Option<i64>,
}

/// webhook/delete, webhook/rotate-secret.
#[derive(ToSchema)]
pub struct WebhookIdRequest {
    #[schema(schema_with = rules::object_id)]
    pub webhook_id: String,
}

/// webhook/read: both optional.
#[derive(ToSchema)]
pub struct OptionalPageRequest {
    /// Default 0.
    #[schema(schema_with = rules::optional_offset)]
    pub offset: Option<i64>,
    /// 1 to 50, default 10.
    #[schema(schema_with = rules::optional_limit)]
    pub limit: Option<i64>,
}

/// webhook/delivery/read.
#[derive(ToSchema)]
pub struct DeliveryPageRequest {
    #[schema(schema_with = rules::object_id)]
    pub webhook_id: String,
    /// Default 0.
    #[schema(schema_with = rules::optional_offset)]
    pub offset: Option<i64>,
    /// 1 to 50, default 10.
    #[schema(schema_with = rules::optional_limit)]
    pub limit: Option<i64>,
}

/// webhook/delivery/retry.
#[derive(ToSchema)]
pub struct DeliveryIdRequest {
    #[schema(schema_with = rules::object_id)]
    pub delivery_id: String,
}
