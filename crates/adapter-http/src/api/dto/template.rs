use domain::template::{FeatureList, Template};

use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use super::paging::Paging;
use crate::timefmt::rfc3339;

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
