use domain::services::ListChanges;
use domain::template::{Feature, FeatureList, Requirement, Template};
use domain::validation::parse_object_id;
use serde_json::{Map, Value};

use crate::fields::Fields;
use crate::object;
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
        match value.as_i64().map(Requirement::parse) {
            Some(Ok(requirement)) => changes.push((feature, requirement)),
            _ => f.refuse("list", format!("member {name} must be 0, 1 or 2")),
        }
    }
    Some(changes)
}

pub fn read_template_id(f: &mut Fields<'_>) -> Option<String> {
    f.required_id("template_id", parse_object_id)
}

/// All 22 members, in the interface's order.
pub fn list_json(list: &FeatureList) -> Value {
    let members: Map<String, Value> = list
        .iter()
        .map(|(feature, requirement)| (feature.name().to_owned(), Value::from(requirement.value())))
        .collect();
    Value::Object(members)
}

pub fn template_json(t: &Template) -> Map<String, Value> {
    object! {
        "template_id": t.id,
        "template_name": t.name,
        "list": list_json(&t.list),
        "created_at": rfc3339(t.created_at),
        "updated_at": rfc3339(t.updated_at),
    }
}
