use std::sync::Arc;

use crate::error::{DomainError, Resource};
use crate::ids::UserId;
use crate::merchant::MerchantId;
use crate::ports::{
    Clock, IdGenerator, MerchantRepository, PasswordHasher, SecretGenerator, StoreError,
    UserRepository,
};
use crate::profile::Email;
use crate::user::{GENERATED_PASSWORD_LEN, Password, User};

/// Dashboard users: made and disabled by the operator.
#[derive(Clone)]
pub struct UserService {
    users: Arc<dyn UserRepository>,
    merchants: Arc<dyn MerchantRepository>,
    hasher: Arc<dyn PasswordHasher>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    secrets: Arc<dyn SecretGenerator>,
}

impl std::fmt::Debug for UserService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UserService")
    }
}

impl UserService {
    /// The service over its ports.
    pub fn new(
        users: Arc<dyn UserRepository>,
        merchants: Arc<dyn MerchantRepository>,
        hasher: Arc<dyn PasswordHasher>,
        clock: Arc<dyn Clock>,
        ids: Arc<dyn IdGenerator>,
        secrets: Arc<dyn SecretGenerator>,
    ) -> Self {
        Self {
            users,
            merchants,
            hasher,
            clock,
            ids,
            secrets,
        }
    }

    /// A user of `merchant` signing in as `email` with `password`, or, without one, a
    /// generated one-time password, returned to be shown once.
    pub async fn create(
        &self,
        merchant: &MerchantId,
        email: Email,
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
            enabled: true,
            created_at: self.clock.now(),
        };
        match self.users.insert(&user).await {
            Ok(()) => Ok((user, generated)),
            Err(StoreError::Duplicate) => Err(DomainError::UserExists),
            Err(e) => Err(e.into()),
        }
    }

    /// Disables the user with this e-mail: it can no longer sign in, and its sessions end.
    pub async fn disable(&self, email: &Email) -> Result<(), DomainError> {
        match self.users.set_enabled(email, false).await {
            Ok(()) => Ok(()),
            Err(StoreError::Missing) => Err(DomainError::NotFound(Resource::User)),
            Err(e) => Err(e.into()),
        }
    }
}
