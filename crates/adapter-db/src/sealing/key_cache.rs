//! API keys held in memory for a bounded time. Every signed request names a key; reading
//! it from the database and opening its sealed secret on each request cost a blocking hop
//! and a decryption before the real work. A cached key is at most `MAX_STALENESS` old, so
//! a key disabled through another instance (or the CLI) is refused everywhere within that
//! bound; one changed through this instance is forgotten at once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use domain::merchant::{ApiKey, ApiKeyId, IpNet, Merchant, MerchantId, MerchantSettings};
use domain::ports::{MerchantRepository, StoreResult};

/// How old a cached key may be (contract §11: a disabled key is refused within 1 s).
pub const MAX_STALENESS: Duration = Duration::from_secs(1);
/// Keys held at most: past this the expired ones are dropped, then, if need be, all.
const MAX_KEYS: usize = 10_000;

/// A `MerchantRepository` that answers `find_key` from memory when it can.
pub struct CachedKeys<R> {
    inner: Arc<R>,
    keys: Mutex<HashMap<ApiKeyId, (Instant, ApiKey)>>,
    max_age: Duration,
}

impl<R> std::fmt::Debug for CachedKeys<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CachedKeys")
    }
}

impl<R: MerchantRepository> CachedKeys<R> {
    pub fn new(inner: Arc<R>) -> Self {
        Self::with_max_age(inner, MAX_STALENESS)
    }

    fn with_max_age(inner: Arc<R>, max_age: Duration) -> Self {
        Self {
            inner,
            keys: Mutex::default(),
            max_age,
        }
    }

    fn forget(&self, key: &ApiKeyId) {
        self.keys
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(key);
    }
}

#[async_trait]
impl<R: MerchantRepository> MerchantRepository for CachedKeys<R> {
    async fn find_key(&self, key: &ApiKeyId) -> StoreResult<Option<ApiKey>> {
        let now = Instant::now();
        {
            let keys = self.keys.lock().unwrap_or_else(|p| p.into_inner());
            if let Some((at, cached)) = keys.get(key)
                && now.duration_since(*at) < self.max_age
            {
                return Ok(Some(cached.clone()));
            }
        }
        let found = self.inner.find_key(key).await?;
        // Unknown keys are not remembered: a stranger's guesses must not fill memory
        // (the failed-authentication limit bounds what they cost instead).
        if let Some(found) = &found {
            let mut keys = self.keys.lock().unwrap_or_else(|p| p.into_inner());
            if keys.len() >= MAX_KEYS {
                keys.retain(|_, (at, _)| now.duration_since(*at) < self.max_age);
                if keys.len() >= MAX_KEYS {
                    keys.clear();
                }
            }
            keys.insert(key.clone(), (now, found.clone()));
        }
        Ok(found)
    }

    async fn set_key_enabled(&self, key: &ApiKeyId, enabled: bool) -> StoreResult<()> {
        let result = self.inner.set_key_enabled(key, enabled).await;
        self.forget(key);
        result
    }

    async fn set_key_networks(&self, key: &ApiKeyId, networks: &[IpNet]) -> StoreResult<()> {
        let result = self.inner.set_key_networks(key, networks).await;
        self.forget(key);
        result
    }

    async fn create(&self, merchant: &Merchant, first_key: &ApiKey) -> StoreResult<()> {
        self.inner.create(merchant, first_key).await
    }

    async fn list(&self) -> StoreResult<Vec<Merchant>> {
        self.inner.list().await
    }

    async fn find(&self, id: &MerchantId) -> StoreResult<Option<Merchant>> {
        self.inner.find(id).await
    }

    async fn add_key(&self, key: &ApiKey, max_enabled: usize) -> StoreResult<()> {
        self.inner.add_key(key, max_enabled).await
    }

    async fn keys(&self, merchant: &MerchantId) -> StoreResult<Vec<ApiKey>> {
        self.inner.keys(merchant).await
    }

