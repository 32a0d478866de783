//! The template repository's promises: templates belong to their merchant.

use super::{NOW, Ports, seed_merchant};
use crate::ports::StoreError;
use crate::template::{Feature, FeatureList, Requirement, Template};

pub(super) async fn template_scope(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let other = seed_merchant(&p, "m2").await;
    let mut list = FeatureList::default();
    list.set(Feature::SelfieUpload, Requirement::Optional);
    let template = Template {
        id: "t1".into(),
        merchant_id: m.clone(),
        name: "KYC".into(),
        list,
        created_at: NOW,
        updated_at: NOW,
    };
    p.templates.insert(&template).await.expect("stored");
    assert_eq!(
        p.templates.find(&m, &"t1".into()).await.expect("read"),
        Some(template.clone())
    );
    assert_eq!(
        p.templates.find(&other, &"t1".into()).await.expect("read"),
        None
    );
    let ghost = Template {
        id: "t-none".into(),
        ..template
    };
    let result = p.templates.update(&ghost).await;
    assert!(matches!(result, Err(StoreError::Missing)), "{result:?}");
}
