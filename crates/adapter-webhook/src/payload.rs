//! The body of a delivery (contract §9).

use domain::event::Activity;
use domain::profile::ProfileStatus;
use domain::verification::VerificationStatus;
use domain::webhook::Notification;
use serde::Serialize;
use strum::VariantArray;
use time::format_description::well_known::Rfc3339;
use utoipa::ToSchema;
use utoipa::openapi::schema::{Object, ObjectBuilder, Type};

// Fields are written in the order they are declared, the order the body has always had,
// so that receivers see the same bytes across versions. The OpenAPI document describes
// deliveries from these types (`crate::openapi`): their doc comments are its text.

/// An event of the activity log, and whom it is about by e-mail and mobile only.
#[derive(Serialize, ToSchema)]
#[schema(as = WebhookEvent)]
pub(crate) struct Body<'a> {
    /// The event's activity.
    #[serde(rename = "type")]
    #[schema(schema_with = activity)]
    kind: &'a str,
    /// When the event happened (RFC 3339, UTC, whole seconds).
    #[schema(format = DateTime)]
    timestamp: &'a str,
    data: Data<'a>,
}

/// The event as `event/read` lists it; `document_id` and `quiz_url` only where the event
/// has them.
#[derive(Serialize, ToSchema)]
#[schema(as = WebhookEventData)]
pub(crate) struct Data<'a> {
    /// The event's id, as in `event/read`.
    event_id: &'a str,
    #[schema(schema_with = activity)]
    activity: &'a str,
    details: &'a str,
    template_used: &'a str,
    /// The client's verification link.
    url: &'a str,
    #[schema(schema_with = status)]
    status: &'a str,
    #[schema(format = DateTime)]
    created_at: &'a str,
    /// The profile's, to look it up with the signed API.
    email_address: &'a str,
    mobile_number: &'a str,
    /// On document events only.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    document_id: Option<&'a str>,
    /// The quiz's long address, on events made by a quiz link.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    quiz_url: Option<&'a str>,
}

/// One of the activity names (`docs/api.md`, "Event log").
fn activity() -> Object {
    names(Activity::VARIANTS.iter().map(Activity::as_str)).build()
}

/// A profile's status, or a verification's.
fn status() -> Object {
    let profile = ProfileStatus::ALL.iter().map(ProfileStatus::as_str);
    let verification = VerificationStatus::VARIANTS
        .iter()
        .map(VerificationStatus::as_str);
    names(profile.chain(verification))
        .description(Some(
            "The profile's status after the event, or the verification's outcome \
             (`verification_completed`)",
        ))
        .build()
}

fn names(names: impl Iterator<Item = &'static str>) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(names))
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
pub(crate) mod tests {
    use super::*;
    use domain::event::Activity;
    use domain::profile::ProfileStatus;
    use serde_json::Value;
    use time::macros::datetime;

    /// A document's event: every field but `quiz_url`.
    pub(crate) fn notification() -> Notification {
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
