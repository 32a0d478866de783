//! The body of a delivery (contract §9).

use domain::webhook::Notification;
use serde::Serialize;
use time::format_description::well_known::Rfc3339;

/// `{"type", "timestamp", "data": {...}}`: the event, and whom it is about by e-mail and
/// mobile only. Fields are written in the order they are declared, the order the body has
/// always had, so that receivers see the same bytes across versions.
#[derive(Serialize)]
struct Body<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    timestamp: &'a str,
    data: Data<'a>,
}

/// The event's fields; `document_id` and `quiz_url` only where the event has them.
#[derive(Serialize)]
struct Data<'a> {
    event_id: &'a str,
    activity: &'a str,
    details: &'a str,
    template_used: &'a str,
    url: &'a str,
    status: &'a str,
    created_at: &'a str,
    email_address: &'a str,
    mobile_number: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    document_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    quiz_url: Option<&'a str>,
}

/// The body of the delivery of `n`. The same notification always gives the same bytes,
/// so a retry signs and sends exactly what the first attempt did.
pub fn body(n: &Notification) -> String {
    let created_at = n
        .created_at
        .to_offset(time::UtcOffset::UTC)
        .replace_nanosecond(0)
        .unwrap_or(n.created_at)
        .format(&Rfc3339)
        .unwrap_or_default();
    let body = Body {
        kind: n.activity.as_str(),
        timestamp: &created_at,
        data: Data {
            event_id: n.event_id.as_str(),
            activity: n.activity.as_str(),
            details: &n.details,
            template_used: &n.template_used,
            url: &n.url,
            status: n.status.as_str(),
            created_at: &created_at,
            email_address: &n.email_address,
            mobile_number: &n.mobile_number,
            document_id: n.document_id.as_ref().map(|d| d.as_str()),
            quiz_url: n.quiz_url.as_deref(),
        },
    };
    serde_json::to_string(&body).expect("a body of strings serialises")
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::event::Activity;
    use domain::profile::ProfileStatus;
    use serde_json::Value;
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
        // The bytes earlier versions wrote, field for field.
        assert_eq!(
            body(&notification()),
            r#"{"type":"document_uploaded","timestamp":"2026-11-22T10:00:00Z","data":{"event_id":"01JEVENT","activity":"document_uploaded","details":"Passport uploaded","template_used":"KYC","url":"https://idv.example/q/abc","status":"Pending","created_at":"2026-11-22T10:00:00Z","email_address":"ada@example.com","mobile_number":"4165550123","document_id":"01JDOC"}}"#
        );
    }
}
