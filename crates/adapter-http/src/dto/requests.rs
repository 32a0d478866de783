//! The request bodies, as the OpenAPI document describes them. Handlers read bodies field
//! by field (`fields.rs`) so that every problem of a request is reported at once; these
//! types are the contract those readers implement. They describe, and are never built:
//! hence the `dead_code` allowance.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;
use utoipa::ToSchema;

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
    #[schema(pattern = "^[2-9][0-9]{2}[2-9][0-9]{6}$")]
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
    #[schema(pattern = "^[2-9][0-9]{2}[2-9][0-9]{6}$")]
    pub mobile_number: String,
    /// 1 to 45 characters.
    #[schema(min_length = 1, max_length = 45)]
    pub first_name: String,
    /// 1 to 45 characters.
    #[schema(min_length = 1, max_length = 45)]
    pub last_name: String,
    pub merchant_reference: Option<String>,
    pub customer_id: Option<String>,
    pub middle_name: Option<String>,
    /// `YYYY-MM-DD`, in the past.
    pub date_of_birth: Option<String>,
    pub home_phone_number: Option<String>,
    pub ip_address: Option<String>,
    pub address_line_1: Option<String>,
    pub address_line_2: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub postal: Option<String>,
    /// ISO 3166-1 alpha-2.
    pub country: Option<String>,
    pub driver_licence_id: Option<String>,
    /// 9 digits.
    pub ssn: Option<String>,
    /// Non-negative, at most two decimals.
    pub amount: Option<NumberOrString>,
}

/// profile/update-status.
#[derive(ToSchema)]
pub struct ProfileStatusRequest {
    /// E-mail, at most 45 characters; compared case-insensitively.
    #[schema(format = Email, max_length = 45, min_length = 3)]
    pub email_address: String,
    /// 10 digits, NANP (first and fourth digit 2-9).
    #[schema(pattern = "^[2-9][0-9]{2}[2-9][0-9]{6}$")]
    pub mobile_number: String,
    /// `Pending`, `Reviewed`, `Approved` or `Declined`, in any case.
    pub status: String,
}

/// profile/read, template/read, quiz/read: both required.
#[derive(ToSchema)]
pub struct PageRequest {
    /// 0 or more.
    #[schema(minimum = 0)]
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
    #[schema(pattern = "^[2-9][0-9]{2}[2-9][0-9]{6}$")]
    pub mobile_number: String,
    /// Default 0.
    pub offset: Option<i64>,
    /// 1 to 50, default 10.
    pub limit: Option<i64>,
}

/// template/create: missing list members are 0; at least one must be 1 or 2.
#[derive(ToSchema)]
pub struct TemplateCreateRequest {
    pub template_name: String,
    /// Step name → 0 (not required), 1 (required), 2 (optional).
    pub list: HashMap<String, u8>,
}

/// A template's id: a string, or an integer read as its decimal string.
#[derive(ToSchema)]
pub struct TemplateIdRequest {
    pub template_id: NumberOrString,
}

/// template/update: missing list members keep their value.
#[derive(ToSchema)]
pub struct TemplateUpdateRequest {
    pub template_id: NumberOrString,
    pub template_name: Option<String>,
    pub list: HashMap<String, u8>,
}

/// quiz/create's `template`: a stored template's id, or a list.
#[derive(Deserialize, ToSchema)]
pub struct QuizTemplateRequest {
    pub template_id: Option<NumberOrString>,
    pub template_name: Option<String>,
    pub list: Option<HashMap<String, u8>>,
}

/// quiz/create: the client's profile fields (created or updated), and the template.
#[derive(Deserialize, ToSchema)]
pub struct QuizCreateRequest {
    #[serde(flatten)]
    pub profile: ProfileRequest,
    /// 1 to 30; anything else means the merchant's default.
    pub quiz_expiry_days: Option<i64>,
    pub template: QuizTemplateRequest,
    /// Where the client's browser is sent (303) after submitting, with `quiz=<short
    /// code>` added to the query: https only, no credentials, at most 2048 characters of
    /// an address (others percent-encoded); anything else is `REDIRECT_URL_INVALID`.
    #[schema(format = "uri", max_length = 2048)]
    pub redirect_url: Option<String>,
}

/// quiz/get, quiz/expire, quiz/delete: `url` (or `short_url`), either address.
#[derive(ToSchema)]
pub struct QuizLinkRequest {
    pub url: Option<String>,
    pub short_url: Option<String>,
}

/// verification/get: a quiz's address (`url` or `short_url`), or a profile's pair.
#[derive(ToSchema)]
pub struct VerificationGetRequest {
    pub url: Option<String>,
    pub short_url: Option<String>,
    /// With `mobile_number`, instead of an address: the profile's latest verification.
    #[schema(format = Email, max_length = 45, min_length = 3)]
    pub email_address: Option<String>,
    #[schema(pattern = "^[2-9][0-9]{2}[2-9][0-9]{6}$")]
    pub mobile_number: Option<String>,
}

