//! `TemplateRepository`: a merchant's stored templates.

use async_trait::async_trait;
use diesel::prelude::*;
use domain::ids::TemplateId;
use domain::merchant::MerchantId;
use domain::paging::{Page, Paged};
use domain::ports::{StoreError, StoreResult, TemplateRepository};
use domain::template::Template;

use crate::Database;
use crate::failure::{Failure, corrupt};
use crate::repositories::encoding::{list_from_text, list_to_text};
use crate::repositories::paging::{newest_first, paged};
use crate::schema::templates;
use crate::timestamps::{from_db, to_db};

#[derive(Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = templates)]
struct TemplateRow {
    id: String,
    merchant_id: String,
    name: String,
    list: String,
    created_at: i64,
    updated_at: i64,
}

impl TemplateRow {
    fn from_domain(t: &Template) -> Self {
        Self {
            id: t.id.to_string(),
            merchant_id: t.merchant_id.as_str().to_owned(),
            name: t.name.clone(),
            list: list_to_text(&t.list),
            created_at: to_db(t.created_at),
            updated_at: to_db(t.updated_at),
        }
    }

    fn into_domain(self) -> StoreResult<Template> {
        Ok(Template {
            list: list_from_text(&self.list).map_err(|e| corrupt("templates.list", e))?,
            id: self.id.into(),
            merchant_id: MerchantId::new(self.merchant_id),
            name: self.name,
            created_at: from_db("templates.created_at", self.created_at)?,
            updated_at: from_db("templates.updated_at", self.updated_at)?,
        })
    }
}

#[async_trait]
impl TemplateRepository for Database {
    async fn insert(&self, template: &Template) -> StoreResult<()> {
        let row = TemplateRow::from_domain(template);
        self.write(move |conn| {
            diesel::insert_into(templates::table)
                .values(&row)
                .execute(conn)?;
            Ok(())
        })
        .await
    }

    async fn update(&self, template: &Template) -> StoreResult<()> {
        let row = TemplateRow::from_domain(template);
        self.write(move |conn| {
            let changed = diesel::update(templates::table.find(&row.id))
                .set(&row)
                .execute(conn)?;
            if changed == 0 {
                return Err(Failure::Store(StoreError::Missing));
            }
            Ok(())
        })
        .await
    }

    async fn find(&self, merchant: &MerchantId, id: &TemplateId) -> StoreResult<Option<Template>> {
        let (merchant, id) = (merchant.as_str().to_owned(), id.to_string());
        let row = self
            .read(move |conn| {
                Ok(templates::table
                    .find(id)
                    .filter(templates::merchant_id.eq(merchant))
                    .select(TemplateRow::as_select())
                    .get_result(conn)
                    .optional()?)
            })
            .await?;
        row.map(TemplateRow::into_domain).transpose()
    }

    async fn list(&self, merchant: &MerchantId, page: Page) -> StoreResult<Paged<Template>> {
        let merchant = merchant.as_str().to_owned();
        let rows = self
            .read(move |conn| {
                Ok(newest_first!(
                    conn,
                    templates::table.filter(templates::merchant_id.eq(merchant)),
                    templates::id,
                    page,
                    TemplateRow
                ))
            })
            .await?;
        paged(rows, TemplateRow::into_domain)
    }
}
