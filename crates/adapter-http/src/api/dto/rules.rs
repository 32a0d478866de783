//! The server's rules for request fields written as JSON Schema, for the fields whose rule
//! a derive attribute cannot say (a pattern built from the domain's own lists, `null` or
//! blank accepted as "clear", a quiz's address). Each schema accepts exactly what the
//! handler's reader accepts, no more and no less: schemathesis holds the document to it
//! both ways (a schema-valid request is never refused for its form, a schema-invalid one
//! never accepted).

use domain::document::DocumentStatus;
use domain::event::Activity;
use domain::profile::{ProfileStatus, countries, invisible_ranges};
use domain::template::Feature;
use domain::verification::Reason;
use serde_json::{Value, json};
use utoipa::openapi::RefOr;
use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::schema::{
    AdditionalProperties, AnyOfBuilder, KnownFormat, Object, ObjectBuilder, Schema, SchemaFormat,
    SchemaType, Type,
};

/// Blanks the reader trims around a value (Rust's `trim`, Unicode white space).
const BLANKS: &str = r"\s*";

fn anchored(rule: &str) -> String {
    format!("^{BLANKS}(?:{rule}){BLANKS}$")
}

/// Either case of each ASCII letter (`[Aa][Dd]`): JSON Schema's patterns have no flags.
fn any_case(word: &str) -> String {
    word.chars()
        .map(|c| {
            if c.is_ascii_alphabetic() {
                format!("[{}{}]", c.to_ascii_uppercase(), c.to_ascii_lowercase())
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn string(pattern: String, description: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(pattern))
        .description(Some(description))
}

/// An object id as sent (`document_id`, `webhook_id`...): 1 to 32 letters or digits.
pub fn object_id() -> Object {
    string(
        anchored("[A-Za-z0-9]{1,32}"),
        "1 to 32 letters or digits (this service's ids are ULIDs).",
    )
    .build()
}

/// A template's id: its text, or an integer read as its decimal text.
pub fn template_id() -> Schema {
    Schema::AnyOf(
        AnyOfBuilder::new()
            .item(object_id())
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(0))
                    .maximum(Some(i64::MAX)),
            )
            .description(Some(
                "A stored template's id (a string), or a whole number read as its decimal text.",
            ))
            .build(),
    )
}

fn one_of_names(names: impl Iterator<Item = &'static str>) -> String {
    anchored(&names.map(any_case).collect::<Vec<_>>().join("|"))
}

/// A client's review status, in any letter case.
pub fn profile_status() -> Object {
    let names = ProfileStatus::ALL.iter().map(ProfileStatus::as_str);
    string(
        one_of_names(names),
        "Pending, Approved or Declined, in any case.",
    )
    .build()
}

/// A document's review status, in any letter case.
pub fn document_status() -> Object {
    let names = DocumentStatus::ALL.iter().map(DocumentStatus::as_str);
    string(
        one_of_names(names),
        "Pending, Reviewed, Approved or Declined, in any case.",
    )
    .build()
}

/// A profile's `country`: an ISO 3166-1 alpha-2 code in any case; `null` or `""` clears it.
pub fn clearable_country() -> Schema {
    let codes = countries().map(any_case).collect::<Vec<_>>().join("|");
    clearable_as(string(anchored(&codes), "ISO 3166-1 alpha-2, in any case.").build())
}

/// `url` or `short_url`: `{public_url}/quiz/{token}` or `{public_url}/q/{code}`, with
/// or without trailing slashes, a query or a fragment.
const QUIZ_ADDRESS: &str = r"^[^?#]*/(?:quiz|q)/[A-Za-z0-9_-]{1,64}/*(?:\s*|[?#][\s\S]*)$";

/// The quiz address fields, `url` or `short_url`, beside the operation's `others` (typed
/// properties with their own rules). The reader takes `url` whenever it is sent, and
/// `short_url` only without it; `or` is another way to name the object (a profile's pair,
/// for verification/get) when neither is sent. An `anyOf` says so, written as JSON Schema
/// since utoipa's builders have no `not`.
pub fn with_quiz_address(others: ObjectBuilder, or: Option<(&[&str], Value)>) -> Object {
    let address = json!({ "type": "string", "pattern": QUIZ_ADDRESS });
    let mut either = vec![
        json!({ "required": ["url"], "properties": { "url": address } }),
        json!({
            "not": { "required": ["url"] },
            "required": ["short_url"],
            "properties": { "short_url": address }
        }),
    ];
    if let Some((required, properties)) = or {
        either.push(json!({
            "not": { "anyOf": [{ "required": ["url"] }, { "required": ["short_url"] }] },
            "required": required,
            "properties": properties
        }));
    }
    others
        .schema_type(Type::Object)
        .property(
            "url",
            described("The quiz's long address (`.../quiz/{token}`); or send `short_url`."),
        )
        .property(
            "short_url",
            described("The quiz's short address (`.../q/{code}`), read when `url` is not sent."),
        )
        .extensions(Some(Extensions::from_iter([(
            "anyOf",
            Value::from(either),
        )])))
        .build()
}

fn described(description: &str) -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .build()
}

