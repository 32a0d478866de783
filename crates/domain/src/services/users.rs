use std::sync::Arc;

use crate::audit::AuditAction;
use crate::error::{DomainError, Resource};
use crate::ids::UserId;
use crate::merchant::{ApiKeyId, MerchantId};
use crate::ports::{
    AuditLog, Clock, IdGenerator, MerchantRepository, OneTimeCodes, PasswordHasher,
    SecretGenerator, StoreError, UserRepository,
};
use crate::profile::Email;
use crate::services::{AuditPorts, AuditTrail, Initiator};
use crate::user::{GENERATED_PASSWORD_LEN, Password, Role, TotpSecret, User};

/// Dashboard users: made and disabled by the operator.
#[derive(Clone)]
pub struct UserService {
    users: Arc<dyn UserRepository>,
    merchants: Arc<dyn MerchantRepository>,
    hasher: Arc<dyn PasswordHasher>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    secrets: Arc<dyn SecretGenerator>,
    codes: Arc<dyn OneTimeCodes>,
    audit: AuditTrail,
}

/// The ports the user service works over.
#[derive(Clone)]
pub struct UserPorts {
    /// Where users are kept.
    pub users: Arc<dyn UserRepository>,
    /// Their merchants.
    pub merchants: Arc<dyn MerchantRepository>,
    /// Password hashing.
    pub hasher: Arc<dyn PasswordHasher>,
    /// Second factors.
    pub codes: Arc<dyn OneTimeCodes>,
    /// Where user changes are recorded.
    pub audit: Arc<dyn AuditLog>,
    /// The time.
    pub clock: Arc<dyn Clock>,
    /// Ids of users and audit entries.
    pub ids: Arc<dyn IdGenerator>,
    /// Generated passwords.
    pub secrets: Arc<dyn SecretGenerator>,
}

debug_as_name!(UserPorts);

debug_as_name!(UserService);

impl UserService {
    /// The service over its ports.
    pub fn new(ports: UserPorts) -> Self {
        Self {
            audit: AuditTrail::new(AuditPorts {
                log: ports.audit,
                clock: ports.clock.clone(),
                ids: ports.ids.clone(),
            }),
            users: ports.users,
            merchants: ports.merchants,
            hasher: ports.hasher,
            clock: ports.clock,
            ids: ports.ids,
            secrets: ports.secrets,
            codes: ports.codes,
        }
    }

    /// A user of `merchant` in `role`, signing in as `email` with `password`, or,
    /// without one, a generated one-time password, returned to be shown once.
    pub async fn create(
        &self,
        merchant: &MerchantId,
        email: Email,
        role: Role,
        password: Option<Password>,
    ) -> Result<(User, Option<Password>), DomainError> {
        if self.merchants.find(merchant).await?.is_none() {
            return Err(DomainError::NotFound(Resource::Merchant));
        }
        let generated = password
            .is_none()
            .then(|| Password::generated(self.secrets.base62(GENERATED_PASSWORD_LEN)));
        let chosen = password.as_ref().or(generated.as_ref()).ok_or_else(|| {
            DomainError::Internal("a password was neither given nor generated".into())
        })?;
        let user = User {
            id: UserId::new(self.ids.next_id()),
            merchant_id: merchant.clone(),
            email,
            password_hash: self.hasher.hash(chosen).await?,
            role,
            enabled: true,
            totp: None,
            created_at: self.clock.now(),
        };
        match self.users.insert(&user).await {
            Ok(()) => {}
            Err(StoreError::Duplicate) => return Err(DomainError::UserExists),
            Err(e) => return Err(e.into()),
        }
        let subject = format!("{} ({})", user.email.as_str(), role.as_str());
        self.audit
            .record(
                merchant,
                &Initiator::cli(),
                AuditAction::UserCreated,
                &subject,
            )
            .await?;
        Ok((user, generated))
    }

    /// The user with this e-mail, or `NotFound(User)`.
    async fn existing(&self, email: &Email) -> Result<User, DomainError> {
        self.users
            .find_by_email(email)
            .await?
            .ok_or(DomainError::NotFound(Resource::User))
    }

