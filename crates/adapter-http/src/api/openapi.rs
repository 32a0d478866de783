//! The OpenAPI 3.1 document of the merchant API, generated from the same types that
//! serialise the answers (`dto/`) and the handlers' `#[utoipa::path]`s. Served unsigned at
//! `GET /api/v1/openapi.json`, rendered at `GET /docs` (Swagger UI, shipped in the binary:
//! it works with no internet access), and committed as `docs/openapi.json` (a test in `app`,
//! which adds the webhooks' deliveries, keeps that copy true).

use domain::merchant::OperationKind;
use utoipa::openapi::path::Operation;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{
    ContentBuilder, HeaderBuilder, OpenApi as Document, RefOr, Response, ResponseBuilder,
};
use utoipa::{Modify, OpenApi, PartialSchema, ToSchema};

use crate::api::routes::Documented;
use crate::envelope::{Envelope, ErrorBody};
use crate::error::ErrorItem;

#[derive(Debug, OpenApi)]
#[openapi(
    info(
        title = "idv: identity verification for merchants",
        description = "The signed JSON API of `idv` (docs/api.md). Every operation is a POST \
            of a JSON object, signed with the `Api-Key` and `Signature` headers: \
            `Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, \"<t>.<path>.<raw body>\")>`, \
            or, for keys created with it, the replayable compatibility scheme \
            `base64(HMAC-SHA256(secret, http_build_query(body)))`. Every answer, success or \
            error, starts with the envelope fields.",
        license(name = "Apache-2.0")
    ),
    tags(
        (name = "profiles", description = "Client profiles"),
        (name = "templates", description = "Templates of verification steps"),
        (name = "quizzes", description = "Verification links sent to clients"),
        (name = "documents", description = "What clients handed in, and the merchant's review"),
        (name = "notes", description = "The merchant's notes on a profile"),
        (name = "events", description = "The activity log"),
        (name = "merchant", description = "The merchant's own settings"),
        (name = "webhooks", description = "Signed pushes of every event (docs/webhooks.md)"),
        (name = "screening", description = "Sanctions, PEP and internal lists (docs/screening.md)"),
        (name = "verifications", description = "The checks run on every submitted quiz (docs/verification.md)"),
    )
)]
struct ApiDoc;

/// The API's own document: the operations of the route table, each with the signature
/// and the error answers they all share.
fn api_doc() -> Document {
    let mut document = ApiDoc::openapi();
    document.merge(Documented::openapi());
    Signed.modify(&mut document);
    document
}

/// The document as served (and committed as `docs/openapi.json`): the API's own, with
/// what other adapters describe (the application adds the webhooks' deliveries), as
/// pretty JSON, generated once when the application is built.
#[derive(Debug, Clone)]
pub struct ApiDocument(String);