/// Characters free text may not hold: the C0 and C1 controls and DEL.
const CONTROLS: &str = r"\u0000-\u001f\u007f-\u009f";

/// The invisible characters typed text may not hold
/// ([`is_invisible`](domain::profile::is_invisible)), as a class's
/// ranges: those of the Basic Multilingual Plane escaped, the others written as they
/// are (ECMAScript's `\u` escape names one UTF-16 unit; Python's regular expressions,
/// schemathesis' own, read a character outside the plane as one).
fn invisible_class() -> String {
    let one = |c: char| {
        if u32::from(c) <= 0xFFFF {
            format!("\\u{:04x}", u32::from(c))
        } else {
            c.to_string()
        }
    };
    invisible_ranges()
        .iter()
        .map(|&(first, last)| format!("{}-{}", one(first), one(last)))
        .collect()
}

/// Free text, not blank, without controls nor invisible characters; blanks around it
/// (which the reader trims before it looks inside) may be any.
fn text_pattern() -> String {
    let refused = format!("{CONTROLS}{}", invisible_class());
    anchored(&format!("[^{refused}]*[^\\s{refused}][^{refused}]*"))
}

/// A required name: 1 to 45 characters, not blank, without control characters.
pub fn short_text() -> Object {
    string(text_pattern(), "1 to 45 characters, no control characters.")
        .min_length(Some(1))
        .max_length(Some(45))
        .build()
}

/// A note: 1 to 255 characters, not blank, without `<` or `&` (the reader refuses what
/// reads as markup, `<b` or `&amp;`: this is stricter) nor controls but line breaks and
/// tabs.
pub fn note() -> Object {
    let allowed = r"[^<&\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]";
    let visible = r"[^\s<&\u0000-\u001f\u007f-\u009f]";
    string(
        format!("^{allowed}*{visible}{allowed}*$"),
        "1 to 255 characters of plain text.",
    )
    .min_length(Some(1))
    .max_length(Some(255))
    .build()
}

/// A mobile number: 10 digits, NANP (first and fourth 2-9), blanks around ignored.
pub const MOBILE: &str = r"^\s*[2-9][0-9]{2}[2-9][0-9]{6}\s*$";

/// A required mobile number.
pub fn mobile() -> Object {
    string(
        MOBILE.to_owned(),
        "10 digits, NANP (first and fourth digit 2-9).",
    )
    .build()
}

/// A field that `null` or a blank string clears, else holds `value`.
fn clearable_as(value: impl Into<RefOr<Schema>>) -> Schema {
    clearable_as_any([value.into()])
}

/// A field that `null` or a blank string clears, else holds any of `values`.
fn clearable_as_any(values: impl IntoIterator<Item = RefOr<Schema>>) -> Schema {
    let nothing = AnyOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .item(string(format!("^{BLANKS}$"), "Blank: clears the field.").build());
    Schema::AnyOf(values.into_iter().fold(nothing, AnyOfBuilder::item).build())
}

fn clearable_text(max: usize) -> Schema {
    clearable_as(
        string(text_pattern(), "Text without control characters.")
            .max_length(Some(max))
            .build(),
    )
}

/// Up to 45 characters; `null` or `""` clears it.
pub fn clearable_short_text() -> Schema {
    clearable_text(45)
}

/// Up to 100 characters; `null` or `""` clears it.
pub fn clearable_long_text() -> Schema {
    clearable_text(100)
}

/// `YYYY-MM-DD`, a real date before today; `null` or `""` clears it. The pattern names
/// years to 2025 (every one of them past) and leaves out 29 February.
pub fn clearable_date_of_birth() -> Schema {
    let year = r"(?:1[89][0-9]{2}|20[01][0-9]|202[0-5])";
    let day = r"(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))";
    clearable_as(
        string(
            anchored(&format!("{year}-{day}")),
            "YYYY-MM-DD, in the past.",
        )
        .build(),
    )
}

/// Ten digits, NANP (first and fourth 2-9); `null` or `""` clears it.
pub fn clearable_phone() -> Schema {
    clearable_as(string(MOBILE.to_owned(), "10 digits, NANP.").build())
}

