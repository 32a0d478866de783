//! `SignalStore`: what is kept of each profile's images to compare clients (contract
//! §20), one row per signal, its value sealed (a face's description is biometric data; a
//! picture's hash is kept as carefully). No database compares a sealed value: the
//! merchant's signals are compared in the domain, from a copy each server holds opened
//! in memory ([`SignalIndex`]), read whole once and then kept in step through the
//! database's log of changes (migration 000028), whichever server made them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use diesel::prelude::*;
use domain::merchant::MerchantId;
use domain::ports::{SignalStore, StoreResult};
use domain::profile::ProfileId;
use domain::signals::{Kept, Signal};

use crate::Database;
use crate::connection::{AnyConnection, on_concrete};
use crate::failure::{Failure, corrupt};
use crate::schema::{profiles, signal_changes, signal_versions, signals};
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
                serde_json::to_string(&face[..]).map_err(|e| corrupt(VALUE.0, e))?,
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
            FACE => serde_json::from_str::<Vec<f32>>(&plain)
                .map(|face| Signal::Face(face.into()))
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

/// Changes the log keeps per merchant (the migration's figure): a copy further behind is
/// read whole again.
const CHANGES_KEPT: i64 = 100_000;

/// Profiles whose rows are read in one query, after changes.
const PROFILES_AT_ONCE: usize = 500;

/// Rows read (and opened) at a time when a copy is read whole, so that the sealed rows
/// of a large merchant are never all in memory beside the copy.
const ROWS_AT_ONCE: i64 = 5_000;

/// Each merchant's signals as this server last read them, opened.
#[derive(Default)]
pub(crate) struct SignalIndex {
    merchants: Mutex<HashMap<String, Arc<tokio::sync::Mutex<MerchantSignals>>>>,
}

impl SignalIndex {
    fn of(&self, merchant: &str) -> Arc<tokio::sync::Mutex<MerchantSignals>> {
        let mut merchants = self.merchants.lock().expect("signal index lock");
        merchants.entry(merchant.to_owned()).or_default().clone()
    }
}

/// One merchant's signals, by profile, at the version of the log they were read at.
#[derive(Default)]
struct MerchantSignals {
    /// `None` before the first read.
    version: Option<i64>,
    profiles: HashMap<String, Vec<Kept>>,
}

/// What the database holds that a copy at some version does not, opened.
enum News {
    Nothing,
    /// What is now kept of the profiles changed since (nothing for a profile gone).
    Profiles {
        version: i64,
        changed: Vec<String>,
        kept: Vec<Kept>,
    },
    /// Everything the merchant keeps: the copy is new, or too far behind the log.
    All {
        version: i64,
        kept: Vec<Kept>,
    },
}

/// What changed for `merchant` since `since`. Versions are committed in their order (the
/// writer holds the version's row until it commits), so the changes up to the version
/// read are all there; rows read a moment later may already be newer, and are read
/// again at the next version, which names their profile.
fn news_since(
    conn: &mut AnyConnection,
    vault: &Vault,
    merchant: &str,
    since: Option<i64>,
) -> Result<News, Failure> {
    let version = signal_versions::table
        .find(merchant)
        .select(signal_versions::version)
        .first::<i64>(conn)
        .optional()?
        .unwrap_or(0);
    let of_merchant = || {
        signals::table
            .filter(signals::merchant_id.eq(merchant))
            .select(SignalRow::as_select())
    };
    let open = |rows: Vec<SignalRow>| -> Result<Vec<Kept>, Failure> {
        rows.into_iter()
            .map(|row| row.open(vault).map_err(Failure::Store))
            .collect()
    };
    match since {
        Some(since) if since == version => Ok(News::Nothing),
        Some(since) if (0..=CHANGES_KEPT).contains(&(version - since)) => {
            let changed: Vec<String> = signal_changes::table
                .filter(signal_changes::merchant_id.eq(merchant))
                .filter(signal_changes::version.gt(since))
                .filter(signal_changes::version.le(version))
                .select(signal_changes::profile_id)
                .distinct()
                .load(conn)?;
            let mut kept = Vec::new();
            for some in changed.chunks(PROFILES_AT_ONCE) {
                kept.extend(open(
                    of_merchant()
                        .filter(signals::profile_id.eq_any(some))
                        .load(conn)?,
                )?);
            }
            Ok(News::Profiles {
                version,
                changed,
                kept,
            })
        }
        _ => {
            let mut kept = Vec::new();
            let mut after = String::new();
            loop {
                let rows: Vec<SignalRow> = of_merchant()
                    .filter(signals::id.gt(&after))
                    .order(signals::id.asc())
                    .limit(ROWS_AT_ONCE)
                    .load(conn)?;
                let Some(last) = rows.last() else { break };
                after = last.id.clone();
                kept.extend(open(rows)?);
            }
            Ok(News::All { version, kept })
        }
    }
}

impl MerchantSignals {
    fn apply(&mut self, news: News) {
        let (version, kept) = match news {
            News::Nothing => return,
            News::Profiles {
                version,
                changed,
                kept,
            } => {
                for profile in &changed {
                    self.profiles.remove(profile);
                }
                (version, kept)
            }
            News::All { version, kept } => {
                self.profiles.clear();
                (version, kept)
            }
        };
        for one in kept {
            self.profiles
                .entry(one.profile_id.as_str().to_owned())
                .or_default()
                .push(one);
        }
        self.version = Some(version);
    }

    /// The signals of every profile but `profile`, and `profile`'s blocked faces.
    fn others(&self, profile: &ProfileId) -> Vec<Kept> {
        self.profiles
            .iter()
            .flat_map(|(whose, kept)| {
                let own = whose == profile.as_str();
                kept.iter().filter(move |k| !own || k.blocked)
            })
            .cloned()
            .collect()
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
        // One merchant's copy is brought up to date by one verification at a time.
        let copy = self.signal_index.of(merchant.as_str());
        let mut copy = copy.lock().await;
        let (merchant, since, vault) = (
            merchant.as_str().to_owned(),
            copy.version,
            self.vault.clone(),
        );
        let news = self
            .read(move |conn| news_since(conn, &vault, &merchant, since))
            .await?;
        copy.apply(news);
        Ok(copy.others(profile))
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
