//! Deliveries as the OpenAPI document describes them, under `webhooks` (OpenAPI 3.1): what
//! a merchant's receiver is sent, described from the type that writes it
//! ([`crate::payload`]), with the signature's headers. The application adds this to the
//! API's own document (`idv openapi`).

use domain::webhook::{ANSWER_TIMEOUT, MAX_ATTEMPTS};
use utoipa::openapi::path::{HttpMethod, OperationBuilder, ParameterBuilder, ParameterIn};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::{
    ContentBuilder, OpenApi, PathItem, PathsBuilder, Ref, Required, ResponseBuilder,
};
use utoipa::{Modify, PartialSchema, ToSchema};

use crate::payload::Body;

/// The name the document gives a delivery under `webhooks`.
pub const WEBHOOK: &str = "event";

/// Adds the delivery of an event, and the schemas of its body, to a document.
#[derive(Debug, Clone, Copy)]
pub struct Deliveries;

impl Modify for Deliveries {
    fn modify(&self, openapi: &mut OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        let mut schemas = vec![(Body::name().into_owned(), Body::schema())];
        Body::schemas(&mut schemas);
        components.schemas.extend(schemas);
        let header = |name: &str, text: &str| {
            ParameterBuilder::new()
                .name(name)
                .parameter_in(ParameterIn::Header)
                .required(Required::True)
                .schema(Some(String::schema()))
                .description(Some(text))
                .build()
        };
        let operation = OperationBuilder::new()
            .summary(Some("An event of the activity log, pushed to an endpoint"))
            .description(Some(format!(
                "Posted to every enabled endpoint whose `events` hold its activity, signed as \
                 Standard Webhooks says (docs/webhooks.md). Answer any 2xx within {} s; \
                 anything else is a failed attempt, tried again on a schedule, up to {} \
                 attempts. At least once: the same `webhook-id` may arrive twice.",
                ANSWER_TIMEOUT.as_secs(),
                MAX_ATTEMPTS
            )))
            .operation_id(Some("webhook_event"))
            .tag("webhooks")
            .parameter(header(
                "webhook-id",
                "The event's id: the same on every attempt, so duplicates can be dropped",
            ))
            .parameter(header(
                "webhook-timestamp",
                "Unix seconds when the attempt was signed",
            ))
            .parameter(header(
                "webhook-signature",
                "`v1,` and the base64 of HMAC-SHA256 over \
                 `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the bytes the \
                 secret's base64 (after `whsec_`) decodes to; during a rotation, two such \
                 values separated by a space",
            ))
            .request_body(Some(
                RequestBodyBuilder::new()
                    .content(
                        "application/json",
                        ContentBuilder::new()
                            .schema(Some(Ref::from_schema_name(Body::name())))
                            .build(),
                    )
                    .required(Some(Required::True))
                    .build(),
            ))
            .response(
                "2XX",
                ResponseBuilder::new().description("Delivered: not sent again"),
            )
            .response(
                "410",
                ResponseBuilder::new()
                    .description("Gone: the delivery fails and the endpoint is disabled"),
            )
            .response(
                "default",
                ResponseBuilder::new().description(
                    "A failed attempt, tried again (a `Retry-After` on 429 or 503 is honoured)",
                ),
            )
            .build();
        let webhooks = PathsBuilder::new()
            .path(WEBHOOK, PathItem::new(HttpMethod::Post, operation))
            .build();
        openapi.webhooks = Some(webhooks);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::webhook::Notification;
    use utoipa::openapi::OpenApiBuilder;

    #[test]
    fn the_delivery_and_its_body_are_described() {
        let mut document = OpenApiBuilder::new().build();
        Deliveries.modify(&mut document);
        let json: serde_json::Value =
            serde_json::to_value(&document).expect("the document serialises");
        let post = &json["webhooks"][WEBHOOK]["post"];
        assert_eq!(
            post["requestBody"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/WebhookEvent"
        );
        let headers: Vec<&str> = post["parameters"]
            .as_array()
            .expect("parameters")
            .iter()
            .filter_map(|p| p["name"].as_str())
            .collect();
        assert_eq!(
            headers,
            ["webhook-id", "webhook-timestamp", "webhook-signature"]
        );
        let schemas = &json["components"]["schemas"];
        let body = &schemas["WebhookEvent"]["properties"];
        assert!(
            body["type"]["enum"]
                .as_array()
                .expect("the activities")
                .contains(&"quiz_submitted".into())
        );
        assert_eq!(
            body["data"]["$ref"],
            "#/components/schemas/WebhookEventData"
        );
        let data = &schemas["WebhookEventData"];
        let status = data["properties"]["status"]["enum"]
            .as_array()
            .expect("statuses");
        assert!(status.contains(&"Approved".into()) && status.contains(&"passed".into()));
        let required = data["required"].as_array().expect("required");
        assert!(required.contains(&"event_id".into()));
        assert!(
            !required.contains(&"document_id".into()),
            "only where the event has one"
        );
    }

    /// Every field the body is written with is described, and nothing else.
    #[test]
    fn the_described_fields_are_the_written_ones() {
        let every_field = Notification {
            quiz_url: Some("https://idv.example/q/abc".into()),
            ..crate::payload::tests::notification()
        };
        let written: serde_json::Value =
            serde_json::from_str(&crate::body(&every_field)).expect("json");
        let mut document = OpenApiBuilder::new().build();
        Deliveries.modify(&mut document);
        let json = serde_json::to_value(&document).expect("serialises");
        let described = |name: &str| -> Vec<String> {
            let mut keys: Vec<String> = json["components"]["schemas"][name]["properties"]
                .as_object()
                .expect("properties")
                .keys()
                .cloned()
                .collect();
            keys.sort();
            keys
        };
        let keys = |v: &serde_json::Value| -> Vec<String> {
            let mut keys: Vec<String> = v.as_object().expect("object").keys().cloned().collect();
            keys.sort();
            keys
        };
        assert_eq!(described("WebhookEvent"), keys(&written));
        assert_eq!(described("WebhookEventData"), keys(&written["data"]));
    }
}
