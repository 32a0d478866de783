use domain::ids::TemplateId;
use domain::services::ListChanges;
use domain::template::{Feature, FeatureList, Requirement, Template};

use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use super::paging::Paging;
use crate::fields::{Fields, whole};
use crate::timefmt::rfc3339;

/// Reads a `list` object: known members only, each 0, 1 or 2.
pub fn read_list(f: &mut Fields<'_>, required: bool) -> Option<ListChanges> {
    let map = f.object("list", required)?;
    let mut changes = ListChanges::new();
    for (name, value) in map {
        let Some(feature) = Feature::from_name(name) else {
            f.refuse("list", format!("has no member {name:?}"));
            continue;
        };
        let value = match value {
            Value::Number(n) => whole(n),
            _ => None,
        };
        match value.map(Requirement::parse) {
            Some(Ok(requirement)) => changes.push((feature, requirement)),
            _ => f.refuse("list", format!("member {name} must be 0, 1 or 2")),
        }
    }
    Some(changes)
}

pub fn read_template_id(f: &mut Fields<'_>) -> Option<TemplateId> {
    f.required_id("template_id", TemplateId::parse)
}

/// All 22 members, in the interface's order: 0 not required, 1 required, 2 optional.
pub type ListView = Map<String, Value>;

pub fn list_view(list: &FeatureList) -> ListView {
    list.iter()
        .map(|(feature, requirement)| (feature.name().to_owned(), Value::from(requirement.value())))
        .collect()
}

/// A template of interface §2.3.
#[derive(Debug, Serialize, ToSchema)]
pub struct TemplateView {
    pub template_id: String,
    pub template_name: String,
    /// The 22 steps, each 0 (not required), 1 (required) or 2 (optional).
    #[schema(value_type = HashMap<String, u8>)]
    pub list: ListView,
    pub created_at: String,
    pub updated_at: String,
}

impl TemplateView {
    pub fn of(t: &Template) -> Self {
        Self {
            template_id: t.id.to_string(),
            template_name: t.name.clone(),
            list: list_view(&t.list),
            created_at: rfc3339(t.created_at),
            updated_at: rfc3339(t.updated_at),
        }
    }
}

/// template/read: the merchant's templates, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct TemplateList {
    #[serde(flatten)]
    pub paging: Paging,
    pub templates: Vec<TemplateView>,
}
