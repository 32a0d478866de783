//! `SignalStore`: what is kept of each profile's images to compare clients (contract
//! §20), one row per signal, its value sealed (a face's description is biometric data; a
//! picture's hash is kept as carefully). The merchant's signals are read whole and
//! compared in the domain: no database compares a sealed value.

use async_trait::async_trait;
use diesel::prelude::*;
use domain::merchant::MerchantId;
use domain::ports::{SignalStore, StoreResult};
use domain::profile::ProfileId;
use domain::signals::{Kept, Signal};

use crate::Database;
use crate::connection::{AnyConnection, on_concrete};
use crate::failure::{Failure, corrupt};
use crate::schema::{profiles, signals};
use crate::sealing::vault::{Column, Vault};

/// The sealed value's column, in its associated data.
pub(crate) const VALUE: Column = Column("signals.value");

const PICTURE: &str = "picture";
const PORTRAIT: &str = "portrait";
const FACE: &str = "face";

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = signals)]
struct SignalRow {
    id: String,
    merchant_id: String,
    profile_id: String,
    kind: String,
    value: String,
    blocked: bool,
}

impl SignalRow {
    fn seal(merchant: &str, profile: &str, signal: &Signal, vault: &Vault) -> StoreResult<Self> {
        let id = ulid::Ulid::new().to_string();
        let (kind, plain) = match signal {
            Signal::Picture(hash) => (PICTURE, format!("{hash:016x}")),
            Signal::Portrait(hash) => (PORTRAIT, format!("{hash:016x}")),
            Signal::Face(face) => (
                FACE,
                serde_json::to_string(face).map_err(|e| corrupt(VALUE.0, e))?,
            ),
        };
        Ok(Self {
            value: vault.seal_field(VALUE, &id, &plain)?,
            id,
            merchant_id: merchant.to_owned(),
            profile_id: profile.to_owned(),
            kind: kind.to_owned(),
            blocked: false,
        })
    }

    fn open(self, vault: &Vault) -> StoreResult<Kept> {
        let plain = vault.open_field(VALUE, &self.id, &self.value)?;
        let signal = match self.kind.as_str() {
            PICTURE => u64::from_str_radix(&plain, 16)
                .map(Signal::Picture)
                .map_err(|e| corrupt(VALUE.0, e))?,
            PORTRAIT => u64::from_str_radix(&plain, 16)
                .map(Signal::Portrait)
                .map_err(|e| corrupt(VALUE.0, e))?,
            FACE => serde_json::from_str(&plain)
                .map(Signal::Face)
                .map_err(|e| corrupt(VALUE.0, e))?,
            other => return Err(corrupt("signals.kind", other)),
        };
        Ok(Kept {
            profile_id: ProfileId::new(self.profile_id),
            signal,
            blocked: self.blocked,
        })
    }
}

/// Forgets everything kept of a profile, its blocked faces included (its erasure).
pub(crate) fn forget(conn: &mut AnyConnection, profile: &str) -> Result<(), Failure> {
    diesel::delete(signals::table.filter(signals::profile_id.eq(profile))).execute(conn)?;
    Ok(())
}

#[async_trait]
impl SignalStore for Database {
    async fn keep(
        &self,
        merchant: &MerchantId,
        profile: &ProfileId,
        kept: &[Signal],
    ) -> StoreResult<()> {
        let (merchant, profile) = (merchant.as_str().to_owned(), profile.as_str().to_owned());
        let rows = kept
            .iter()
            .map(|s| SignalRow::seal(&merchant, &profile, s, &self.vault))
            .collect::<StoreResult<Vec<_>>>()?;
        self.write(move |conn| {
            let live: i64 = profiles::table
                .filter(profiles::id.eq(&profile))
                .filter(profiles::merchant_id.eq(&merchant))
                .filter(profiles::erased_at.is_null())
                .count()
                .get_result(conn)?;
            if live == 0 {
                return Ok(());
            }
            diesel::delete(
                signals::table
                    .filter(signals::profile_id.eq(&profile))
                    .filter(signals::blocked.eq(false)),
            )
            .execute(conn)?;
            // Several rows in one statement: on the concrete connection, as diesel has
            // no batch insert through the backend-generic one.
            on_concrete!(conn, |c| diesel::insert_into(signals::table)
                .values(&rows)
                .execute(c))?;
            Ok(())
        })
        .await
    }

    async fn others(&self, merchant: &MerchantId, profile: &ProfileId) -> StoreResult<Vec<Kept>> {
        let (merchant, profile) = (merchant.as_str().to_owned(), profile.as_str().to_owned());
        let rows: Vec<SignalRow> = self
            .read(move |conn| {
                Ok(signals::table
                    .filter(signals::merchant_id.eq(&merchant))
                    .filter(
                        signals::profile_id
                            .ne(&profile)
                            .or(signals::blocked.eq(true)),
                    )
                    .select(SignalRow::as_select())
                    .load(conn)?)
            })
            .await?;
        rows.into_iter().map(|row| row.open(&self.vault)).collect()
    }

    async fn block_faces(&self, merchant: &MerchantId, profile: &ProfileId) -> StoreResult<u64> {
        let (merchant, profile) = (merchant.as_str().to_owned(), profile.as_str().to_owned());
        let blocked = self
            .write(move |conn| {
                Ok(diesel::update(
                    signals::table
                        .filter(signals::merchant_id.eq(&merchant))
                        .filter(signals::profile_id.eq(&profile))
                        .filter(signals::kind.eq(FACE)),
                )
                .set(signals::blocked.eq(true))
                .execute(conn)?)
            })
            .await?;
        Ok(blocked as u64)
    }
}