/// An IPv4 or IPv6 address; `null` or `""` clears it.
pub fn clearable_ip() -> Schema {
    let ip = |format| {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(format)))
            .build()
            .into()
    };
    clearable_as_any([ip(KnownFormat::Ipv4), ip(KnownFormat::Ipv6)])
}

/// Two letters, in any case (a US state or Canadian province where `country` is US or
/// CA); `null` or `""` clears it.
pub fn clearable_state() -> Schema {
    clearable_as(string(anchored("[A-Za-z]{2}"), "Two letters.").build())
}

/// 1 to 10 letters, digits, spaces or hyphens; `null` or `""` clears it.
pub fn clearable_postal() -> Schema {
    clearable_as(
        string(
            anchored("[A-Za-z0-9-](?:[A-Za-z0-9 -]{0,8}[A-Za-z0-9-])?"),
            "1 to 10 letters, digits, spaces or hyphens.",
        )
        .build(),
    )
}

/// Nine digits; `null` or `""` clears it.
pub fn clearable_ssn() -> Schema {
    clearable_as(string(anchored("[0-9]{9}"), "9 digits.").build())
}

/// A non-negative amount with at most two decimals, as a number or a string; `null` or
/// `""` clears it.
pub fn clearable_amount() -> Schema {
    let number = ObjectBuilder::new()
        .schema_type(Type::Number)
        .minimum(Some(0))
        .maximum(Some(9_999_999_999_999.99))
        .multiple_of(Some(0.01))
        .build();
    let text = string(anchored(r"[0-9]{1,13}(?:\.[0-9]{1,2})?"), "125.50").build();
    clearable_as_any([number.into(), text.into()])
}

/// A template's `list`: step names to 0 (not required), 1 (required) or 2 (optional).
/// `asks_for_something`: at least one step 1 or 2, as template/create and a list sent
/// with quiz/create must (on template/update it depends on the stored list).
pub fn template_list(asks_for_something: bool) -> Object {
    let mut list = ObjectBuilder::new()
        .schema_type(Type::Object)
        .additional_properties(Some(AdditionalProperties::FreeForm(false)))
        .description(Some(
            "Step name → 0 (not required), 1 (required) or 2 (optional); missing steps are 0 \
             (kept, on template/update).",
        ));
    for &feature in Feature::ALL {
        list = list.property(
            feature.name(),
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .enum_values(Some([0, 1, 2])),
        );
    }
    if asks_for_something {
        let asked: Vec<Value> = Feature::ALL
            .iter()
            .map(|f| json!({ "required": [f.name()], "properties": { f.name(): { "enum": [1, 2] } } }))
            .collect();
        list = list.extensions(Some(Extensions::from_iter([("anyOf", Value::from(asked))])));
    }
    list.build()
}

/// A template's name: 1 to 100 characters besides the blanks around it (which the
/// reader trims), without control nor invisible characters. The length is in the pattern,
/// not `maxLength`, which would count the blanks the reader drops.
pub fn template_name() -> Object {
    let refused = format!("{CONTROLS}{}", invisible_class());
    let pattern = format!(r"[^\s{refused}](?:[^{refused}]{{0,98}}[^\s{refused}])?");
    string(
        anchored(&pattern),
        "1 to 100 characters, no control characters.",
    )
    .build()
}

/// A name left as it is when `null` or blank (template/update, quiz/create).
pub fn optional_template_name() -> Schema {
    clearable_as(template_name())
}

/// quiz/create's `template`: a stored template's id, or a list that asks for something
/// (and a name for it).
pub fn quiz_template() -> Object {
    let either = json!([{ "required": ["template_id"] }, { "required": ["list"] }]);
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .property("template_id", template_id())
        .property("template_name", optional_template_name())
        .property("list", template_list(true))
        .extensions(Some(Extensions::from_iter([("anyOf", either)])))
        .build()
}

/// A yes/no flag: `1`/`0`, `true`/`false` or `"1"`/`"0"`; `null` is as if not sent.
pub fn flag() -> Schema {
    Schema::AnyOf(
        AnyOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Null))
            .item(ObjectBuilder::new().schema_type(Type::Boolean))
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .enum_values(Some([0, 1])),
            )
            .item(string(anchored("[01]"), "\"1\" or \"0\"").build())
            .description(Some("1 (yes) or 0 (no)."))
            .build(),
    )
}

/// A webhook's address: `https://` and a host name, no credentials, at most 2048
/// characters. The server also takes public IP addresses (and, where the operator allows
/// it, `http` and private ones); the pattern names the usual form.
pub fn webhook_url() -> Object {
    https_address()
}

