use std::sync::Arc;

use crate::error::{DomainError, Resource};
use crate::ids::TemplateId;
use crate::merchant::MerchantId;
use crate::paging::{Page, Paged};
use crate::ports::{Clock, IdGenerator, StoreError, TemplateRepository};
use crate::template::{Feature, FeatureList, Requirement, Template};

/// The members a request sets; the others are left as they are (0 for a new template).
pub type ListChanges = Vec<(Feature, Requirement)>;

/// Applies `changes` to `list`, then checks the template still asks for something.
pub fn apply_list(
    mut list: FeatureList,
    changes: &ListChanges,
) -> Result<FeatureList, DomainError> {
    for &(feature, requirement) in changes {
        list.set(feature, requirement);
    }
    if !list.asks_for_anything() {
        return Err(DomainError::FeatureRequired);
    }
    Ok(list)
}

/// The ports a [`TemplateService`] works through.
#[derive(Clone)]
pub struct TemplatePorts {
    /// Templates.
    pub templates: Arc<dyn TemplateRepository>,
    /// The clock.
    pub clock: Arc<dyn Clock>,
    /// Makes ids.
    pub ids: Arc<dyn IdGenerator>,
}

debug_as_name!(TemplatePorts);

/// The merchant's stored templates.
#[derive(Clone)]
pub struct TemplateService {
    templates: Arc<dyn TemplateRepository>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
}

debug_as_name!(TemplateService);

impl TemplateService {
    /// The service over its ports.
    pub fn new(ports: TemplatePorts) -> Self {
        let TemplatePorts {
            templates,
            clock,
            ids,
        } = ports;
        Self {
            templates,
            clock,
            ids,
        }
    }

    /// Stores a new template (missing steps are not required).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use domain::memory::{FixedClock, MemoryTemplates, SequentialIds};
    /// use domain::merchant::MerchantId;
    /// use domain::services::{TemplatePorts, TemplateService};
    /// use domain::template::{Feature, Requirement};
    /// let service = TemplateService::new(TemplatePorts {
    ///     templates: Arc::new(MemoryTemplates::default()),
    ///     clock: Arc::new(FixedClock::default()),
    ///     ids: Arc::new(SequentialIds::default()),
    /// });
    /// let acme = MerchantId::new("m1");
    /// let list = vec![(Feature::PassportUpload, Requirement::Required)];
    /// let t = futures_executor::block_on(service.create(&acme, "KYC".into(), &list)).unwrap();
    /// assert_eq!(t.list.get(Feature::PassportUpload), Requirement::Required);
    /// assert_eq!(t.list.get(Feature::SelfieUpload), Requirement::NotRequired);
    /// let nothing = vec![(Feature::PassportUpload, Requirement::NotRequired)];
    /// assert!(futures_executor::block_on(service.create(&acme, "Empty".into(), &nothing)).is_err());
    /// ```
    pub async fn create(
        &self,
        merchant: &MerchantId,
        name: String,
        changes: &ListChanges,
    ) -> Result<Template, DomainError> {
        let now = self.clock.now();
        let template = Template {
            id: self.ids.next_id().into(),
            merchant_id: merchant.clone(),
            name,
            list: apply_list(FeatureList::default(), changes)?,
            created_at: now,
            updated_at: now,
        };
        self.templates.insert(&template).await?;
        Ok(template)
    }

    /// Renames when `name` is given; members absent from `changes` keep their value.
    pub async fn update(
        &self,
        merchant: &MerchantId,
        id: &TemplateId,
        name: Option<String>,
        changes: &ListChanges,
    ) -> Result<Template, DomainError> {
        let mut template = self.get(merchant, id).await?;
        template.list = apply_list(template.list, changes)?;
        if let Some(name) = name {
            template.name = name;
        }
        template.updated_at = self.clock.now();
        match self.templates.update(&template).await {
            Ok(()) => Ok(template),
            Err(StoreError::Missing) => Err(DomainError::NotFound(Resource::Template)),
            Err(e) => Err(e.into()),
        }
    }

    /// The merchant's template, or `NotFound(Template)`.
    pub async fn get(
        &self,
        merchant: &MerchantId,
        id: &TemplateId,
    ) -> Result<Template, DomainError> {
        self.templates
            .find(merchant, id)
            .await?
            .ok_or(DomainError::NotFound(Resource::Template))
    }

    /// The merchant's templates, newest first.
    pub async fn list(
        &self,
        merchant: &MerchantId,
        page: Page,
    ) -> Result<Paged<Template>, DomainError> {
        Ok(self.templates.list(merchant, page).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{FixedClock, MemoryTemplates, SequentialIds};
    use futures_executor::block_on;

    fn service() -> TemplateService {
        TemplateService::new(TemplatePorts {
            templates: Arc::new(MemoryTemplates::default()),
            clock: Arc::new(FixedClock::default()),
            ids: Arc::new(SequentialIds::default()),
        })
    }

    fn m(id: &str) -> MerchantId {
        MerchantId::new(id)
    }

    #[test]
    fn missing_members_are_zero_on_create_and_kept_on_update() {
        let svc = service();
        let created = block_on(svc.create(
            &m("m1"),
            "KYC".into(),
            &vec![(Feature::PassportUpload, Requirement::Required)],
        ))
        .expect("created");
        assert_eq!(
            created.list.get(Feature::PassportUpload),
            Requirement::Required
        );
        assert_eq!(
            created.list.get(Feature::SelfieUpload),
            Requirement::NotRequired
        );
        let updated = block_on(svc.update(
            &m("m1"),
            &created.id,
            None,
            &vec![(Feature::SelfieUpload, Requirement::Optional)],
        ))
        .expect("updated");
        assert_eq!(
            updated.list.get(Feature::PassportUpload),
            Requirement::Required,
            "kept"
        );
        assert_eq!(
            updated.list.get(Feature::SelfieUpload),
            Requirement::Optional
        );
        assert_eq!(updated.name, "KYC");
    }

    #[test]
    fn a_template_that_asks_for_nothing_is_refused() {
        let svc = service();
        let err =
            block_on(svc.create(&m("m1"), "Empty".into(), &vec![])).expect_err("nothing asked");
        assert!(matches!(err, DomainError::FeatureRequired));
        let t = block_on(svc.create(
            &m("m1"),
            "One".into(),
            &vec![(Feature::SsnSubmit, Requirement::Optional)],
        ))
        .expect("created");
        let err = block_on(svc.update(
            &m("m1"),
            &t.id,
            None,
            &vec![(Feature::SsnSubmit, Requirement::NotRequired)],
        ))
        .expect_err("would ask for nothing");
        assert!(matches!(err, DomainError::FeatureRequired));
    }

    #[test]
    fn another_merchants_template_is_not_found() {
        let svc = service();
        let t = block_on(svc.create(
            &m("m1"),
            "KYC".into(),
            &vec![(Feature::SelfieUpload, Requirement::Required)],
        ))
        .expect("created");
        assert!(matches!(
            block_on(svc.get(&m("m2"), &t.id)),
            Err(DomainError::NotFound(Resource::Template))
        ));
        let err = block_on(svc.update(&m("m2"), &t.id, Some("Mine".into()), &vec![]))
            .expect_err("not theirs");
        assert!(matches!(err, DomainError::NotFound(Resource::Template)));
    }
}
