//! The audit trail (contract §16): who signed in to the dashboard, who failed to, who was
//! locked out, who made or disabled a key or a user, and who looked at which profile or
//! document file, with the client address and the time. Kept apart from the activity log
//! of profiles (§7): that one is the merchant's record of a client, this one is the
//! record of the merchant's own people.

use strum::{EnumString, IntoStaticStr, VariantArray};
use time::OffsetDateTime;

use std::borrow::Cow;

use crate::ids::UserId;
use crate::merchant::{ApiKeyId, MerchantId};
use crate::profile::Email;

/// What was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, VariantArray, IntoStaticStr, EnumString)]
#[strum(serialize_all = "snake_case")]
pub enum AuditAction {
    /// A dashboard user signed in.
    SignedIn,
    /// A known user's sign-in was refused (wrong password or code, or disabled).
    SignInFailed,
    /// A known user's sign-in was refused because of earlier failures.
    SignInLocked,
    /// A dashboard user signed out.
    SignedOut,
    /// An API key was made.
    KeyCreated,
    /// An API key was disabled (by hand, or with the user who made it).
    KeyDisabled,
    /// A dashboard user was made.
    UserCreated,
    /// A dashboard user was disabled.
    UserDisabled,
    /// A dashboard user was given a second factor.
    SecondFactorSet,
    /// The merchant's settings were changed.
    SettingsChanged,
    /// A profile's page was shown.
    ProfileViewed,
    /// A document's file was shown or downloaded in the dashboard.
    DocumentFileViewed,
    /// A reviewer blocked a profile's face (`face_on_blocklist`).
    FaceBlocked,
}

impl AuditAction {
    /// Every action.
    pub const ALL: &'static [AuditAction] = <Self as VariantArray>::VARIANTS;

    /// Its name, as stored and printed.
    pub fn as_str(&self) -> &'static str {
        self.into()
    }

    /// The action of this name.
    pub fn parse(name: &str) -> Option<Self> {
        name.parse().ok()
    }
}

/// Which entries a reading of the trail wants: refused sign-ins (failures and lock-outs
/// of known users, which a stranger can make by the thousand) or everyone's actions, so
/// that a flood of the one never pushes the other out of sight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditKind {
    /// `sign_in_failed` and `sign_in_locked`.
    Refusals,
    /// Every other action.
    Actions,
}

impl AuditKind {
    /// The actions of this kind.
    pub fn actions(self) -> Vec<AuditAction> {
        AuditAction::ALL
            .iter()
            .copied()
            .filter(|a| self.includes(*a))
            .collect()
    }

    /// Whether `action` is of this kind.
    pub fn includes(self, action: AuditAction) -> bool {
        let refusal = matches!(
            action,
            AuditAction::SignInFailed | AuditAction::SignInLocked
        );
        refusal == (self == Self::Refusals)
    }
}

/// Who did it: the operator on the server's machine, a dashboard user, or a caller of
/// the merchant API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Auditor {
    /// `idv ...` on the server's machine.
    Cli,
    /// A dashboard user, by id and e-mail.
    User(UserId, Email),
    /// A signed API request, by its key's public id.
    ApiKey(ApiKeyId),
}

/// What the trail's name of an API key starts with.
const API_KEY_PREFIX: &str = "api_key:";

impl Auditor {
    /// How the trail names it: `cli`, the user's e-mail, or `api_key:` and the key's id.
    pub fn name(&self) -> Cow<'_, str> {
        match self {
            Self::Cli => Cow::Borrowed("cli"),
            Self::User(_, email) => Cow::Borrowed(email.as_str()),
            Self::ApiKey(key) => Cow::Owned(format!("{API_KEY_PREFIX}{key}")),
        }
    }

    /// The auditor a trail's `name` (with no user id) names: an API key or the CLI.
    pub fn not_a_user(name: &str) -> Self {
        name.strip_prefix(API_KEY_PREFIX)
            .map_or(Self::Cli, |key| Self::ApiKey(ApiKeyId::new(key)))
    }

    /// The user's id, when a user did it.
    pub fn user_id(&self) -> Option<&UserId> {
        match self {
            Self::User(id, _) => Some(id),
            Self::Cli | Self::ApiKey(_) => None,
        }
    }
}

/// One record of the trail. Never edited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    /// Its id (a ULID: ids sort by time).
    pub id: String,
    /// Whose trail it is in.
    pub merchant_id: MerchantId,
    /// Who did it.
    pub auditor: Auditor,
    /// What was done.
    pub action: AuditAction,
    /// What it was done to: a key, a user's e-mail, a profile id, a document and file id;
    /// empty when nothing. Never a personal value of a client.
    pub subject: String,
    /// The client address it came from; empty for the CLI.
    pub address: String,
    /// When.
    pub at: OffsetDateTime,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_has_a_distinct_name_that_parses_back() {
        let mut names: Vec<&str> = AuditAction::ALL.iter().map(|a| a.as_str()).collect();
        for &action in AuditAction::ALL {
            assert_eq!(AuditAction::parse(action.as_str()), Some(action));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), AuditAction::ALL.len());
        assert_eq!(AuditAction::parse("nothing"), None);
    }

    #[test]
    fn the_cli_and_users_are_named_as_the_trail_shows_them() {
        let email = Email::parse("admin@example.com").expect("valid");
        let user = Auditor::User(UserId::new("u1"), email);
        assert_eq!(user.name(), "admin@example.com");
        assert_eq!(user.user_id().map(UserId::as_str), Some("u1"));
        assert_eq!(Auditor::Cli.name(), "cli");
        assert_eq!(Auditor::Cli.user_id(), None);
        let key = Auditor::ApiKey(ApiKeyId::new("key-1"));
        assert_eq!(key.name(), "api_key:key-1");
        assert_eq!(key.user_id(), None);
        assert_eq!(Auditor::not_a_user("api_key:key-1"), key);
        assert_eq!(Auditor::not_a_user("cli"), Auditor::Cli);
    }
}
