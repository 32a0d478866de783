//! `UserRepository`: the merchant's dashboard users.

use async_trait::async_trait;
use diesel::prelude::*;
use domain::merchant::MerchantId;
use domain::ports::{StoreError, StoreResult, UserRepository};
use domain::profile::Email;
use domain::user::{PasswordHash, User};

use crate::Database;
use crate::failure::{Failure, corrupt};
use crate::schema::merchant_users;
use crate::timestamps::{from_db, to_db};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = merchant_users)]
struct UserRow {
    id: String,
    merchant_id: String,
    email: String,
    email_key: String,
    password_hash: String,
    enabled: bool,
    created_at: i64,
}

impl UserRow {
    fn of(u: &User) -> Self {
        Self {
            id: u.id.to_string(),
            merchant_id: u.merchant_id.0.clone(),
            email: u.email.as_str().to_owned(),
            email_key: u.email.key(),
            password_hash: u.password_hash.as_str().to_owned(),
            enabled: u.enabled,
            created_at: to_db(u.created_at),
        }
    }

    fn into_domain(self) -> StoreResult<User> {
        Ok(User {
            email: Email::parse(&self.email).map_err(|e| corrupt("merchant_users.email", e))?,
            id: self.id.into(),
            merchant_id: MerchantId(self.merchant_id),
            password_hash: PasswordHash::new(self.password_hash),
            enabled: self.enabled,
            created_at: from_db("merchant_users.created_at", self.created_at)?,
        })
    }
}

#[async_trait]
impl UserRepository for Database {
    async fn insert(&self, user: &User) -> StoreResult<()> {
        let row = UserRow::of(user);
        self.write(move |conn| {
            diesel::insert_into(merchant_users::table)
                .values(&row)
                .execute(conn)?;
            Ok(())
        })
        .await
    }

    async fn find_by_email(&self, email: &Email) -> StoreResult<Option<User>> {
        let key = email.key();
        let row = self
            .read(move |conn| {
                Ok(merchant_users::table
                    .filter(merchant_users::email_key.eq(key))
                    .select(UserRow::as_select())
                    .get_result(conn)
                    .optional()?)
            })
            .await?;
        row.map(UserRow::into_domain).transpose()
    }

    async fn set_enabled(&self, email: &Email, enabled: bool) -> StoreResult<()> {
        let key = email.key();
        self.write(move |conn| {
            let changed =
                diesel::update(merchant_users::table.filter(merchant_users::email_key.eq(key)))
                    .set(merchant_users::enabled.eq(enabled))
                    .execute(conn)?;
            if changed == 0 {
                return Err(Failure::Store(StoreError::Missing));
            }
            Ok(())
        })
        .await
    }
}