    async fn save_settings(&self, id: &MerchantId, settings: &MerchantSettings) -> StoreResult<()> {
        self.inner.save_settings(id, settings).await
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use domain::OffsetDateTime;
    use domain::merchant::{KeyAccess, SecretString};

    use super::*;

    /// One read-only key, counting the reads that reach it.
    #[derive(Default)]
    struct Counting {
        reads: AtomicUsize,
        enabled: Mutex<bool>,
    }

    #[async_trait]
    impl MerchantRepository for Counting {
        async fn find_key(&self, key: &ApiKeyId) -> StoreResult<Option<ApiKey>> {
            self.reads.fetch_add(1, Ordering::SeqCst);
            Ok((key.as_str() == "key-1").then(|| ApiKey {
                key: key.clone(),
                merchant_id: MerchantId::new("m"),
                secret: SecretString::from("sec-1"),
                enabled: *self.enabled.lock().expect("lock"),
                compat_signature: false,
                allowed_networks: Vec::new(),
                access: KeyAccess::ReadOnly,
                created_at: OffsetDateTime::UNIX_EPOCH,
                created_by: None,
            }))
        }
        async fn set_key_enabled(&self, _: &ApiKeyId, enabled: bool) -> StoreResult<()> {
            *self.enabled.lock().expect("lock") = enabled;
            Ok(())
        }
        async fn set_key_networks(&self, _: &ApiKeyId, _: &[IpNet]) -> StoreResult<()> {
            Ok(())
        }
        async fn create(&self, _: &Merchant, _: &ApiKey) -> StoreResult<()> {
            Ok(())
        }
        async fn list(&self) -> StoreResult<Vec<Merchant>> {
            Ok(Vec::new())
        }
        async fn find(&self, _: &MerchantId) -> StoreResult<Option<Merchant>> {
            Ok(None)
        }
        async fn add_key(&self, _: &ApiKey, _: usize) -> StoreResult<()> {
            Ok(())
        }
        async fn keys(&self, _: &MerchantId) -> StoreResult<Vec<ApiKey>> {
            Ok(Vec::new())
        }
        async fn save_settings(&self, _: &MerchantId, _: &MerchantSettings) -> StoreResult<()> {
            Ok(())
        }
    }

    fn run<T>(f: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime")
            .block_on(f)
    }

    #[test]
    fn a_known_key_is_read_once_within_its_age_and_again_after() {
        let inner = Arc::new(Counting::default());
        *inner.enabled.lock().expect("lock") = true;
        let cache = CachedKeys::with_max_age(inner.clone(), Duration::from_millis(200));
        for _ in 0..5 {
            let key = run(cache.find_key(&"key-1".into()))
                .expect("read")
                .expect("key");
            assert_eq!(
                key.access,
                KeyAccess::ReadOnly,
                "a cached key stays read-only"
            );
        }
        assert_eq!(inner.reads.load(Ordering::SeqCst), 1);
        std::thread::sleep(Duration::from_millis(250));
        run(cache.find_key(&"key-1".into())).expect("read");
        assert_eq!(
            inner.reads.load(Ordering::SeqCst),
            2,
            "read again once stale"
        );
    }

    #[test]
    fn unknown_keys_are_not_remembered() {
        let inner = Arc::new(Counting::default());
        let cache = CachedKeys::new(inner.clone());
        for _ in 0..3 {
            assert!(
                run(cache.find_key(&"key-guess".into()))
                    .expect("read")
                    .is_none()
            );
        }
        assert_eq!(inner.reads.load(Ordering::SeqCst), 3);
    }

    #[test]
    fn a_key_disabled_through_this_instance_is_refused_at_once() {
        let inner = Arc::new(Counting::default());
        *inner.enabled.lock().expect("lock") = true;
        let cache = CachedKeys::new(inner);
        assert!(
            run(cache.find_key(&"key-1".into()))
                .expect("read")
                .expect("key")
                .enabled
        );
        run(cache.set_key_enabled(&"key-1".into(), false)).expect("disabled");
        assert!(
            !run(cache.find_key(&"key-1".into()))
                .expect("read")
                .expect("key")
                .enabled
        );
    }
}
