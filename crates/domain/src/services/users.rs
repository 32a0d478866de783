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
use crate::services::{AuditTrail, Initiator};
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

impl std::fmt::Debug for UserPorts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UserPorts")
    }
}

impl std::fmt::Debug for UserService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UserService")
    }
}

impl UserService {
    /// The service over its ports.
    pub fn new(ports: UserPorts) -> Self {
        Self {
            audit: AuditTrail::new(ports.audit, ports.clock.clone(), ports.ids.clone()),
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
