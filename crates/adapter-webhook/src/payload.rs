//! The body of a delivery (contract §9).

use domain::webhook::Notification;
use serde_json::{Map, Value, json};
use time::format_description::well_known::Rfc3339;

/// `{"type", "timestamp", "data": {...}}`: the event, and whom it is about by e-mail and
/// mobile only. The same notification always gives the same bytes, so a retry signs and
/// sends exactly what the first attempt did.
pub fn body(n: &Notification) -> String {
    let created_at = n
        .created_at
        .to_offset(time::UtcOffset::UTC)
        .replace_nanosecond(0)
        .unwrap_or(n.created_at)
        .format(&Rfc3339)
        .unwrap_or_default();
    let mut data = Map::new();
    for (key, value) in [
        ("event_id", n.event_id.as_str()),
        ("activity", n.activity.as_str()),
        ("details", &n.details),
        ("template_used", &n.template_used),
        ("url", &n.url),
        ("status", n.status.as_str()),
        ("created_at", &created_at),
        ("email_address", &n.email_address),
        ("mobile_number", &n.mobile_number),
    ] {
        data.insert(key.to_owned(), Value::from(value));
    }
    if let Some(document) = &n.document_id {
        data.insert("document_id".to_owned(), Value::from(document.as_str()));
    }
    if let Some(quiz_url) = &n.quiz_url {
        data.insert("quiz_url".to_owned(), Value::from(quiz_url.as_str()));
    }
    json!({
        "type": n.activity.as_str(),
        "timestamp": created_at,
        "data": data,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::event::Activity;
    use domain::profile::ProfileStatus;
    use time::macros::datetime;

    fn notification() -> Notification {
        Notification {
            event_id: "01JEVENT".into(),
            activity: Activity::DocumentUploaded,
            details: "Passport uploaded".into(),
            template_used: "KYC".into(),
            url: "https://idv.example/q/abc".into(),
            status: domain::event::EventStatus::Profile(ProfileStatus::Pending),
            created_at: datetime!(2026-11-22 10:00:00.5 UTC),
            email_address: "ada@example.com".into(),
            mobile_number: "4165550123".into(),
            document_id: Some("01JDOC".into()),
            quiz_url: None,
        }
    }

    #[test]
    fn the_body_carries_the_event_and_only_the_fields_that_apply() {
        let value: Value = serde_json::from_str(&body(&notification())).expect("json");
        assert_eq!(value["type"], "document_uploaded");
        assert_eq!(value["timestamp"], "2026-11-22T10:00:00Z");
        let data = value["data"].as_object().expect("data");
        assert_eq!(data["event_id"], "01JEVENT");
        assert_eq!(data["document_id"], "01JDOC");
        assert_eq!(data["email_address"], "ada@example.com");
        assert!(!data.contains_key("quiz_url"));
        assert_eq!(data.len(), 10);
    }

    #[test]
    fn the_same_notification_always_gives_the_same_bytes() {
        assert_eq!(body(&notification()), body(&notification()));
    }
}