/// quiz/extend: the quiz's address and its new validity, counted from now.
#[derive(ToSchema)]
pub struct QuizExtendRequest {
    pub url: Option<String>,
    pub short_url: Option<String>,
    /// 1 to 30, required (`QUIZ_EXPIRY_DAYS_REQUIRED`, `QUIZ_EXPIRY_DAYS_INVALID`).
    #[schema(minimum = 1, maximum = 30)]
    pub quiz_expiry_days: i64,
}

/// document/get and document/delete.
#[derive(ToSchema)]
pub struct DocumentRequest {
    /// E-mail, at most 45 characters; compared case-insensitively.
    #[schema(format = Email, max_length = 45, min_length = 3)]
    pub email_address: String,
    /// 10 digits, NANP (first and fourth digit 2-9).
    #[schema(pattern = "^[2-9][0-9]{2}[2-9][0-9]{6}$")]
    pub mobile_number: String,
    pub document_id: String,
}

/// document/update-status.
#[derive(ToSchema)]
pub struct DocumentStatusRequest {
    /// E-mail, at most 45 characters; compared case-insensitively.
    #[schema(format = Email, max_length = 45, min_length = 3)]
    pub email_address: String,
    /// 10 digits, NANP (first and fourth digit 2-9).
    #[schema(pattern = "^[2-9][0-9]{2}[2-9][0-9]{6}$")]
    pub mobile_number: String,
    pub document_id: String,
    /// `Pending`, `Reviewed`, `Approved` or `Declined`, in any case.
    pub status: String,
}

/// document/download.
#[derive(ToSchema)]
pub struct DownloadRequest {
    /// E-mail, at most 45 characters; compared case-insensitively.
    #[schema(format = Email, max_length = 45, min_length = 3)]
    pub email_address: String,
    /// 10 digits, NANP (first and fourth digit 2-9).
    #[schema(pattern = "^[2-9][0-9]{2}[2-9][0-9]{6}$")]
    pub mobile_number: String,
    pub document_id: String,
    pub file_id: String,
}

/// note/create.
#[derive(ToSchema)]
pub struct NoteRequest {
    /// E-mail, at most 45 characters; compared case-insensitively.
    #[schema(format = Email, max_length = 45, min_length = 3)]
    pub email_address: String,
    /// 10 digits, NANP (first and fourth digit 2-9).
    #[schema(pattern = "^[2-9][0-9]{2}[2-9][0-9]{6}$")]
    pub mobile_number: String,
    /// 1 to 255 characters, plain text.
    pub note: String,
}

/// merchant/settings/update: any of the settings; those not sent are kept. At least one.
#[derive(ToSchema)]
pub struct SettingsRequest {
    /// 1 to 30.
    #[schema(minimum = 1, maximum = 30)]
    pub quiz_expiry_days: Option<i64>,
    /// 1 to 120 years.
    #[schema(minimum = 1, maximum = 120)]
    pub minimum_age: Option<i64>,
    /// Failure reason codes, each to `decline` or `review`; replaces the merchant's earlier
    /// choices (`{}`: back to the default).
    #[schema(value_type = Option<BTreeMap<String, String>>)]
    pub policy: Option<BTreeMap<String, String>>,
    /// 0 or 1.
    #[schema(minimum = 0, maximum = 1)]
    pub auto_decision: Option<i64>,
    /// The client's pages' default language: `en`, `fr` or `es`.
    #[schema(pattern = "^(en|fr|es)$")]
    pub default_language: Option<String>,
    /// 1 to 3650 days; `null` keeps personal data (no retention).
    #[schema(minimum = 1, maximum = 3650)]
    pub retention_days: Option<i64>,
}

/// webhook/create.
#[derive(ToSchema)]
pub struct WebhookCreateRequest {
    /// `https://...`; `http://` and private addresses only where the operator allows them.
    /// No credentials.
    #[schema(max_length = 2048)]
    pub url: String,
    /// Activity names (`profile_created`...); absent or empty: all.
    pub events: Option<Vec<String>>,
    /// At most 255 characters.
    #[schema(max_length = 255)]
    pub description: Option<String>,
}

/// webhook/update: any of the fields besides `webhook_id`.
#[derive(ToSchema)]
pub struct WebhookUpdateRequest {
    pub webhook_id: String,
    #[schema(max_length = 2048)]
    pub url: Option<String>,
    pub events: Option<Vec<String>>,
    #[schema(max_length = 255)]
    pub description: Option<String>,
    /// 0 or 1.
    #[schema(minimum = 0, maximum = 1)]
    pub enabled: Option<i64>,
}

/// webhook/delete, webhook/rotate-secret.
#[derive(ToSchema)]
pub struct WebhookIdRequest {
    pub webhook_id: String,
}

/// webhook/read: both optional.
#[derive(ToSchema)]
pub struct OptionalPageRequest {
    /// Default 0.
    pub offset: Option<i64>,
    /// 1 to 50, default 10.
    pub limit: Option<i64>,
}

/// webhook/delivery/read.
#[derive(ToSchema)]
pub struct DeliveryPageRequest {
    pub webhook_id: String,
    /// Default 0.
    pub offset: Option<i64>,
    /// 1 to 50, default 10.
    pub limit: Option<i64>,
}

/// webhook/delivery/retry.
#[derive(ToSchema)]
pub struct DeliveryIdRequest {
    pub delivery_id: String,
}
