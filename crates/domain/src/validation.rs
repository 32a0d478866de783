//! Field-level validation results, collected so that a caller can report every problem
//! of a request at once instead of the first one only.

use std::fmt;

/// What is wrong with one input field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// Missing, null or empty where a value is required.
    Required,
    /// Present but of the wrong type, format, length or outside the allowed set.
    Invalid,
}

/// A problem attached to the name of the input field that has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The input field's name (`email_address`).
    pub field: String,
    /// Missing or invalid.
    pub problem: Problem,
    /// A short human explanation, safe to show to the caller.
    pub reason: String,
}

/// Every violation found in one input, in the order they were found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Violations(Vec<Violation>);

impl Violations {
    /// No violation yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Exactly one violation.
    pub fn single(field: &str, problem: Problem, reason: impl Into<String>) -> Self {
        let mut all = Self::new();
        all.push(field, problem, reason);
        all
    }

    /// Adds a violation (a field reports only its first).
    pub fn push(&mut self, field: &str, problem: Problem, reason: impl Into<String>) {
        // One field reports one problem: the first found is the most basic one.
        if !self.0.iter().any(|v| v.field == field) {
            self.0.push(Violation {
                field: field.to_owned(),
                problem,
                reason: reason.into(),
            });
        }
    }

    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every violation, in order.
    pub fn iter(&self) -> impl Iterator<Item = &Violation> {
        self.0.iter()
    }

    /// `Ok(value)` when nothing was found, otherwise every violation.
    pub fn into_result<T>(self, value: T) -> Result<T, Violations> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(self)
        }
    }
}

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|v| format!("{}: {}", v.field, v.reason))
            .collect();
        f.write_str(&parts.join("; "))
    }
}

impl std::error::Error for Violations {}

/// An object id as sent (`template_id`, `document_id`, `file_id`): 1 to 32 letters or
/// digits, as the interface's string(32). Ids this service makes are ULIDs (26).
pub fn parse_object_id(raw: &str) -> Result<String, Invalid> {
    let id = raw.trim();
    if id.is_empty() || id.len() > 32 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(Invalid::new("must be 1 to 32 letters or digits"));
    }
    Ok(id.to_owned())
}

/// Why a single value was refused by its value object's `parse`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

impl Invalid {
    /// A refusal with its reason.
    pub fn new(reason: impl Into<String>) -> Self {
        Self(reason.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_ids_are_1_to_32_letters_or_digits() {
        assert!(parse_object_id("01M81CSACZ1SV4AETQSXKB28J1").is_ok());
        assert!(parse_object_id("42").is_ok());
        assert!(parse_object_id(&"a".repeat(32)).is_ok());
        assert!(parse_object_id(&"a".repeat(33)).is_err());
        assert!(parse_object_id("../x").is_err());
        assert!(parse_object_id(" ").is_err());
    }
}
