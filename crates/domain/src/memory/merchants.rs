//! Merchants and their keys, in memory.

use std::sync::Mutex;

use async_trait::async_trait;

use crate::merchant::{ApiKey, ApiKeyId, Merchant, MerchantId, MerchantSettings};
use crate::ports::{MerchantRepository, StoreError, StoreResult};

/// Merchants and their keys, in memory.
#[derive(Debug, Default)]
pub struct MemoryMerchants {
    merchants: Mutex<Vec<Merchant>>,
    pub(super) keys: Mutex<Vec<ApiKey>>,
}

impl MemoryMerchants {
    /// Adds a merchant without a key.
    pub fn insert(&self, merchant: Merchant) {
        self.merchants.lock().expect("lock").push(merchant);
    }
}

#[async_trait]
impl MerchantRepository for MemoryMerchants {
    async fn create(&self, merchant: &Merchant, first_key: &ApiKey) -> StoreResult<()> {
        self.merchants.lock().expect("lock").push(merchant.clone());
        self.keys.lock().expect("lock").push(first_key.clone());
        Ok(())
    }

    async fn list(&self) -> StoreResult<Vec<Merchant>> {
        Ok(self.merchants.lock().expect("lock").clone())
    }

    async fn find(&self, id: &MerchantId) -> StoreResult<Option<Merchant>> {
        let merchants = self.merchants.lock().expect("lock");
        Ok(merchants.iter().find(|m| &m.id == id).cloned())
    }

    async fn add_key(&self, key: &ApiKey, max_enabled: usize) -> StoreResult<()> {
        if self.find(&key.merchant_id).await?.is_none() {
            return Err(StoreError::Missing);
        }
        let mut keys = self.keys.lock().expect("lock");
        let enabled = keys
            .iter()
            .filter(|k| k.merchant_id == key.merchant_id && k.enabled)
            .count();
        if enabled >= max_enabled {
            return Err(StoreError::LimitReached);
        }
        keys.push(key.clone());
        Ok(())
    }

    async fn set_key_enabled(&self, key: &ApiKeyId, enabled: bool) -> StoreResult<()> {
        let mut keys = self.keys.lock().expect("lock");
        let stored = keys
            .iter_mut()
            .find(|k| &k.key == key)
            .ok_or(StoreError::Missing)?;
        stored.enabled = enabled;
        Ok(())
    }

    async fn set_key_networks(
        &self,
        key: &ApiKeyId,
        networks: &[crate::merchant::IpNet],
    ) -> StoreResult<()> {
        let mut keys = self.keys.lock().expect("lock");
        let stored = keys
            .iter_mut()
            .find(|k| &k.key == key)
            .ok_or(StoreError::Missing)?;
        stored.allowed_networks = networks.to_vec();
        Ok(())
    }

    async fn find_key(&self, key: &ApiKeyId) -> StoreResult<Option<ApiKey>> {
        Ok(self
            .keys
            .lock()
            .expect("lock")
            .iter()
            .find(|k| &k.key == key)
            .cloned())
    }

    async fn keys(&self, merchant: &MerchantId) -> StoreResult<Vec<ApiKey>> {
        let keys = self.keys.lock().expect("lock");
        Ok(keys
            .iter()
            .filter(|k| &k.merchant_id == merchant)
            .cloned()
            .collect())
    }

    async fn save_settings(&self, id: &MerchantId, settings: &MerchantSettings) -> StoreResult<()> {
        let mut merchants = self.merchants.lock().expect("lock");
        let stored = merchants
            .iter_mut()
            .find(|m| &m.id == id)
            .ok_or(StoreError::Missing)?;
        stored.settings = settings.clone();
        Ok(())
    }
}
