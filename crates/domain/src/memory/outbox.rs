//! Subscriptions set by the test, and an outbox over merchants with no endpoints.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use crate::merchant::MerchantId;
use crate::outbox::{Outbox, Subscription};
use crate::ports::{IdGenerator, StoreResult, Subscriptions};

/// What each merchant's endpoints listen to, set by the test.
#[derive(Debug, Default)]
pub struct MemorySubscriptions(Mutex<Vec<(MerchantId, Vec<Subscription>)>>);

impl MemorySubscriptions {
    /// The merchant's enabled endpoints are now these.
    pub fn set(&self, merchant: &MerchantId, subscriptions: Vec<Subscription>) {
        let mut all = self.0.lock().expect("lock");
        all.retain(|(m, _)| m != merchant);
        all.push((merchant.clone(), subscriptions));
    }
}

#[async_trait]
impl Subscriptions for MemorySubscriptions {
    async fn subscriptions(&self, merchant: &MerchantId) -> StoreResult<Vec<Subscription>> {
        let all = self.0.lock().expect("lock");
        Ok(all
            .iter()
            .find(|(m, _)| m == merchant)
            .map(|(_, s)| s.clone())
            .unwrap_or_default())
    }
}

/// An outbox over merchants with no endpoints, its delivery ids from `ids`.
pub fn outbox(ids: Arc<dyn IdGenerator>) -> Outbox {
    Outbox::new(Arc::new(MemorySubscriptions::default()), ids)
}
