//! merchant/settings/update.

use domain::merchant::{Language, QuizExpiryDays, RetentionDays, SettingsChanges};
use domain::validation::Invalid;
use domain::verification::proof_of_address::MaxAge;
use domain::verification::{MinimumAge, Policy};
use domain::watchlist::{ListName, Threshold};
use serde::Deserialize;
use utoipa::openapi::RefOr;
use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::schema::Schema;
use utoipa::{PartialSchema, ToSchema};

use super::rules;
use crate::error::ApiError;
use crate::fields::{Check, Sent};

/// merchant/settings/update: any of the settings; those not sent are kept. At least one.
#[derive(Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct SettingsRequest(SettingsFields);

impl PartialSchema for SettingsRequest {
    fn schema() -> RefOr<Schema> {
        let mut schema = SettingsFields::schema();
        if let RefOr::T(Schema::Object(fields)) = &mut schema {
            let one_of_them: Vec<serde_json::Value> = fields
                .properties
                .keys()
                .map(|name| serde_json::json!({ "required": [name] }))
                .collect();
            fields.extensions = Some(Extensions::from_iter([("anyOf", one_of_them)]));
        }
        schema
    }
}

impl ToSchema for SettingsRequest {}

/// merchant/settings/update's fields, each with its rule.
#[derive(Debug, Default, Deserialize, ToSchema)]
struct SettingsFields {
    #[serde(default)]
    #[schema(schema_with = rules::quiz_expiry_days)]
    pub quiz_expiry_days: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::minimum_age)]
    pub minimum_age: Sent,
    /// Failure reason codes, each to `decline` or `review`; replaces the merchant's earlier
    /// choices (`{}`: back to the default).
    #[serde(default)]
    #[schema(schema_with = rules::optional_policy)]
    pub policy: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::flag)]
    pub auto_decision: Sent,
    /// The client's pages' default language: `en`, `fr` or `es`.
    #[serde(default)]
    #[schema(value_type = Option<String>, pattern = "^(en|fr|es)$")]
    pub default_language: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::retention_days)]
    pub retention_days: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::proof_of_address_max_age_days)]
    pub proof_of_address_max_age_days: Sent,
    /// Whether clients are screened against lists (1 or 0).
    #[serde(default)]
    #[schema(schema_with = rules::flag)]
    pub screening: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::screening_lists)]
    pub screening_lists: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::screening_threshold)]
    pub screening_threshold: Sent,
    /// Whether the selfie's face is kept and searched among the merchant's other clients'
    /// (1 or 0): turn it on only with the clients' consent.
    #[serde(default)]
    #[schema(schema_with = rules::flag)]
    pub face_search: Sent,
}

impl SettingsFields {
    fn any_sent(&self) -> bool {
        [
            &self.quiz_expiry_days,
            &self.minimum_age,
            &self.policy,
            &self.auto_decision,
            &self.default_language,
            &self.retention_days,
            &self.proof_of_address_max_age_days,
            &self.screening,
            &self.screening_lists,
            &self.screening_threshold,
            &self.face_search,
        ]
        .iter()
        .any(|field| field.is_sent())
    }
}

impl TryFrom<SettingsRequest> for SettingsChanges {
    type Error = ApiError;

    fn try_from(SettingsRequest(r): SettingsRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        // Nothing to change reads as the one setting there always was.
        let nothing = !r.any_sent();
        let days = c.integer("quiz_expiry_days", &r.quiz_expiry_days, nothing);
        let days = c.check("quiz_expiry_days", days, QuizExpiryDays::new);
        let age = c.integer("minimum_age", &r.minimum_age, false);
        let age = c.check("minimum_age", age, MinimumAge::new);
        let policy = c.object("policy", &r.policy, false).map(|choices| {
            choices
                .iter()
                .map(|(reason, decision)| (reason.as_str(), decision.as_str().unwrap_or_default()))
                .collect::<Vec<_>>()
        });
        let policy = c.check("policy", policy, Policy::parse);
        let auto_decision = c.flag("auto_decision", &r.auto_decision);
        let language = c.text("default_language", &r.default_language);
        let language = c.check("default_language", language, |code| Language::parse(&code));
        let retention_days =
            c.integer_patch("retention_days", &r.retention_days, RetentionDays::new);
        let poa_age = c.integer(
            "proof_of_address_max_age_days",
            &r.proof_of_address_max_age_days,
            false,
        );
        let poa_age = c.check("proof_of_address_max_age_days", poa_age, MaxAge::new);
        let screening = c.flag("screening", &r.screening);
        let lists = c.strings("screening_lists", &r.screening_lists);
        let lists = c.check("screening_lists", lists, |names| {
            names
                .iter()
                .map(|n| ListName::parse(n.trim()))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    Invalid("list names are 1 to 64 letters, digits, '.', '_' or '-'".into())
                })
        });
        let threshold = c.integer("screening_threshold", &r.screening_threshold, false);
        let threshold = c.check("screening_threshold", threshold, |score| {
            Threshold::new(score).ok_or_else(|| Invalid("must be 80 to 100".into()))
        });
        let face_search = c.flag("face_search", &r.face_search);
        c.finish(|| {
            Some(SettingsChanges {
                quiz_expiry_days: days,
                minimum_age: age,
                policy,
                auto_decision,
                default_language: language,
                retention_days,
                proof_of_address_max_age: poa_age,
                screening,
                screening_lists: lists,
                screening_threshold: threshold,
                face_search,
            })
        })
    }
}
