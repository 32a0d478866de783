use domain::event::Event;
use serde_json::Value;

use crate::object;
use crate::timefmt::rfc3339;

/// An event record of interface §2.7.
pub fn event_json(e: &Event) -> Value {
    Value::Object(object! {
        "activity": e.activity.as_str(),
        "details": e.details,
        "template_used": e.template_used,
        "url": e.url,
        "status": e.status.as_str(),
        "created_at": rfc3339(e.created_at),
    })
}
