//! `UserRepository`: the merchant's dashboard users.

use async_trait::async_trait;
use diesel::prelude::*;
use domain::ids::UserId;
use domain::merchant::{ApiKeyId, MerchantId};
use domain::ports::{StoreError, StoreResult, UserRepository};
use domain::profile::Email;
use domain::user::{PasswordHash, Role, TotpSecret, User};

use crate::failure::{Failure, corrupt};
use crate::schema::{api_keys, merchant_users};
use crate::sealing::vault::Column;
use crate::timestamps::{from_db, to_db};
use crate::{Database, Vault};

pub(crate) const TOTP: Column = Column("merchant_users.sealed_totp");

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
    role: String,
    sealed_totp: Option<String>,
}

impl UserRow {
    fn of(u: &User, vault: &Vault) -> StoreResult<Self> {
        let id = u.id.to_string();
        let sealed_totp = u
            .totp
            .as_ref()
            .map(|secret| vault.seal_field(TOTP, &id, secret.expose()))
            .transpose()?;
        Ok(Self {
            email: u.email.as_str().to_owned(),
            email_key: u.email.key(),
            merchant_id: u.merchant_id.as_str().to_owned(),
            password_hash: u.password_hash.as_str().to_owned(),
            enabled: u.enabled,
            created_at: to_db(u.created_at),
            role: u.role.as_str().to_owned(),
            sealed_totp,
            id,
        })
    }

    fn into_domain(self, vault: &Vault) -> StoreResult<User> {
        let totp = self
            .sealed_totp
            .map(|sealed| vault.open_field(TOTP, &self.id, &sealed))
            .transpose()
            .map_err(|e| corrupt("merchant_users.sealed_totp", e))?;
        Ok(User {
            email: Email::parse(&self.email).map_err(|e| corrupt("merchant_users.email", e))?,
            role: Role::parse(&self.role).map_err(|e| corrupt("merchant_users.role", e))?,
            id: self.id.into(),
            merchant_id: MerchantId::new(self.merchant_id),
            password_hash: PasswordHash::new(self.password_hash),
            enabled: self.enabled,
            totp: totp.map(TotpSecret::new),
            created_at: from_db("merchant_users.created_at", self.created_at)?,
        })
    }
}

/// The id of the user signing in with `email_key`, or `Missing`.
fn user_id(
    conn: &mut crate::connection::AnyConnection,
    email_key: &str,
) -> Result<String, Failure> {
    merchant_users::table
        .filter(merchant_users::email_key.eq(email_key))
        .select(merchant_users::id)
        .get_result(conn)
        .optional()?
        .ok_or(Failure::Store(StoreError::Missing))
}

#[async_trait]
impl UserRepository for Database {
    async fn insert(&self, user: &User) -> StoreResult<()> {
        let row = UserRow::of(user, &self.vault)?;
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
        row.map(|r| r.into_domain(&self.vault)).transpose()
    }

    async fn set_enabled(&self, email: &Email, enabled: bool) -> StoreResult<Vec<ApiKeyId>> {
        let key = email.key();
        self.write(move |conn| {
            let id = user_id(conn, &key)?;
            diesel::update(merchant_users::table.find(&id))
                .set(merchant_users::enabled.eq(enabled))
                .execute(conn)?;
            if enabled {
                return Ok(Vec::new());
            }
            // The user's keys die with them, in the same transaction.
            let made = api_keys::table
                .filter(api_keys::created_by.eq(&id))
                .filter(api_keys::enabled.eq(true));
            let keys: Vec<String> = made.select(api_keys::api_key).load(conn)?;
            diesel::update(made)
                .set(api_keys::enabled.eq(false))
                .execute(conn)?;
            Ok(keys.into_iter().map(ApiKeyId::new).collect())
        })
        .await
    }

    async fn set_totp(&self, email: &Email, secret: Option<&TotpSecret>) -> StoreResult<()> {
        let key = email.key();
        let secret = secret.map(|s| s.expose().to_owned());
        let vault = self.vault.clone();
        self.write(move |conn| {
            let id = user_id(conn, &key)?;
            let sealed = secret
                .map(|s| vault.seal_field(TOTP, &id, &s))
                .transpose()
                .map_err(|e| Failure::Store(e.into()))?;
            diesel::update(merchant_users::table.find(&id))
                .set((
                    merchant_users::sealed_totp.eq(sealed),
                    merchant_users::totp_spent_step.eq(None::<i64>),
                ))
                .execute(conn)?;
            Ok(())
        })
        .await
    }

    async fn spend_code(&self, user: &UserId, step: u64) -> StoreResult<bool> {
        let id = user.to_string();
        // Steps are seconds since 1970 over 30: far inside i64.
        let step = i64::try_from(step).unwrap_or(i64::MAX);
        // One conditional update: of two sign-ins racing with one code, one changes the row.
        self.write(move |conn| {
            let spent = diesel::update(
                merchant_users::table.find(&id).filter(
                    merchant_users::totp_spent_step
                        .is_null()
                        .or(merchant_users::totp_spent_step.lt(step)),
                ),
            )
            .set(merchant_users::totp_spent_step.eq(step))
            .execute(conn)?;
            Ok(spent == 1)
        })
        .await
    }
}
