//! The people of a merchant who review clients in the dashboard (contract §10). They are
//! made on the server's machine (`idv merchant user ...`), never through the API.

use secrecy::{ExposeSecret, SecretString};
use strum::{EnumString, IntoStaticStr, VariantArray};
use time::OffsetDateTime;

use crate::ids::UserId;
use crate::merchant::MerchantId;
use crate::profile::Email;
use crate::validation::Invalid;

/// The shortest password a person may choose.
pub const MIN_PASSWORD_LEN: usize = 12;
/// The longest accepted (hashing cost grows with it).
pub const MAX_PASSWORD_LEN: usize = 256;
/// Characters of a generated one-time password (base62: about 119 bits).
pub const GENERATED_PASSWORD_LEN: usize = 20;

/// A dashboard user.
#[derive(Debug, Clone)]
pub struct User {
    /// Its id.
    pub id: UserId,
    /// The merchant whose data it sees.
    pub merchant_id: MerchantId,
    /// How it signs in; unique across the service.
    pub email: Email,
    /// The password, hashed (Argon2id in production).
    pub password_hash: PasswordHash,
    /// What it may do in the dashboard.
    pub role: Role,
    /// Whether it may sign in; disabling ends its sessions at once.
    pub enabled: bool,
    /// When set, signing in also asks for a one-time code made from it (TOTP).
    pub totp: Option<TotpSecret>,
    /// When it was made.
    pub created_at: OffsetDateTime,
}

/// What a dashboard user may do (contract §16). Both review clients; only an admin
/// manages API keys, webhooks, users and the merchant's settings, and reads the audit
/// trail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, VariantArray, IntoStaticStr, EnumString)]
#[strum(serialize_all = "snake_case")]
pub enum Role {
    /// Reviews clients: profiles, documents, statuses, notes, new quiz links.
    #[default]
    Reviewer,
    /// A reviewer who also manages the merchant's account.
    Admin,
}

impl Role {
    /// Both roles.
    pub const ALL: &'static [Role] = <Self as VariantArray>::VARIANTS;

    /// Its name, as stored and as the CLI takes it.
    pub fn as_str(&self) -> &'static str {
        self.into()
    }

    /// The role of this name (`admin` or `reviewer`).
    pub fn parse(name: &str) -> Result<Self, Invalid> {
        name.parse()
            .map_err(|_| Invalid::new("must be admin or reviewer"))
    }

    /// Whether this role manages the merchant's account.
    pub fn is_admin(&self) -> bool {
        matches!(self, Self::Admin)
    }
}

/// A password as typed. Its `Debug` never shows it.
#[derive(Clone)]
pub struct Password(SecretString);

impl Password {
    /// A password a person chose: 12 to 256 characters.
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let count = raw.chars().count();
        if count < MIN_PASSWORD_LEN {
            return Err(Invalid::new(format!(
                "must be at least {MIN_PASSWORD_LEN} characters"
            )));
        }
        if count > MAX_PASSWORD_LEN {
            return Err(Invalid::new(format!(
                "must be at most {MAX_PASSWORD_LEN} characters"
            )));
        }
        Ok(Self(SecretString::from(raw.to_owned())))
    }

    /// A password this service generated.
    pub fn generated(text: String) -> Self {
        Self(SecretString::from(text))
    }

    /// The password's text: for the hasher, and shown once when generated.
    pub fn expose(&self) -> &str {
        self.0.expose_secret()
    }
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(…)")
    }
}

/// The shared secret of a time-based one-time password (RFC 6238), base32 as
/// authenticator apps take it. Its `Debug` never shows it.
#[derive(Clone)]
pub struct TotpSecret(SecretString);

impl TotpSecret {
    /// A secret as made, or read back from storage.
    pub fn new(base32: impl Into<String>) -> Self {
        Self(SecretString::from(base32.into()))
    }

    /// The secret's base32 text.
    pub fn expose(&self) -> &str {
        self.0.expose_secret()
    }
}

impl std::fmt::Debug for TotpSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TotpSecret(…)")
    }
}

/// A password's hash in PHC string form (`$argon2id$...`). Its `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct PasswordHash(String);

impl PasswordHash {
    /// A hash made by the hasher, or read back from storage.
    pub fn new(phc: impl Into<String>) -> Self {
        Self(phc.into())
    }

    /// The hash's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for PasswordHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PasswordHash(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_are_named_admin_and_reviewer_and_reviewer_is_the_default() {
        assert_eq!(Role::default(), Role::Reviewer);
        for &role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Ok(role));
        }
        assert!(Role::parse("Admin").is_err(), "names are exact");
        assert!(Role::Admin.is_admin() && !Role::Reviewer.is_admin());
    }

    #[test]
    fn passwords_are_12_to_256_characters_and_never_shown() {
        assert!(Password::parse("short").is_err());
        assert!(Password::parse(&"é".repeat(12)).is_ok());
        assert!(Password::parse(&"x".repeat(257)).is_err());
        let p = Password::parse("correct horse battery").expect("valid");
        assert_eq!(format!("{p:?}"), "Password(…)");
        assert_eq!(
            format!("{:?}", PasswordHash::new("$argon2id$x")),
            "PasswordHash(…)"
        );
    }
}