impl ApiDocument {
    /// The API's document with each of `additions` applied, in order.
    pub fn with(additions: &[&dyn Modify]) -> Self {
        let mut document = api_doc();
        for addition in additions {
            addition.modify(&mut document);
        }
        Self(
            document
                .to_pretty_json()
                .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}")),
        )
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Error answers every signed operation may give, with when they happen.
const ERRORS: [(&str, &str); 8] = [
    (
        "400",
        "Field errors (`<FIELD>_REQUIRED`, `<FIELD>_INVALID`, all at once), `*_NOT_FOUND`, \
         `PROFILE_EXIST`, `FEATURE_REQUIRED`, `TEMPLATE_REQUIRED`, `QUIZ_EXPIRED`, \
         `WEBHOOK_LIMIT_REACHED`, `REQUEST_BODY_INVALID`",
    ),
    (
        "401",
        "`API_KEY_REQUIRED`, `API_KEY_INVALID`, `API_KEY_DISABLED`, `SIGNATURE_REQUIRED`, \
         `SIGNATURE_INVALID`, `SIGNATURE_EXPIRED`",
    ),
    (
        "403",
        "`IP_ADDRESS_DENIED`: the key is limited to other networks",
    ),
    (
        "408",
        "`REQUEST_TIMEOUT`: the body stopped arriving for 15 s",
    ),
    ("413", "`REQUEST_TOO_LARGE`: body over 64 KiB"),
    (
        "415",
        "`CONTENT_TYPE_INVALID`: a content type other than JSON",
    ),
    ("429", "`RATE_LIMITED`, with `Retry-After`"),
    (
        "503",
        "`SERVICE_UNAVAILABLE`: the database cannot be reached now",
    ),
];

/// The 403 of an operation that writes: a read-only key is refused it too.
const FORBIDDEN_TO_WRITE: &str = "`IP_ADDRESS_DENIED`: the key is limited to other networks; \
     `KEY_READ_ONLY`: the key may only call operations that read (`get`, `read`, `download`)";

/// Adds what every operation shares: the two signature headers as security schemes, and
/// the error answers in the envelope.
struct Signed;

impl Modify for Signed {
    fn modify(&self, openapi: &mut Document) {
        let components = openapi.components.get_or_insert_with(Default::default);
        let header = |name: &str, text: &str| {
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(name, text)))
        };
        components.add_security_scheme(
            "api_key",
            header(
                "Api-Key",
                "`key-` and 32 characters, issued by `idv merchant`",
            ),
        );
        components.add_security_scheme(
            "signature",
            header(
                "Signature",
                "`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, \"<t>.<path>.<raw body>\")>` \
                 (at most 5 `v1=` values; `t` within 300 s), or the compatibility scheme",
            ),
        );
        components
            .schemas
            .insert("ErrorAnswer".into(), Envelope::<ErrorBody>::schema());
        components
            .schemas
            .insert(ErrorBody::name().into_owned(), ErrorBody::schema());
        components
            .schemas
            .insert(ErrorItem::name().into_owned(), ErrorItem::schema());
        let error = |description: &str, status: &str| -> RefOr<Response> {
            let mut builder = ResponseBuilder::new().description(description).content(
                "application/json",
                ContentBuilder::new()
                    .schema(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                        "ErrorAnswer",
                    ))))
                    .build(),
            );
            if status == "429" {
                builder = builder.header(
                    "Retry-After",
                    HeaderBuilder::new()
                        .schema(Some(u64::schema()))
                        .description(Some("Seconds to wait"))
                        .build(),
                );
            }
            RefOr::T(builder.build())
        };
        let security = SecurityRequirement::new("api_key", Vec::<String>::new())
            .add("signature", Vec::<String>::new());
        for (path, item) in openapi.paths.paths.iter_mut() {
            let Some(operation) = item.post.as_mut() else {
                continue;
            };
            let name = path.trim_start_matches("/api/v1/");
            // Not in the route table: the test of the document says so.
            let kind = crate::api::routes::kind_of(name).unwrap_or(OperationKind::Write);
            // `profile/update-status` → `profile_update_status`: unique, for generators.
            operation.operation_id = Some(name.replace(['/', '-'], "_"));
            add_errors(operation, kind, &error);
            operation.security = Some(vec![security.clone()]);
        }
    }
}

fn add_errors(
    operation: &mut Operation,
    kind: OperationKind,
    error: &impl Fn(&str, &str) -> RefOr<Response>,
) {
    for (status, description) in ERRORS {
        let description = match (status, kind) {
            ("403", OperationKind::Write) => FORBIDDEN_TO_WRITE,
            _ => description,
        };
        operation
            .responses
            .responses
            .insert(status.to_owned(), error(description, status));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_of_the_route_table_is_documented_with_its_errors() {
        let doc = api_doc();
        let documented: Vec<&String> = doc.paths.paths.keys().collect();
        for &(path, kind) in crate::api::routes::OPERATIONS {
            let full = format!("/api/v1/{path}");
            assert!(documented.contains(&&full), "{full} is not in the document");
            let operation = doc.paths.paths[&full].post.as_ref().expect("a POST");
            for status in ["400", "401", "403", "429"] {
                assert!(
                    operation.responses.responses.contains_key(status),
                    "{full} {status}"
                );
            }
            let RefOr::T(forbidden) = &operation.responses.responses["403"] else {
                panic!("{full}: 403 is written out");
            };
            assert_eq!(
                forbidden.description.contains("KEY_READ_ONLY"),
                kind == OperationKind::Write,
                "{full}: a read-only key is refused only what writes"
            );
        }
        assert_eq!(documented.len(), crate::api::routes::OPERATIONS.len());
    }
}