/// `https://`, a host name, a port, a path and a query of RFC 3986's characters: the usual
/// form of the addresses the server takes (it also takes IP addresses and more). A path
/// of fewer characters was narrower than the server: the fuzzer's `/*` was taken.
fn https_address() -> Object {
    let label = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
    let pchar = "A-Za-z0-9._~%!$&'()*+,;=:@-";
    string(
        format!("^{BLANKS}[Hh][Tt][Tt][Pp][Ss]://(?:{label}\\.)+[a-z]{{2,63}}(?::[1-9][0-9]{{0,3}})?(?:/[/{pchar}]*)?(?:\\?[/?{pchar}]*)?{BLANKS}$"),
        "https://host/path",
    )
    .max_length(Some(2048))
    .build()
}

/// quiz/create's `redirect_url`: an https address without credentials; `null` or `""`:
/// none.
pub fn redirect_url() -> Schema {
    clearable_as(https_address())
}

/// A merchant's `policy`: failure reason codes, each to `decline` or `review`.
fn policy() -> Object {
    let mut policy = ObjectBuilder::new()
        .schema_type(Type::Object)
        .additional_properties(Some(AdditionalProperties::FreeForm(false)))
        .description(Some(
            "Failure reason codes, each to `decline` or `review`; replaces the merchant's \
             earlier choices (`{}`: back to the default).",
        ));
    for reason in Reason::ALL.iter().copied().filter(Reason::is_failure) {
        policy = policy.property(
            reason.as_str(),
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(["decline", "review"])),
        );
    }
    policy.build()
}

/// A webhook's `events`: activity names; absent, `null` or empty: every activity.
pub fn webhook_events() -> Schema {
    let names: Vec<&str> = Activity::ALL.iter().map(Activity::as_str).collect();
    Schema::AnyOf(
        AnyOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Null))
            .item(
                utoipa::openapi::schema::ArrayBuilder::new().items(
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .enum_values(Some(names)),
                ),
            )
            .build(),
    )
}

/// A whole number from `min` to `max`, where `null` or a blank string is as if not sent.
fn optional_integer(min: i64, max: i64, description: &str) -> Schema {
    clearable_as(
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(min))
            .maximum(Some(max))
            .description(Some(description))
            .build(),
    )
}

/// An optional page's `offset`: 0 or more, default 0.
pub fn optional_offset() -> Schema {
    optional_integer(0, i64::MAX, "0 or more, default 0.")
}

/// An optional page's `limit`: 1 to 50, default 10.
pub fn optional_limit() -> Schema {
    optional_integer(1, 50, "1 to 50, default 10.")
}

/// A merchant's default quiz validity, in days.
pub fn quiz_expiry_days() -> Schema {
    optional_integer(1, 30, "1 to 30.")
}

/// quiz/create's `quiz_expiry_days`: any value, since the interface takes anything but a
/// whole number from 1 to 30 as the merchant's default rather than refusing it.
pub fn quiz_expiry_days_or_default() -> Object {
    ObjectBuilder::new()
        .schema_type(SchemaType::AnyValue)
        .description(Some(
            "1 to 30; anything else (another number, a string, null) means the merchant's \
             default.",
        ))
        .build()
}

/// The age a client must have reached, in years.
pub fn minimum_age() -> Schema {
    optional_integer(1, 120, "1 to 120 years.")
}

/// Days personal data is kept after a profile's last change; `null` or blank: kept.
pub fn retention_days() -> Schema {
    optional_integer(1, 3650, "1 to 3650 days; null keeps personal data.")
}

/// How old a proof of address may be, in days.
pub fn proof_of_address_max_age_days() -> Schema {
    optional_integer(1, 365, "1 to 365 days.")
}

/// `screening_threshold`: the lowest score of a match, or `null` for no change.
pub fn screening_threshold() -> Schema {
    optional_integer(80, 100, "80 to 100.")
}

/// `screening_lists`: list names (none: every list), or `null` for no change.
pub fn screening_lists() -> Schema {
    Schema::AnyOf(
        AnyOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Null))
            .item(
                utoipa::openapi::schema::ArrayBuilder::new()
                    .items(string(anchored("[A-Za-z0-9._-]{1,64}"), "A list's name.")),
            )
            .description(Some("The lists screened against; none: every list."))
            .build(),
    )
}

/// A merchant's `policy`, or `null` for no change.
pub fn optional_policy() -> Schema {
    Schema::AnyOf(
        AnyOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Null))
            .item(policy())
            .build(),
    )
}
