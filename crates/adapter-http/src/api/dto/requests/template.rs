//! template/create, template/get, template/update, and the `list` quiz/create shares.

use domain::ids::TemplateId;
use domain::services::ListChanges;
use domain::template::{Feature, Requirement, parse_template_name};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa::openapi::schema::Object;

use super::rules;
use crate::error::ApiError;
use crate::fields::{Check, Sent, whole};

/// A `list` object: known members only, each 0, 1 or 2.
pub(super) fn list(c: &mut Check, sent: &Sent, required: bool) -> Option<ListChanges> {
    let map = c.object("list", sent, required)?;
    let mut changes = ListChanges::new();
    for (name, value) in map {
        let Some(feature) = Feature::from_name(name) else {
            c.refuse("list", format!("has no member {name:?}"));
            continue;
        };
        let value = value.as_number().and_then(whole);
        match value.map(Requirement::parse) {
            Some(Ok(requirement)) => changes.push((feature, requirement)),
            _ => c.refuse("list", format!("member {name} must be 0, 1 or 2")),
        }
    }
    Some(changes)
}

/// A template's id: a string, or an integer read as its decimal string.
pub(super) fn template_id(c: &mut Check, sent: &Sent) -> Option<TemplateId> {
    c.required_id("template_id", sent, TemplateId::parse)
}

/// template/create: missing list members are 0; at least one must be 1 or 2.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct TemplateCreateRequest {
    #[serde(default)]
    #[schema(schema_with = rules::template_name, required)]
    pub template_name: Sent,
    #[serde(default)]
    #[schema(schema_with = template_list_asking, required)]
    pub list: Sent,
}

fn template_list_asking() -> Object {
    rules::template_list(true)
}

fn template_list_changes() -> Object {
    rules::template_list(false)
}

impl TryFrom<TemplateCreateRequest> for (String, ListChanges) {
    type Error = ApiError;

    fn try_from(r: TemplateCreateRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let name = c.required("template_name", &r.template_name, parse_template_name);
        let list = list(&mut c, &r.list, true);
        c.finish(|| Some((name?, list?)))
    }
}

/// A template's id: a string, or an integer read as its decimal string.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct TemplateIdRequest {
    #[serde(default)]
    #[schema(schema_with = rules::template_id, required)]
    pub template_id: Sent,
}

impl TryFrom<TemplateIdRequest> for TemplateId {
    type Error = ApiError;

    fn try_from(r: TemplateIdRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let id = template_id(&mut c, &r.template_id);
        c.finish(|| id)
    }
}

/// template/update: missing list members keep their value.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct TemplateUpdateRequest {
    #[serde(default)]
    #[schema(schema_with = rules::template_id, required)]
    pub template_id: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::optional_template_name)]
    pub template_name: Sent,
    #[serde(default)]
    #[schema(schema_with = template_list_changes, required)]
    pub list: Sent,
}

impl TryFrom<TemplateUpdateRequest> for (TemplateId, Option<String>, ListChanges) {
    type Error = ApiError;

    fn try_from(r: TemplateUpdateRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let id = template_id(&mut c, &r.template_id);
        let name = c.optional("template_name", &r.template_name, parse_template_name);
        let list = list(&mut c, &r.list, true);
        c.finish(|| Some((id?, name, list?)))
    }
}
