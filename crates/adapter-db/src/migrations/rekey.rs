//! Master key rotation (`idv rekey`, contract §15): every sealed value, keyed hash and
//! file is brought under the vault's current key while the service runs on a vault of
//! both keys. The database is walked one part (a sealed column, the quiz link hashes, the
//! identity index) at a time, in batches, each batch one transaction; a value is
//! replaced only if it is still the one read (a concurrent write wins, and writes under
//! the new key already), and values under the new key are skipped, so a run killed
//! anywhere is resumed by running it again. When every part and file is done,
//! `finish_rekey` makes the new key the database's: the old one then opens nothing.

use diesel::prelude::*;
use domain::ids::FileId;
use domain::ports::{StoreError, StoreResult};

use crate::Database;
use crate::connection::AnyConnection;
use crate::failure::Failure;
use crate::outbox::{EVENT_URL, message_context};
use crate::repositories::documents::DATA;
use crate::repositories::profiles::{
    DATE_OF_BIRTH, DRIVER_LICENCE_ID, SSN, SUBMITTED_ADDRESS, SUBMITTED_DOB, SUBMITTED_EMAIL,
    SUBMITTED_MOBILE, SUBMITTED_SSN,
};
use crate::repositories::quizzes::{CODE, TOKEN};
use crate::repositories::signals::VALUE as SIGNAL;
use crate::repositories::users::TOTP;
use crate::repositories::verifications::{INDEXED_VALUE, indexed_row};
use crate::repositories::webhooks::secret_context;
use crate::schema::{
    api_keys, document_files, documents, events, identity_index, master_key, merchant_users,
    profiles, quizzes, signals, webhook_deliveries, webhooks,
};
use crate::sealing::vault::{Column, Vault};

/// One batch of a part: how many values it re-sealed, and where the next batch starts
/// (`None` once the part is done).
#[derive(Debug)]
pub struct Batch {
    pub resealed: u64,
    pub next: Option<String>,
}

type Walk = fn(&mut AnyConnection, &Vault, &str, i64) -> Result<Batch, Failure>;

/// A part of the database a rotation walks, by the name progress is reported under.
pub struct RekeyPart {
    pub name: &'static str,
    walk: Walk,
}

impl std::fmt::Debug for RekeyPart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

fn unopenable(what: &str, row: &str) -> Failure {
    Failure::Store(StoreError::Internal(
        format!(
            "{what} of row {row} opens under neither key: damaged, or sealed under another key"
        )
        .into(),
    ))
}

/// A personal field sealed as text (`vault.seal_field`) in `$table.$column`, keyed by
/// `$pk`, with `$aad` as its column in the associated data.
macro_rules! field_part {
    ($name:literal, $table:ident, $pk:ident, $column:ident, $aad:expr) => {
        RekeyPart {
            name: $name,
            walk: |conn, vault, after, limit| {
                let rows: Vec<(String, Option<String>)> = $table::table
                    .filter($table::$pk.gt(after))
                    .order($table::$pk.asc())
                    .limit(limit)
                    .select(($table::$pk, $table::$column.nullable()))
                    .load(conn)?;
                let mut resealed = 0;
                for (id, stored) in &rows {
                    // Empty is what an event without a quiz keeps: nothing sealed.
                    let Some(stored) = stored.as_deref().filter(|s| !s.is_empty()) else {
                        continue;
                    };
                    let aad: Column = $aad;
                    let Some(fresh) = vault
                        .reseal_field(aad, id, stored)
                        .map_err(|_| unopenable($name, id))?
                    else {
                        continue;
                    };
                    let still = $table::table.find(id).filter($table::$column.eq(stored));
                    let changed = diesel::update(still)
                        .set($table::$column.eq(fresh))
                        .execute(conn)?;
                    resealed += changed as u64;
                }
                Ok(Batch {
                    resealed,
                    next: rows.last().map(|(id, _)| id.clone()),
                })
            },
        }
    };
}

/// A secret sealed as bytes (`vault.seal`) in `$table.$column`, keyed by `$pk`, whose
/// context `$context` makes of the key and of `$extra`.
macro_rules! secret_part {
    ($name:literal, $table:ident, $pk:ident, $extra:ident, $column:ident, $context:expr) => {
        RekeyPart {
            name: $name,
            walk: |conn, vault, after, limit| {
                let rows: Vec<(String, String, Option<Vec<u8>>)> = $table::table
                    .filter($table::$pk.gt(after))
                    .order($table::$pk.asc())
                    .limit(limit)
                    .select(($table::$pk, $table::$extra, $table::$column.nullable()))
                    .load(conn)?;
                let context: fn(&str, &str) -> String = $context;
                let mut resealed = 0;
                for (id, extra, stored) in &rows {
                    let Some(stored) = stored else { continue };
                    let Some(fresh) = vault
                        .reseal(stored, &context(id, extra))
                        .map_err(|_| unopenable($name, id))?
                    else {
                        continue;
                    };
                    let still = $table::table.find(id).filter($table::$column.eq(stored));
                    let changed = diesel::update(still)
                        .set($table::$column.eq(fresh))
                        .execute(conn)?;
                    resealed += changed as u64;
                }
                Ok(Batch {
                    resealed,
                    next: rows.last().map(|(id, _, _)| id.clone()),
                })
            },
        }
    };
}

