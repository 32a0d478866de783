//! The identities of the objects a merchant holds, each its own type: a document id can
//! never be passed where a file id is expected. Ids this service makes are ULIDs (they
//! sort by creation); ids a caller sends are parsed as the interface's string(32).

use std::fmt;

use crate::validation::{Invalid, parse_object_id};

/// An id's type: its text kept private, made by this service or read back from storage.
macro_rules! text_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(String);

        impl $name {
            /// An id this service made, or read back from storage.
            pub fn new(id: impl Into<String>) -> Self {
                Self(id.into())
            }

            /// The id's text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl From<String> for $name {
            fn from(id: String) -> Self {
                Self(id)
            }
        }

        impl From<&str> for $name {
            fn from(id: &str) -> Self {
                Self(id.to_owned())
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

/// An id a caller may also send, as the interface's string(32).
macro_rules! object_id {
    ($(#[$doc:meta])* $name:ident) => {
        text_id!($(#[$doc])* $name);

        impl $name {
            /// An id as a caller sent it: 1 to 32 letters or digits.
            pub fn parse(raw: &str) -> Result<Self, Invalid> {
                parse_object_id(raw).map(Self)
            }
        }
    };
}

text_id!(
    /// An API key's public name (`key-` and 32 characters), sent in the `Api-Key` header;
    /// its secret is apart, in the [`crate::merchant::ApiKey`].
    ApiKeyId
);
object_id!(
    /// A merchant (a ULID).
    MerchantId
);
object_id!(
    /// A profile's storage identity; never shown to merchants, who name a profile by its
    /// pair.
    ProfileId
);
object_id!(
    /// A quiz (a verification link).
    QuizId
);
object_id!(
    /// A document a client handed in.
    DocumentId
);
object_id!(
    /// One stored file of a document.
    FileId
);
object_id!(
    /// A merchant's stored template.
    TemplateId
);
object_id!(
    /// A merchant's note on a profile.
    NoteId
);
object_id!(
    /// An entry of the activity log.
    EventId
);
object_id!(
    /// A merchant's webhook endpoint.
    WebhookId
);
object_id!(
    /// One event owed to one webhook endpoint.
    DeliveryId
);
object_id!(
    /// A dashboard user.
    UserId
);
object_id!(
    /// One verification of a submitted quiz.
    VerificationId
);

/// The secret of a quiz's long address, `{public_url}/quiz/{token}`: the only credential
/// of the client's pages. Its `Debug` shows only its first four characters.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct QuizToken(String);

/// The secret of a quiz's short address, `{public_url}/q/{code}`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ShortCode(String);

macro_rules! link_secret {
    ($name:ident) => {
        impl $name {
            /// A secret this service made, or read back from storage.
            pub fn new(secret: impl Into<String>) -> Self {
                Self(secret.into())
            }

            /// The secret's text: it belongs in the quiz's address and nowhere else.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl From<String> for $name {
            fn from(secret: String) -> Self {
                Self(secret)
            }
        }

        impl From<&str> for $name {
            fn from(secret: &str) -> Self {
                Self(secret.to_owned())
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let shown = self.0.get(..4).unwrap_or_default();
                write!(f, "{}({shown}…)", stringify!($name))
            }
        }
    };
}

link_secret!(QuizToken);
link_secret!(ShortCode);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_from_callers_are_1_to_32_letters_or_digits() {
        assert_eq!(
            DocumentId::parse(" 01ABC ").map(|d| d.to_string()),
            Ok("01ABC".into())
        );
        assert!(FileId::parse("../x").is_err());
        assert!(TemplateId::parse(&"a".repeat(33)).is_err());
    }

    #[test]
    fn link_secrets_never_show_whole_in_debug_output() {
        let token = QuizToken::new("abcdefghijklmnop");
        assert_eq!(format!("{token:?}"), "QuizToken(abcd…)");
    }
}
