//! A request's fields as they were sent, and the check that turns them into the domain's
//! value objects, collecting every problem so one answer reports them all.
//!
//! Request types (`api/dto/requests.rs`, the client's forms in `pages/`) are made of
//! [`Sent`] fields: serde reads any JSON object into them, so a wrongly typed field is a
//! violation reported beside the others (`LIMIT_INVALID`), never the whole body refused
//! at its first mistake. Their `TryFrom` conversions read each field through a [`Check`].

use domain::profile::Patch;
use domain::validation::{Invalid, Problem, Violations};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use crate::error::ApiError;

/// One field of a body as it was sent: absent (`Default`), or the JSON value it held.
/// Request types put `#[serde(default)]` on themselves, so an absent field is this one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sent(Option<Value>);

impl<'de> Deserialize<'de> for Sent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Value::deserialize(deserializer).map(|value| Self(Some(value)))
    }
}

/// What a field holds, before parsing.
enum Raw<'a> {
    Absent,
    /// `null` or an empty / blank string.
    Empty,
    Text(&'a str),
    Number(&'a serde_json::Number),
    Other,
}

impl Sent {
    /// Whether the body held the field at all (even as `null`).
    pub fn is_sent(&self) -> bool {
        self.0.is_some()
    }

    /// The value, unless absent or `null`.
    pub fn value(&self) -> Option<&Value> {
        self.0.as_ref().filter(|v| !v.is_null())
    }

    fn raw(&self) -> Raw<'_> {
        match &self.0 {
            None => Raw::Absent,
            Some(Value::Null) => Raw::Empty,
            Some(Value::String(s)) if s.trim().is_empty() => Raw::Empty,
            Some(Value::String(s)) => Raw::Text(s),
            Some(Value::Number(n)) => Raw::Number(n),
            Some(_) => Raw::Other,
        }
    }

    /// Whether the field holds a string that is not blank.
    pub fn has_text(&self) -> bool {
        matches!(self.raw(), Raw::Text(_))
    }

    /// A whole number if the field holds one; anything else is `None` and no problem
    /// (for fields whose bad values silently fall back to a default).
    pub fn whole_number(&self) -> Option<i64> {
        match &self.0 {
            Some(Value::Number(n)) => whole(n),
            _ => None,
        }
    }
}

/// A JSON number that is a whole number in range: `26` or `26.0` (JSON Schema calls both
/// integers), never `26.5`.
pub fn whole(n: &serde_json::Number) -> Option<i64> {
    n.as_i64().or_else(|| {
        let f = n.as_f64()?;
        // The bounds are exact powers of two, so the comparison is exact.
        (f.fract() == 0.0 && f >= -(2f64.powi(63)) && f < 2f64.powi(63)).then_some(f as i64)
    })
}

/// Reads a JSON object into a request type made of [`Sent`] fields. Such a type reads
/// any object, so a failure here is ours, never the client's.
pub fn read<T: DeserializeOwned>(body: &Map<String, Value>) -> Result<T, ApiError> {
    T::deserialize(body).map_err(|e| ApiError::internal(format!("request type: {e}")))
}

/// A JSON object read as the request type `R`, then converted into `T`: every violation
/// of the request in one answer.
pub fn parse<R, T>(body: &Map<String, Value>) -> Result<T, ApiError>
where
    R: DeserializeOwned,
    T: TryFrom<R, Error = ApiError>,
{
    T::try_from(read::<R>(body)?)
}

/// The problems found so far in one request's fields.
#[derive(Debug, Default)]
pub struct Check {
    violations: Violations,
}

impl Check {
    pub fn new() -> Self {
        Self::default()
    }

    fn invalid(&mut self, name: &str, reason: impl Into<String>) {
        self.violations.push(name, Problem::Invalid, reason);
    }

    fn required_missing(&mut self, name: &str) {
        self.violations.push(name, Problem::Required, "is required");
    }

    fn parse_text<T>(
        &mut self,
        name: &str,
        text: &str,
        parse: impl Fn(&str) -> Result<T, Invalid>,
    ) -> Option<T> {
        match parse(text) {
            Ok(value) => Some(value),
            Err(e) => {
                self.invalid(name, e.0);
                None
            }
        }
    }

    /// A string field that must be present and not empty.
    pub fn required<T>(
        &mut self,
        name: &str,
        sent: &Sent,
        parse: impl Fn(&str) -> Result<T, Invalid>,
    ) -> Option<T> {
        match sent.raw() {
            Raw::Absent | Raw::Empty => {
                self.required_missing(name);
                None
            }
            Raw::Text(text) => self.parse_text(name, text, parse),
            Raw::Number(_) | Raw::Other => {
                self.invalid(name, "must be a string");
                None
            }
        }
    }

