//! Notes a merchant keeps on a profile.

use time::OffsetDateTime;

use crate::ids::NoteId;
use crate::merchant::MerchantId;
use crate::profile::ProfileId;
use crate::validation::Invalid;

/// Longest note, in characters.
pub const MAX_NOTE_CHARS: usize = 255;

/// Plain text of 1 to 255 characters (not counting surrounding blanks), without HTML
/// markup. Kept exactly as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteText(String);

impl NoteText {
    /// A note as written: 1 to 255 characters (blanks around not counted), no markup, no control characters.
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            return Err(Invalid::new("must not be blank"));
        }
        if raw.chars().count() > MAX_NOTE_CHARS {
            return Err(Invalid::new(format!(
                "must be at most {MAX_NOTE_CHARS} characters"
            )));
        }
        if looks_like_markup(raw) {
            return Err(Invalid::new("must be plain text, without HTML markup"));
        }
        if raw
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r')
        {
            return Err(Invalid::new("must not contain control characters"));
        }
        Ok(Self(raw.to_owned()))
    }

    /// The note as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A tag (`<b>`, `</p>`, `<!-- -->`, `<?xml`) or a character reference (`&amp;`,
/// `&#60;`). A lone `<` or `&` in prose ("a < b", "R&D") is fine.
fn looks_like_markup(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(i, &b)| {
        let next = bytes.get(i + 1).copied().unwrap_or(b' ');
        match b {
            b'<' => next.is_ascii_alphabetic() || matches!(next, b'/' | b'!' | b'?'),
            b'&' => {
                let rest = &text[i + 1..];
                let end = rest.find(';').unwrap_or(usize::MAX);
                end > 0
                    && end <= 10
                    && rest[..end]
                        .bytes()
                        .enumerate()
                        .all(|(j, c)| c.is_ascii_alphanumeric() || (j == 0 && c == b'#'))
            }
            _ => false,
        }
    })
}

/// A merchant's note on a profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// Its id (a ULID).
    pub id: NoteId,
    /// The merchant that wrote it.
    pub merchant_id: MerchantId,
    /// The profile it is about.
    pub profile_id: ProfileId,
    /// What it says.
    pub text: NoteText,
    /// When it was written.
    pub created_at: OffsetDateTime,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_one_to_255_characters_kept_exactly() {
        assert_eq!(
            NoteText::parse(" Called the client. ").map(|n| n.as_str().to_owned()),
            Ok(" Called the client. ".into())
        );
        assert!(NoteText::parse(&"é".repeat(255)).is_ok());
        assert!(NoteText::parse(&"é".repeat(256)).is_err());
        assert!(NoteText::parse("   ").is_err());
        assert!(NoteText::parse("").is_err());
    }

    #[test]
    fn markup_is_refused_but_prose_symbols_are_not() {
        for markup in [
            "<b>bold</b>",
            "see </p>",
            "<script>alert(1)</script>",
            "<!-- x -->",
            "x &amp; y",
            "&#60;",
        ] {
            assert!(NoteText::parse(markup).is_err(), "{markup}");
        }
        for prose in [
            "a < b and b > c",
            "R&D team",
            "5 <= 6",
            "Tom & Jerry; done",
            "<3",
        ] {
            assert!(NoteText::parse(prose).is_ok(), "{prose}");
        }
    }
}