/// Every part of the database a rotation walks, in order.
pub const REKEY_PARTS: &[RekeyPart] = &[
    field_part!(
        "profiles.date_of_birth",
        profiles,
        id,
        date_of_birth,
        DATE_OF_BIRTH
    ),
    field_part!(
        "profiles.driver_licence_id",
        profiles,
        id,
        driver_licence_id,
        DRIVER_LICENCE_ID
    ),
    field_part!("profiles.ssn", profiles, id, ssn, SSN),
    field_part!(
        "profiles.submitted_email_address",
        profiles,
        id,
        submitted_email_address,
        SUBMITTED_EMAIL
    ),
    field_part!(
        "profiles.submitted_mobile_number",
        profiles,
        id,
        submitted_mobile_number,
        SUBMITTED_MOBILE
    ),
    field_part!(
        "profiles.submitted_address",
        profiles,
        id,
        submitted_address,
        SUBMITTED_ADDRESS
    ),
    field_part!(
        "profiles.submitted_date_of_birth",
        profiles,
        id,
        submitted_date_of_birth,
        SUBMITTED_DOB
    ),
    field_part!(
        "profiles.submitted_ssn",
        profiles,
        id,
        submitted_ssn,
        SUBMITTED_SSN
    ),
    field_part!("events.url", events, id, url, EVENT_URL),
    field_part!("documents.data", documents, id, data, DATA),
    field_part!("signals.value", signals, id, value, SIGNAL),
    field_part!("quizzes.sealed_token", quizzes, id, sealed_token, TOKEN),
    field_part!("quizzes.sealed_code", quizzes, id, sealed_code, CODE),
    field_part!(
        "merchant_users.sealed_totp",
        merchant_users,
        id,
        sealed_totp,
        TOTP
    ),
    secret_part!(
        "api_keys.sealed_secret",
        api_keys,
        api_key,
        api_key,
        sealed_secret,
        |key, _| key.to_owned()
    ),
    secret_part!(
        "webhooks.sealed_secret",
        webhooks,
        id,
        id,
        sealed_secret,
        |id, _| secret_context(id, false)
    ),
    secret_part!(
        "webhooks.sealed_previous",
        webhooks,
        id,
        id,
        sealed_previous,
        |id, _| secret_context(id, true)
    ),
    secret_part!(
        "webhook_deliveries.sealed_message",
        webhook_deliveries,
        id,
        event_id,
        sealed_message,
        |_, event| message_context(event)
    ),
    RekeyPart {
        name: "quizzes.token_hash and code_hash",
        walk: rehash_quiz_links,
    },
    RekeyPart {
        name: "identity_index",
        walk: rehash_identity_index,
    },
];

/// The quiz links' keyed hashes, computed again under the current key from their sealed
/// copies (lookups meanwhile try the hashes of both keys).
fn rehash_quiz_links(
    conn: &mut AnyConnection,
    vault: &Vault,
    after: &str,
    limit: i64,
) -> Result<Batch, Failure> {
    type Row = (String, String, String, Option<String>, Option<String>);
    let rows: Vec<Row> = quizzes::table
        .filter(quizzes::id.gt(after))
        .order(quizzes::id.asc())
        .limit(limit)
        .select((
            quizzes::id,
            quizzes::token_hash,
            quizzes::code_hash,
            quizzes::sealed_token,
            quizzes::sealed_code,
        ))
        .load(conn)?;
    let mut rehashed = 0;
    for (id, token_hash, code_hash, token, code) in &rows {
        let (Some(token), Some(code)) = (token, code) else {
            return Err(unopenable("quizzes.sealed_token", id));
        };
        let open = |column, sealed| {
            vault
                .open_field(column, id, sealed)
                .map_err(|_| unopenable(column.0, id))
        };
        let fresh = (
            vault.link_hash(TOKEN, &open(TOKEN, token)?),
            vault.link_hash(CODE, &open(CODE, code)?),
        );
        if (&fresh.0, &fresh.1) == (token_hash, code_hash) {
            continue;
        }
        let still = quizzes::table
            .find(id)
            .filter(quizzes::token_hash.eq(token_hash))
            .filter(quizzes::code_hash.eq(code_hash));
        let changed = diesel::update(still)
            .set((
                quizzes::token_hash.eq(&fresh.0),
                quizzes::code_hash.eq(&fresh.1),
            ))
            .execute(conn)?;
        rehashed += changed as u64;
    }
    Ok(Batch {
        resealed: rehashed,
        next: rows.last().map(|(id, ..)| id.clone()),
    })
}

