//! The interface's JSON, both ways: request bodies into domain inputs, domain objects
//! into the exact layouts of interface §2 and §4.

pub mod document;
pub mod event;
pub mod paging;
pub mod profile;
pub mod quiz;
pub mod template;

use serde_json::{Map, Value};

/// Builds a JSON object keeping the order the fields are listed in.
#[macro_export]
macro_rules! object {
    ($($key:literal: $value:expr),* $(,)?) => {{
        let mut map = serde_json::Map::new();
        $(map.insert($key.to_owned(), serde_json::json!($value));)*
        map
    }};
}

/// `Some(text)` as a string, `None` as `null`.
pub fn opt<T: ToString>(value: Option<T>) -> Value {
    value.map_or(Value::Null, |v| Value::String(v.to_string()))
}

/// Appends `extra`'s fields to `base`, in order.
pub fn merged(mut base: Map<String, Value>, extra: Map<String, Value>) -> Map<String, Value> {
    base.extend(extra);
    base
}