    /// Gives the user a second factor: a new TOTP secret, returned with the
    /// `otpauth://` address an authenticator app reads, to be shown once. From then on
    /// signing in also asks for the current code.
    pub async fn set_totp(&self, email: &Email) -> Result<(TotpSecret, String), DomainError> {
        let user = self.existing(email).await?;
        let secret = self.codes.new_secret();
        match self.users.set_totp(email, Some(&secret)).await {
            Err(StoreError::Missing) => return Err(DomainError::NotFound(Resource::User)),
            other => other?,
        }
        self.audit
            .record(
                &user.merchant_id,
                &Initiator::cli(),
                AuditAction::SecondFactorSet,
                email.as_str(),
            )
            .await?;
        let uri = self.codes.uri(&secret, email.as_str());
        Ok((secret, uri))
    }

    /// Disables the user with this e-mail: it can no longer sign in, its sessions end,
    /// and the API keys it made stop working. Returns those keys.
    pub async fn disable(&self, email: &Email) -> Result<Vec<ApiKeyId>, DomainError> {
        let user = self.existing(email).await?;
        let keys = match self.users.set_enabled(email, false).await {
            Err(StoreError::Missing) => return Err(DomainError::NotFound(Resource::User)),
            other => other?,
        };
        let cli = Initiator::cli();
        let merchant = &user.merchant_id;
        self.audit
            .record(merchant, &cli, AuditAction::UserDisabled, email.as_str())
            .await?;
        for key in &keys {
            self.audit
                .record(merchant, &cli, AuditAction::KeyDisabled, key.as_str())
                .await?;
        }
        Ok(keys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{
        FixedClock, MemoryAudit, MemoryMerchants, MemoryUsers, PlainHasher, ReversedCodes,
        SequentialIds,
    };
    use crate::merchant::{ApiKey, KeyAccess, Merchant, MerchantSettings, SecretString};
    use futures_executor::block_on;

    struct Fixture {
        service: UserService,
        users: Arc<MemoryUsers>,
        merchants: Arc<MemoryMerchants>,
        audit: Arc<MemoryAudit>,
        clock: Arc<FixedClock>,
    }

    fn key(
        merchant: &MerchantId,
        name: &str,
        by: Option<&UserId>,
        now: time::OffsetDateTime,
    ) -> ApiKey {
        ApiKey {
            key: name.into(),
            merchant_id: merchant.clone(),
            secret: SecretString::from("sec"),
            enabled: true,
            compat_signature: false,
            allowed_networks: Vec::new(),
            access: KeyAccess::Full,
            created_at: now,
            created_by: by.cloned(),
        }
    }

    fn fixture() -> Fixture {
        let merchants = Arc::new(MemoryMerchants::default());
        let users = Arc::new(MemoryUsers::new(merchants.clone()));
        let audit = Arc::new(MemoryAudit::default());
        let clock = Arc::new(FixedClock::default());
        let ids = Arc::new(SequentialIds::default());
        let service = UserService::new(UserPorts {
            users: users.clone(),
            merchants: merchants.clone(),
            hasher: Arc::new(PlainHasher),
            codes: Arc::new(ReversedCodes),
            audit: audit.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            secrets: ids,
        });
        let merchant = Merchant {
            id: MerchantId::new("m1"),
            name: "Acme".into(),
            settings: MerchantSettings::default(),
            created_at: clock.0,
        };
        block_on(merchants.create(&merchant, &key(&merchant.id, "key-cli", None, clock.0)))
            .expect("stored");
        Fixture {
            service,
            users,
            merchants,
            audit,
            clock,
        }
    }

    fn email(text: &str) -> Email {
        Email::parse(text).expect("valid")
    }

    /// The merchant's audit trail, oldest first: each entry's action and subject.
    fn trail(f: &Fixture) -> Vec<(AuditAction, String)> {
        let entries =
            block_on(f.audit.since(&MerchantId::new("m1"), f.clock.0, None, 100)).expect("read");
        entries.into_iter().map(|e| (e.action, e.subject)).collect()
    }

    #[test]
    fn a_user_is_made_once_per_address_with_the_password_given_or_one_made() {
        let f = fixture();
        let m1 = MerchantId::new("m1");
        let given = Password::parse("a long enough passphrase").expect("valid");
        let (user, shown) =
            block_on(
                f.service
                    .create(&m1, email("rev@example.com"), Role::Reviewer, Some(given)),
            )
            .expect("made");
        assert!(shown.is_none(), "a chosen password is not shown back");
        assert_eq!(user.password_hash.as_str(), "a long enough passphrase");
        let (_, made) =
            block_on(
                f.service
                    .create(&m1, email("admin@example.com"), Role::Admin, None),
            )
            .expect("made");
        let made = made.expect("a made password is shown once");
        assert!(made.expose().len() >= GENERATED_PASSWORD_LEN);
        let again = block_on(
            f.service
                .create(&m1, email("REV@example.com"), Role::Admin, None),
        );
        assert!(matches!(again, Err(DomainError::UserExists)), "{again:?}");
        let nobody = block_on(f.service.create(
            &MerchantId::new("nobody"),
            email("x@example.com"),
            Role::Admin,
            None,
        ));
        assert!(
            matches!(nobody, Err(DomainError::NotFound(Resource::Merchant))),
            "{nobody:?}"
        );
        assert_eq!(
            trail(&f),
            [
                (
                    AuditAction::UserCreated,
                    "rev@example.com (reviewer)".into()
                ),
                (AuditAction::UserCreated, "admin@example.com (admin)".into()),
            ]
        );
    }

    #[test]
    fn a_second_factor_is_set_and_recorded() {
        let f = fixture();
        let m1 = MerchantId::new("m1");
        block_on(
            f.service
                .create(&m1, email("rev@example.com"), Role::Reviewer, None),
        )
        .expect("made");
        let (secret, uri) = block_on(f.service.set_totp(&email("rev@example.com"))).expect("set");
        assert_eq!(secret.expose(), "654321");
        assert_eq!(uri, "otpauth://totp/rev@example.com");
        let stored = block_on(f.users.find_by_email(&email("rev@example.com")))
            .expect("read")
            .and_then(|u| u.totp)
            .expect("a second factor");
        assert_eq!(stored.expose(), "654321");
        let unknown = block_on(f.service.set_totp(&email("who@example.com")));
        assert!(
            matches!(unknown, Err(DomainError::NotFound(Resource::User))),
            "{unknown:?}"
        );
        assert_eq!(
            trail(&f).last(),
            Some(&(AuditAction::SecondFactorSet, "rev@example.com".into()))
        );
    }

    #[test]
    fn a_disabled_user_takes_the_keys_it_made_with_it() {
        let f = fixture();
        let m1 = MerchantId::new("m1");
        let (user, _) =
            block_on(
                f.service
                    .create(&m1, email("admin@example.com"), Role::Admin, None),
            )
            .expect("made");
        block_on(
            f.merchants
                .add_key(&key(&m1, "key-made", Some(&user.id), f.clock.0), 20),
        )
        .expect("added");
        let keys = block_on(f.service.disable(&email("admin@example.com"))).expect("disabled");
        assert_eq!(keys, [ApiKeyId::new("key-made")]);
        let made = block_on(f.merchants.find_key(&"key-made".into())).expect("read");
        assert!(!made.expect("kept").enabled);
        let cli = block_on(f.merchants.find_key(&"key-cli".into())).expect("read");
        assert!(cli.expect("kept").enabled, "a key the CLI made stays");
        let user = block_on(f.users.find_by_email(&email("admin@example.com"))).expect("read");
        assert!(!user.expect("kept").enabled);
        let tail: Vec<_> = trail(&f).into_iter().skip(1).collect();
        assert_eq!(
            tail,
            [
                (AuditAction::UserDisabled, "admin@example.com".into()),
                (AuditAction::KeyDisabled, "key-made".into()),
            ]
        );
        let unknown = block_on(f.service.disable(&email("who@example.com")));
        assert!(
            matches!(unknown, Err(DomainError::NotFound(Resource::User))),
            "{unknown:?}"
        );
    }
}
