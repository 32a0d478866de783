//! Dashboard users, in memory.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use super::MemoryMerchants;
use crate::ids::UserId;
use crate::merchant::{ApiKey, ApiKeyId};
use crate::ports::{StoreError, StoreResult, UserRepository};
use crate::profile::Email;
use crate::user::{TotpSecret, User};

/// Dashboard users, in memory; disabling one disables the keys it made in `merchants`.
#[derive(Debug, Default)]
pub struct MemoryUsers {
    users: Mutex<Vec<User>>,
    /// The latest one-time code step each user spent.
    spent: Mutex<HashMap<UserId, u64>>,
    /// Where the keys users make are kept.
    pub merchants: Arc<MemoryMerchants>,
}

impl MemoryUsers {
    /// Users beside these merchants' keys.
    pub fn new(merchants: Arc<MemoryMerchants>) -> Self {
        Self {
            users: Mutex::default(),
            spent: Mutex::default(),
            merchants,
        }
    }

    fn with_user<T>(&self, email: &Email, change: impl FnOnce(&mut User) -> T) -> StoreResult<T> {
        let mut users = self.users.lock().expect("lock");
        let user = users
            .iter_mut()
            .find(|u| u.email.key() == email.key())
            .ok_or(StoreError::Missing)?;
        Ok(change(user))
    }
}

#[async_trait]
impl UserRepository for MemoryUsers {
    async fn insert(&self, user: &User) -> StoreResult<()> {
        let mut users = self.users.lock().expect("lock");
        if users.iter().any(|u| u.email.key() == user.email.key()) {
            return Err(StoreError::Duplicate);
        }
        users.push(user.clone());
        Ok(())
    }

    async fn find_by_email(&self, email: &Email) -> StoreResult<Option<User>> {
        let users = self.users.lock().expect("lock");
        Ok(users.iter().find(|u| u.email.key() == email.key()).cloned())
    }

    async fn set_enabled(&self, email: &Email, enabled: bool) -> StoreResult<Vec<ApiKeyId>> {
        let id = self.with_user(email, |u| {
            u.enabled = enabled;
            u.id.clone()
        })?;
        if enabled {
            return Ok(Vec::new());
        }
        let mut keys = self.merchants.keys.lock().expect("lock");
        let made: Vec<&mut ApiKey> = keys
            .iter_mut()
            .filter(|k| k.enabled && k.created_by.as_ref() == Some(&id))
            .collect();
        Ok(made
            .into_iter()
            .map(|k| {
                k.enabled = false;
                k.key.clone()
            })
            .collect())
    }

    async fn set_totp(&self, email: &Email, secret: Option<&TotpSecret>) -> StoreResult<()> {
        let id = self.with_user(email, |u| {
            u.totp = secret.cloned();
            u.id.clone()
        })?;
        self.spent.lock().expect("lock").remove(&id);
        Ok(())
    }

    async fn spend_code(&self, user: &UserId, step: u64) -> StoreResult<bool> {
        let mut spent = self.spent.lock().expect("lock");
        if spent.get(user).is_some_and(|last| *last >= step) {
            return Ok(false);
        }
        spent.insert(user.clone(), step);
        Ok(true)
    }
}