/// The identity index: each entry not under the current key is replaced by the entry of
/// its value under it (from its sealed copy); an entry from before sealed copies cannot be
/// and is dropped (its profile's next verification notes it again). Entries are found by
/// their sealed copy's key id, so there is no cursor: a batch takes what is left.
fn rehash_identity_index(
    conn: &mut AnyConnection,
    vault: &Vault,
    _after: &str,
    limit: i64,
) -> Result<Batch, Failure> {
    let current = format!("{}:%", vault.current_key_text());
    let rows: Vec<(String, String, String, String, Option<String>)> = identity_index::table
        .filter(
            identity_index::sealed_value
                .is_null()
                .or(identity_index::sealed_value.not_like(&current)),
        )
        .limit(limit)
        .select((
            identity_index::merchant_id,
            identity_index::kind,
            identity_index::digest,
            identity_index::profile_id,
            identity_index::sealed_value,
        ))
        .load(conn)?;
    let mut changed = 0;
    for (merchant, kind, digest, profile, sealed) in &rows {
        let entry = identity_index::table
            .filter(identity_index::merchant_id.eq(merchant))
            .filter(identity_index::kind.eq(kind))
            .filter(identity_index::digest.eq(digest))
            .filter(identity_index::profile_id.eq(profile));
        changed += diesel::delete(entry).execute(conn)? as u64;
        let Some(sealed) = sealed else { continue };
        let row = indexed_row(merchant, kind, profile);
        let value = vault
            .open_field(INDEXED_VALUE, &row, sealed)
            .map_err(|_| unopenable("identity_index.sealed_value", &row))?;
        let fresh = vault.index_digest(merchant, kind, &value);
        let noted: i64 = identity_index::table
            .filter(identity_index::merchant_id.eq(merchant))
            .filter(identity_index::kind.eq(kind))
            .filter(identity_index::digest.eq(&fresh))
            .filter(identity_index::profile_id.eq(profile))
            .count()
            .get_result(conn)?;
        if noted == 0 {
            diesel::insert_into(identity_index::table)
                .values((
                    identity_index::merchant_id.eq(merchant),
                    identity_index::kind.eq(kind),
                    identity_index::digest.eq(&fresh),
                    identity_index::profile_id.eq(profile),
                    identity_index::sealed_value.eq(vault.seal_field(
                        INDEXED_VALUE,
                        &row,
                        &value,
                    )?),
                ))
                .execute(conn)?;
        }
    }
    Ok(Batch {
        resealed: changed,
        next: (!rows.is_empty()).then(String::new),
    })
}

impl Database {
    /// Re-seals one batch of `part`, from after `after` (`""` at the start), in one
    /// transaction.
    pub async fn rekey_batch(
        &self,
        part: &'static RekeyPart,
        after: String,
        limit: usize,
    ) -> StoreResult<Batch> {
        let vault = self.vault.clone();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.write(move |conn| (part.walk)(conn, &vault, &after, limit))
            .await
    }

    /// Up to `limit` stored files' ids, in order, after `after` (`""` at the start).
    pub async fn files_after(&self, after: String, limit: usize) -> StoreResult<Vec<FileId>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let ids: Vec<String> = self
            .read(move |conn| {
                Ok(document_files::table
                    .filter(document_files::file_id.gt(after))
                    .order(document_files::file_id.asc())
                    .limit(limit)
                    .select(document_files::file_id)
                    .load(conn)?)
            })
            .await?;
        Ok(ids.into_iter().map(FileId::from).collect())
    }

    /// Once every part and file is under the current key: the current key becomes the
    /// database's own, and the rotation is over (an instance of the old key alone is
    /// refused from now on).
    pub async fn finish_rekey(&self) -> StoreResult<()> {
        let fingerprint = self.vault.fingerprint().to_owned();
        self.write(move |conn| {
            diesel::update(master_key::table.find(1))
                .set((
                    master_key::fingerprint.eq(&fingerprint),
                    master_key::next_fingerprint.eq(None::<String>),
                ))
                .execute(conn)?;
            Ok(())
        })
        .await
    }
}