    /// Like [`Check::required`], but a JSON integer is also read, by its decimal text
    /// (ids the interface documents as `int` in places and as strings in others).
    pub fn required_id<T>(
        &mut self,
        name: &str,
        sent: &Sent,
        parse: impl Fn(&str) -> Result<T, Invalid>,
    ) -> Option<T> {
        match sent.raw() {
            Raw::Number(n) if n.is_u64() => self.parse_text(name, &n.to_string(), parse),
            Raw::Number(n) if whole(n).is_some_and(|id| id >= 0) => {
                let text = whole(n).unwrap_or_default().to_string();
                self.parse_text(name, &text, parse)
            }
            _ => self.required(name, sent, parse),
        }
    }

    /// Like [`Check::required_id`], for an optional field (absent, `null` or `""`: `None`).
    pub fn optional_id<T>(
        &mut self,
        name: &str,
        sent: &Sent,
        parse: impl Fn(&str) -> Result<T, Invalid>,
    ) -> Option<T> {
        match sent.raw() {
            Raw::Absent | Raw::Empty => None,
            _ => self.required_id(name, sent, parse),
        }
    }

    /// An optional string field: absent or empty is `None`.
    pub fn optional<T>(
        &mut self,
        name: &str,
        sent: &Sent,
        parse: impl Fn(&str) -> Result<T, Invalid>,
    ) -> Option<T> {
        match self.patch(name, sent, parse) {
            Patch::Set(value) => Some(value),
            Patch::Keep | Patch::Clear => None,
        }
    }

