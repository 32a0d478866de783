//! Stored templates, in memory.

use std::sync::Mutex;

use async_trait::async_trait;

use super::page_of;
use crate::merchant::MerchantId;
use crate::paging::{Page, Paged};
use crate::ports::{StoreError, StoreResult, TemplateRepository};
use crate::template::Template;

/// Stored templates, in memory.
#[derive(Debug, Default)]
pub struct MemoryTemplates(Mutex<Vec<Template>>);

#[async_trait]
impl TemplateRepository for MemoryTemplates {
    async fn insert(&self, template: &Template) -> StoreResult<()> {
        self.0.lock().expect("lock").push(template.clone());
        Ok(())
    }

    async fn update(&self, template: &Template) -> StoreResult<()> {
        let mut all = self.0.lock().expect("lock");
        let stored = all
            .iter_mut()
            .find(|t| t.id == template.id)
            .ok_or(StoreError::Missing)?;
        *stored = template.clone();
        Ok(())
    }

    async fn find(
        &self,
        merchant: &MerchantId,
        id: &crate::ids::TemplateId,
    ) -> StoreResult<Option<Template>> {
        let all = self.0.lock().expect("lock");
        Ok(all
            .iter()
            .find(|t| &t.merchant_id == merchant && &t.id == id)
            .cloned())
    }

    async fn list(&self, merchant: &MerchantId, page: Page) -> StoreResult<Paged<Template>> {
        let all = self.0.lock().expect("lock");
        Ok(page_of(
            all.iter()
                .filter(|t| &t.merchant_id == merchant)
                .cloned()
                .collect(),
            page,
        ))
    }
}
