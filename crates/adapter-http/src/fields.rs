//! Reads the fields of a JSON body through the domain's value objects, collecting every
//! problem so one answer reports them all.

use domain::profile::Patch;
use domain::validation::{Invalid, Problem, Violations};
use serde_json::{Map, Value};

use crate::error::ApiError;

/// What a body holds under one name, before parsing.
enum Raw<'a> {
    Absent,
    /// `null` or an empty / blank string.
    Empty,
    Text(&'a str),
    Number(&'a serde_json::Number),
    Other,
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

#[derive(Debug)]
pub struct Fields<'a> {
    body: &'a Map<String, Value>,
    violations: Violations,
}

impl<'a> Fields<'a> {
    pub fn new(body: &'a Map<String, Value>) -> Self {
        Self {
            body,
            violations: Violations::new(),
        }
    }

    fn raw(&self, name: &str) -> Raw<'a> {
        match self.body.get(name) {
            None => Raw::Absent,
            Some(Value::Null) => Raw::Empty,
            Some(Value::String(s)) if s.trim().is_empty() => Raw::Empty,
            Some(Value::String(s)) => Raw::Text(s),
            Some(Value::Number(n)) => Raw::Number(n),
            Some(_) => Raw::Other,
        }
    }

    /// Whether the body holds the field at all (even as `null`).
    pub fn has(&self, name: &str) -> bool {
        self.body.contains_key(name)
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
        parse: impl Fn(&str) -> Result<T, Invalid>,
    ) -> Option<T> {
        match self.raw(name) {
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

    /// Like [`Fields::required`], but a JSON integer is also read, by its decimal text
    /// (ids the interface documents as `int` in places and as strings in others).
    pub fn required_id<T>(
        &mut self,
        name: &str,
        parse: impl Fn(&str) -> Result<T, Invalid>,
    ) -> Option<T> {
        match self.raw(name) {
            Raw::Number(n) if n.is_u64() => self.parse_text(name, &n.to_string(), parse),
            Raw::Number(n) if whole(n).is_some_and(|id| id >= 0) => {
                let text = whole(n).unwrap_or_default().to_string();
                self.parse_text(name, &text, parse)
            }
            _ => self.required(name, parse),
        }
    }

    /// Like [`Fields::required_id`], for an optional field (absent, `null` or `""`: `None`).
    pub fn optional_id<T>(
        &mut self,
        name: &str,
        parse: impl Fn(&str) -> Result<T, Invalid>,
    ) -> Option<T> {
        match self.raw(name) {
            Raw::Absent | Raw::Empty => None,
            _ => self.required_id(name, parse),
        }
    }

    /// An optional string field: absent or empty is `None`.
    pub fn optional<T>(
        &mut self,
        name: &str,
        parse: impl Fn(&str) -> Result<T, Invalid>,
    ) -> Option<T> {
        match self.patch(name, parse) {
            Patch::Set(value) => Some(value),
            Patch::Keep | Patch::Clear => None,
        }
    }

    /// A whole number if the field holds one; anything else is `None` and no problem
    /// (for fields whose bad values silently fall back to a default).
    pub fn lenient_integer(&self, name: &str) -> Option<i64> {
        match self.body.get(name) {
            Some(Value::Number(n)) => whole(n),
            _ => None,
        }
    }

    /// A JSON object field; `None` when absent or null (a problem only if `required`).
    pub fn object(&mut self, name: &str, required: bool) -> Option<&'a Map<String, Value>> {
        match self.body.get(name) {
            Some(Value::Object(map)) => Some(map),
            None | Some(Value::Null) => {
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

    /// Records a problem found by the caller's own reading of a field.
    pub fn refuse(&mut self, name: &str, reason: impl Into<String>) {
        self.invalid(name, reason);
    }

    /// Takes over the problems found by a reader of a nested object.
    pub fn absorb(&mut self, nested: Fields<'_>) {
        for v in nested.violations.iter() {
            self.violations.push(&v.field, v.problem, v.reason.clone());
        }
    }

    /// An optional string field: absent keeps, `null` or `""` clears, a value sets.
    pub fn patch<T>(&mut self, name: &str, parse: impl Fn(&str) -> Result<T, Invalid>) -> Patch<T> {
        match self.raw(name) {
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

    /// Like [`Fields::patch`], but a JSON number is also read, by its decimal text.
    pub fn numeric_patch<T>(
        &mut self,
        name: &str,
        parse: impl Fn(&str) -> Result<T, Invalid>,
    ) -> Patch<T> {
        match self.raw(name) {
            Raw::Number(n) => {
                let text = n.to_string();
                self.parse_text(name, &text, parse)
                    .map_or(Patch::Keep, Patch::Set)
            }
            _ => self.patch(name, parse),
        }
    }

    /// A whole-number field; `None` when absent (a problem only if `required`).
    pub fn integer(&mut self, name: &str, required: bool) -> Option<i64> {
        match self.raw(name) {
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
        rule: impl Fn(i64) -> Result<T, Invalid>,
    ) -> Patch<T> {
        match self.raw(name) {
            Raw::Absent => Patch::Keep,
            Raw::Empty => Patch::Clear,
            Raw::Number(_) | Raw::Text(_) | Raw::Other => {
                let value = self.integer(name, false);
                self.check(name, value, rule)
                    .map_or(Patch::Keep, Patch::Set)
            }
        }
    }

    /// A string kept as sent, empty included (a description cleared with `""`); absent
    /// or `null` is `None`.
    pub fn text(&mut self, name: &str) -> Option<String> {
        match self.body.get(name) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => {
                self.invalid(name, "must be a string");
                None
            }
        }
    }

    /// An array of strings; absent or `null` is `None`.
    pub fn strings(&mut self, name: &str) -> Option<Vec<String>> {
        let items = match self.body.get(name) {
            None | Some(Value::Null) => return None,
            Some(Value::Array(items)) => items,
            Some(_) => {
                self.invalid(name, "must be an array of strings");
                return None;
            }
        };
        let texts: Option<Vec<String>> = items
            .iter()
            .map(|item| item.as_str().map(str::to_owned))
            .collect();
        if texts.is_none() {
            self.invalid(name, "must be an array of strings");
        }
        texts
    }

    /// A yes/no field written `1` or `0` (also `true`/`false`, `"1"`/`"0"`); absent or
    /// `null` is `None`.
    pub fn flag(&mut self, name: &str) -> Option<bool> {
        match self.body.get(name)? {
            Value::Null => None,
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

    fn body(v: Value) -> Map<String, Value> {
        v.as_object().cloned().expect("object")
    }

    fn text(s: &str) -> Result<String, Invalid> {
        if s.len() > 3 {
            Err(Invalid::new("too long"))
        } else {
            Ok(s.to_owned())
        }
    }

    #[test]
    fn whole_numbers_may_be_written_with_a_zero_fraction() {
        let b = body(json!({"limit": 26.0, "offset": 2.5, "template_id": 7.0}));
        let mut f = Fields::new(&b);
        assert_eq!(f.integer("limit", true), Some(26));
        assert_eq!(f.integer("offset", true), None, "2.5 is not a whole number");
        assert_eq!(
            f.required_id("template_id", |t| Ok::<_, Invalid>(t.to_owned())),
            Some("7".to_owned())
        );
        assert!(f.finish(|| Some(())).is_err());
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let b = body(json!({"b": "", "c": 5, "d": "long!"}));
        let mut f = Fields::new(&b);
        f.required("a", text);
        f.required("b", text);
        f.required("c", text);
        f.required("d", text);
        let err = f.finish(|| Some(())).expect_err("four problems");
        assert_eq!(
            err.codes(),
            ["A_REQUIRED", "B_REQUIRED", "C_INVALID", "D_INVALID"]
        );
    }

    #[test]
    fn patches_keep_clear_or_set() {
        let b = body(json!({"n": null, "e": "", "s": "abc"}));
        let mut f = Fields::new(&b);
        assert_eq!(f.patch("absent", text), Patch::Keep);
        assert_eq!(f.patch("n", text), Patch::Clear);
        assert_eq!(f.patch("e", text), Patch::Clear);
        assert_eq!(f.patch("s", text), Patch::Set("abc".to_owned()));
        assert!(f.finish(|| Some(())).is_ok());
    }

    #[test]
    fn integers_must_be_json_whole_numbers() {
        let b = body(json!({"a": 3, "b": "3", "c": 2.5}));
        let mut f = Fields::new(&b);
        assert_eq!(f.integer("a", true), Some(3));
        f.integer("b", true);
        f.integer("c", true);
        f.integer("d", false);
        let err = f.finish(|| Some(())).expect_err("two problems");
        assert_eq!(err.codes(), ["B_INVALID", "C_INVALID"]);
    }

    #[test]
    fn integer_patches_keep_clear_or_set_whole_numbers_the_rule_allows() {
        let b = body(json!({"n": null, "s": 30, "big": 4000, "text": "30", "half": 1.5}));
        let mut f = Fields::new(&b);
        let rule = |d: i64| {
            if (1..=3650).contains(&d) {
                Ok(d)
            } else {
                Err(Invalid::new("out of range"))
            }
        };
        assert_eq!(f.integer_patch("absent", rule), Patch::Keep);
        assert_eq!(f.integer_patch("n", rule), Patch::Clear);
        assert_eq!(f.integer_patch("s", rule), Patch::Set(30));
        for refused in ["big", "text", "half"] {
            assert_eq!(f.integer_patch(refused, rule), Patch::Keep);
        }
        let err = f.finish(|| Some(())).expect_err("three refused");
        assert_eq!(err.codes(), ["BIG_INVALID", "TEXT_INVALID", "HALF_INVALID"]);
    }

    #[test]
    fn numeric_patches_read_numbers_by_their_text() {
        let b = body(json!({"amount": 12.5}));
        let mut f = Fields::new(&b);
        assert_eq!(
            f.numeric_patch("amount", |s| Ok::<_, Invalid>(s.to_owned())),
            Patch::Set("12.5".to_owned())
        );
    }

    #[test]
    fn lists_flags_and_kept_texts_are_read_or_refused() {
        let b = body(
            json!({"e": ["a", "b"], "bad": ["a", 1], "on": 1, "off": "0",
            "two": 2, "d": "", "n": null}),
        );
        let mut f = Fields::new(&b);
        assert_eq!(f.strings("e"), Some(vec!["a".to_owned(), "b".to_owned()]));
        assert_eq!(f.strings("n"), None);
        assert_eq!(f.strings("bad"), None);
        assert_eq!(
            (f.flag("on"), f.flag("off"), f.flag("x")),
            (Some(true), Some(false), None)
        );
        assert_eq!(f.flag("two"), None);
        assert_eq!(f.text("d"), Some(String::new()));
        assert_eq!(f.text("n"), None);
        let codes = f
            .finish(|| Some(()))
            .expect_err("two refused")
            .codes()
            .join(",");
        assert_eq!(codes, "BAD_INVALID,TWO_INVALID");
    }
}