    /// A JSON object field; `None` when absent or null (a problem only if `required`).
    pub fn object<'a>(
        &mut self,
        name: &str,
        sent: &'a Sent,
        required: bool,
    ) -> Option<&'a Map<String, Value>> {
        match sent.value() {
            Some(Value::Object(map)) => Some(map),
            None => {
                if required {
                    self.required_missing(name);
                }
                None
            }
            Some(_) => {
                self.invalid(name, "must be a JSON object");
                None
            }
        }
    }

    /// A JSON object field read into its own request type (see [`Check::object`]).
    pub fn nested<T: DeserializeOwned>(
        &mut self,
        name: &str,
        sent: &Sent,
        required: bool,
    ) -> Result<Option<T>, ApiError> {
        self.object(name, sent, required).map(read).transpose()
    }

    /// Records a problem found by the caller's own reading of a field.
    pub fn refuse(&mut self, name: &str, reason: impl Into<String>) {
        self.invalid(name, reason);
    }

    /// An optional string field: absent keeps, `null` or `""` clears, a value sets.
    pub fn patch<T>(
        &mut self,
        name: &str,
        sent: &Sent,
        parse: impl Fn(&str) -> Result<T, Invalid>,
    ) -> Patch<T> {
        match sent.raw() {
            Raw::Absent => Patch::Keep,
            Raw::Empty => Patch::Clear,
            Raw::Text(text) => self
                .parse_text(name, text, parse)
                .map_or(Patch::Keep, Patch::Set),
            Raw::Number(_) | Raw::Other => {
                self.invalid(name, "must be a string");
                Patch::Keep
            }
        }
    }

    /// Like [`Check::patch`], but a JSON number is also read, by its decimal text.
    pub fn numeric_patch<T>(
        &mut self,
        name: &str,
        sent: &Sent,
        parse: impl Fn(&str) -> Result<T, Invalid>,
    ) -> Patch<T> {
        match sent.raw() {
            Raw::Number(n) => {
                let text = n.to_string();
                self.parse_text(name, &text, parse)
                    .map_or(Patch::Keep, Patch::Set)
            }
            _ => self.patch(name, sent, parse),
        }
    }

    /// A whole-number field; `None` when absent (a problem only if `required`).
    pub fn integer(&mut self, name: &str, sent: &Sent, required: bool) -> Option<i64> {
        match sent.raw() {
            Raw::Absent | Raw::Empty => {
                if required {
                    self.required_missing(name);
                }
                None
            }
            Raw::Number(n) => match whole(n) {
                Some(value) => Some(value),
                None => {
                    self.invalid(name, "must be a whole number");
                    None
                }
            },
            Raw::Text(_) | Raw::Other => {
                self.invalid(name, "must be a whole number");
                None
            }
        }
    }

    /// A whole-number field that may be cleared: absent keeps, `null` (or `""`) clears, a
    /// JSON whole number is checked by `rule` and set.
    pub fn integer_patch<T>(
        &mut self,
        name: &str,
        sent: &Sent,
        rule: impl Fn(i64) -> Result<T, Invalid>,
    ) -> Patch<T> {
        match sent.raw() {
            Raw::Absent => Patch::Keep,
            Raw::Empty => Patch::Clear,
            Raw::Number(_) | Raw::Text(_) | Raw::Other => {
                let value = self.integer(name, sent, false);
                self.check(name, value, rule)
                    .map_or(Patch::Keep, Patch::Set)
            }
        }
    }

    /// A string kept as sent, empty included (a description cleared with `""`); absent
    /// or `null` is `None`.
    pub fn text(&mut self, name: &str, sent: &Sent) -> Option<String> {
        match sent.value()? {
            Value::String(s) => Some(s.clone()),
            _ => {
                self.invalid(name, "must be a string");
                None
            }
        }
    }

    /// An array of strings; absent or `null` is `None`.
    pub fn strings(&mut self, name: &str, sent: &Sent) -> Option<Vec<String>> {
        let texts: Option<Vec<String>> = match sent.value()? {
            Value::Array(items) => items
                .iter()
                .map(|item| item.as_str().map(str::to_owned))
                .collect(),
            _ => None,
        };
        if texts.is_none() {
            self.invalid(name, "must be an array of strings");
        }
        texts
    }

    /// A yes/no field written `1` or `0` (also `true`/`false`, `"1"`/`"0"`); absent or
    /// `null` is `None`.
    pub fn flag(&mut self, name: &str, sent: &Sent) -> Option<bool> {
        match sent.value()? {
            Value::Bool(b) => Some(*b),
            Value::Number(n) if whole(n) == Some(1) => Some(true),
            Value::Number(n) if whole(n) == Some(0) => Some(false),
            Value::String(s) if s.trim() == "1" => Some(true),
            Value::String(s) if s.trim() == "0" => Some(false),
            _ => {
                self.invalid(name, "must be 0 or 1");
                None
            }
        }
    }

    /// Checks an already read value against a further rule (which may turn it into a
    /// value object).
    pub fn check<T, U>(
        &mut self,
        name: &str,
        value: Option<T>,
        rule: impl Fn(T) -> Result<U, Invalid>,
    ) -> Option<U> {
        match value.map(rule)? {
            Ok(v) => Some(v),
            Err(e) => {
                self.invalid(name, e.0);
                None
            }
        }
    }

    /// `Ok(value)` when every field read so far was fine, else all their errors.
    pub fn finish<T>(self, value: impl FnOnce() -> Option<T>) -> Result<T, ApiError> {
        if !self.violations.is_empty() {
            return Err(ApiError::fields(&self.violations));
        }
        value().ok_or_else(|| ApiError::internal("a field was refused without a violation"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Each member of `body` as a field that was sent; a name it lacks is an absent one.
    struct Body(Map<String, Value>);

    impl Body {
        fn of(v: Value) -> Self {
            Self(v.as_object().cloned().expect("object"))
        }

        fn get(&self, name: &str) -> Sent {
            Sent(self.0.get(name).cloned())
        }
    }

    fn text(s: &str) -> Result<String, Invalid> {
        if s.len() > 3 {
            Err(Invalid::new("too long"))
        } else {
            Ok(s.to_owned())
        }
    }

    #[test]
    fn any_json_value_is_read_as_sent_and_absence_is_the_default() {
        #[derive(Deserialize, Default)]
        #[serde(default)]
        struct Request {
            limit: Sent,
            offset: Sent,
            email_address: Sent,
        }
        let body = Body::of(json!({"limit": "x", "offset": null, "other": 1}));
        let r: Request = read(&body.0).expect("any object reads");
        assert_eq!(r.limit, Sent(Some(json!("x"))));
        assert_eq!(r.offset, Sent(Some(Value::Null)));
        assert!(r.offset.is_sent(), "null was sent");
        assert!(!r.email_address.is_sent(), "absent");
    }

    #[test]
    fn whole_numbers_may_be_written_with_a_zero_fraction() {
        let b = Body::of(json!({"limit": 26.0, "offset": 2.5, "template_id": 7.0}));
        let mut c = Check::new();
        assert_eq!(c.integer("limit", &b.get("limit"), true), Some(26));
        assert_eq!(
            c.integer("offset", &b.get("offset"), true),
            None,
            "2.5 is not whole"
        );
        assert_eq!(
            c.required_id("template_id", &b.get("template_id"), |t| Ok::<_, Invalid>(
                t.to_owned()
            )),
            Some("7".to_owned())
        );
        assert!(c.finish(|| Some(())).is_err());
    }

    /// serde_json's default parsing of floats may miss by one unit in the last place:
    /// `4040964601398378.0` read as `…377.5`, refused as not whole (schemathesis found
    /// it). The `float_roundtrip` feature parses them exactly.
    #[test]
    fn large_whole_numbers_with_a_zero_fraction_are_read_exactly() {
        let body: Value = serde_json::from_str(r#"{"offset": 4040964601398378.0}"#).expect("JSON");
        let Some(Value::Number(n)) = body.get("offset") else {
            panic!("a number");
        };
        assert_eq!(whole(n), Some(4_040_964_601_398_378));
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let b = Body::of(json!({"b": "", "c": 5, "d": "long!"}));
        let mut c = Check::new();
        for name in ["a", "b", "c", "d"] {
            c.required(name, &b.get(name), text);
        }
        let err = c.finish(|| Some(())).expect_err("four problems");
        assert_eq!(
            err.codes(),
            ["A_REQUIRED", "B_REQUIRED", "C_INVALID", "D_INVALID"]
        );
    }

    #[test]
    fn patches_keep_clear_or_set() {
        let b = Body::of(json!({"n": null, "e": "", "s": "abc"}));
        let mut c = Check::new();
        assert_eq!(c.patch("absent", &b.get("absent"), text), Patch::Keep);
        assert_eq!(c.patch("n", &b.get("n"), text), Patch::Clear);
        assert_eq!(c.patch("e", &b.get("e"), text), Patch::Clear);
        assert_eq!(
            c.patch("s", &b.get("s"), text),
            Patch::Set("abc".to_owned())
        );
        assert!(c.finish(|| Some(())).is_ok());
    }

    #[test]
    fn integers_must_be_json_whole_numbers() {
        let b = Body::of(json!({"a": 3, "b": "3", "c": 2.5}));
        let mut c = Check::new();
        assert_eq!(c.integer("a", &b.get("a"), true), Some(3));
        c.integer("b", &b.get("b"), true);
        c.integer("c", &b.get("c"), true);
        c.integer("d", &b.get("d"), false);
        let err = c.finish(|| Some(())).expect_err("two problems");
        assert_eq!(err.codes(), ["B_INVALID", "C_INVALID"]);
    }

    #[test]
    fn integer_patches_keep_clear_or_set_whole_numbers_the_rule_allows() {
        let b = Body::of(json!({"n": null, "s": 30, "big": 4000, "text": "30", "half": 1.5}));
        let mut c = Check::new();
        let rule = |d: i64| {
            if (1..=3650).contains(&d) {
                Ok(d)
            } else {
                Err(Invalid::new("out of range"))
            }
        };
        assert_eq!(
            c.integer_patch("absent", &b.get("absent"), rule),
            Patch::Keep
        );
        assert_eq!(c.integer_patch("n", &b.get("n"), rule), Patch::Clear);
        assert_eq!(c.integer_patch("s", &b.get("s"), rule), Patch::Set(30));
        for refused in ["big", "text", "half"] {
            assert_eq!(c.integer_patch(refused, &b.get(refused), rule), Patch::Keep);
        }
        let err = c.finish(|| Some(())).expect_err("three refused");
        assert_eq!(err.codes(), ["BIG_INVALID", "TEXT_INVALID", "HALF_INVALID"]);
    }

    #[test]
    fn numeric_patches_read_numbers_by_their_text() {
        let b = Body::of(json!({"amount": 12.5}));
        let mut c = Check::new();
        assert_eq!(
            c.numeric_patch("amount", &b.get("amount"), |s| Ok::<_, Invalid>(
                s.to_owned()
            )),
            Patch::Set("12.5".to_owned())
        );
    }

    #[test]
    fn lists_flags_and_kept_texts_are_read_or_refused() {
        let b = Body::of(
            json!({"e": ["a", "b"], "bad": ["a", 1], "on": 1, "off": "0",
            "two": 2, "d": "", "n": null}),
        );
        let mut c = Check::new();
        assert_eq!(
            c.strings("e", &b.get("e")),
            Some(vec!["a".to_owned(), "b".to_owned()])
        );
        assert_eq!(c.strings("n", &b.get("n")), None);
        assert_eq!(c.strings("bad", &b.get("bad")), None);
        assert_eq!(
            (
                c.flag("on", &b.get("on")),
                c.flag("off", &b.get("off")),
                c.flag("x", &b.get("x"))
            ),
            (Some(true), Some(false), None)
        );
        assert_eq!(c.flag("two", &b.get("two")), None);
        assert_eq!(c.text("d", &b.get("d")), Some(String::new()));
        assert_eq!(c.text("n", &b.get("n")), None);
        let codes = c
            .finish(|| Some(()))
            .expect_err("two refused")
            .codes()
            .join(",");
        assert_eq!(codes, "BAD_INVALID,TWO_INVALID");
    }
}
