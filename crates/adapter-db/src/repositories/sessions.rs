//! `SessionRepository`: dashboard sessions and failed sign-ins.

use async_trait::async_trait;
use diesel::prelude::*;
use domain::OffsetDateTime;
use domain::merchant::MerchantId;
use domain::ports::{SessionRepository, StoreResult};
use domain::profile::Email;
use domain::session::{Session, SessionToken};
use domain::user::Role;
use ring::digest::{SHA256, digest};

use crate::Database;
use crate::connection::AnyConnection;
use crate::failure::corrupt;
use crate::schema::{dashboard_sessions, login_failures, merchant_users};
use crate::timestamps::{from_db, to_db};

/// What the table keys a session by: a stolen table holds no usable cookie.
fn token_hash(token: &SessionToken) -> String {
    hex::encode(digest(&SHA256, token.expose().as_bytes()))
}

#[derive(Insertable)]
#[diesel(table_name = dashboard_sessions)]
struct NewSession {
    token_hash: String,
    user_id: String,
    csrf_token: String,
    created_at: i64,
    last_seen_at: i64,
}

type Found = (String, String, String, String, i64, i64, String);

#[async_trait]
impl SessionRepository for Database {
    async fn insert(&self, token: &SessionToken, session: &Session) -> StoreResult<()> {
        let row = NewSession {
            token_hash: token_hash(token),
            user_id: session.user_id.to_string(),
            csrf_token: session.csrf_token.clone(),
            created_at: to_db(session.created_at),
            last_seen_at: to_db(session.last_seen_at),
        };
        self.write(move |conn| {
            diesel::insert_into(dashboard_sessions::table)
                .values(&row)
                .execute(conn)?;
            Ok(())
        })
        .await
    }

    async fn find(&self, token: &SessionToken) -> StoreResult<Option<Session>> {
        let hash = token_hash(token);
        let found: Option<Found> = self
            .read(move |conn| {
                Ok(dashboard_sessions::table
                    .inner_join(merchant_users::table)
                    .filter(dashboard_sessions::token_hash.eq(hash))
                    .filter(merchant_users::enabled.eq(true))
                    .select((
                        merchant_users::id,
                        merchant_users::merchant_id,
                        merchant_users::email,
                        merchant_users::role,
                        dashboard_sessions::created_at,
                        dashboard_sessions::last_seen_at,
                        dashboard_sessions::csrf_token,
                    ))
                    .get_result(conn)
                    .optional()?)
            })
            .await?;
        found
            .map(|(user, merchant, email, role, created, seen, csrf)| {
                Ok(Session {
                    user_id: user.into(),
                    merchant_id: MerchantId::new(merchant),
                    email: Email::parse(&email).map_err(|e| corrupt("merchant_users.email", e))?,
                    role: Role::parse(&role).map_err(|e| corrupt("merchant_users.role", e))?,
                    csrf_token: csrf,
                    created_at: from_db("dashboard_sessions.created_at", created)?,
                    last_seen_at: from_db("dashboard_sessions.last_seen_at", seen)?,
                })
            })
            .transpose()
    }

    async fn touch(&self, token: &SessionToken, at: OffsetDateTime) -> StoreResult<()> {
        let (hash, at) = (token_hash(token), to_db(at));
        self.write(move |conn| {
            diesel::update(dashboard_sessions::table.find(hash))
                .set(dashboard_sessions::last_seen_at.eq(at))
                .execute(conn)?;
            Ok(())
        })
        .await
    }

    async fn delete(&self, token: &SessionToken) -> StoreResult<()> {
        let hash = token_hash(token);
        self.write(move |conn| {
            diesel::delete(dashboard_sessions::table.find(hash)).execute(conn)?;
            Ok(())
        })
        .await
    }

    async fn begin_attempt(
        &self,
        attempt: &str,
        keys: &[String],
        at: OffsetDateTime,
        since: OffsetDateTime,
    ) -> StoreResult<Vec<Vec<OffsetDateTime>>> {
        let (attempt, at, since) = (attempt.to_owned(), to_db(at), to_db(since));
        let mut keys = keys.to_vec();
        let times: Vec<Vec<i64>> = self
            .write(move |conn| {
                if let AnyConnection::Postgresql(c) = conn {
                    // Attempts under one key count one after the other, on every
                    // instance (SQLite's single writer already does); in one order, so
                    // two attempts never wait on each other's locks.
                    let mut ordered = keys.clone();
                    ordered.sort();
                    for key in &ordered {
                        diesel::sql_query("SELECT pg_advisory_xact_lock(hashtext($1))")
                            .bind::<diesel::sql_types::Text, _>(key)
                            .execute(c)?;
                    }
                }
                let mut earlier = Vec::with_capacity(keys.len());
                for key in &keys {
                    earlier.push(
                        login_failures::table
                            .filter(login_failures::key.eq(key))
                            .filter(login_failures::at.ge(since))
                            .select(login_failures::at)
                            .load(conn)?,
                    );
                }
                for key in keys.drain(..) {
                    diesel::insert_into(login_failures::table)
                        .values((
                            login_failures::key.eq(key),
                            login_failures::at.eq(at),
                            login_failures::attempt.eq(&attempt),
                        ))
                        .execute(conn)?;
                }
                // What no lock can count any more goes (a day is far past every window).
                diesel::delete(login_failures::table.filter(login_failures::at.lt(at - 86_400)))
                    .execute(conn)?;
                Ok(earlier)
            })
            .await?;
        times
            .into_iter()
            .map(|key| {
                key.into_iter()
                    .map(|at| from_db("login_failures.at", at))
                    .collect()
            })
            .collect()
    }

    async fn withdraw_attempt(&self, attempt: &str) -> StoreResult<()> {
        let attempt = attempt.to_owned();
        self.write(move |conn| {
            diesel::delete(login_failures::table.filter(login_failures::attempt.eq(attempt)))
                .execute(conn)?;
            Ok(())
        })
        .await
    }
}
