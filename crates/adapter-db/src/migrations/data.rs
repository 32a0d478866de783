//! What the schema's migrations cannot do in SQL: check the master key against the
//! database, seal the personal values stored before sealing existed, and hash the quiz
//! links stored before they were hashed.

use diesel::prelude::*;

use crate::connection::AnyConnection;
use crate::failure::Failure;
use crate::outbox::EVENT_URL;
use crate::repositories::documents::{DocumentRow, name_files};
use crate::repositories::profiles::ProfileRow;
use crate::repositories::quizzes::{CODE, TOKEN};
use crate::schema::{api_keys, data_migrations, documents, events, master_key, profiles, quizzes};
use crate::sealing::vault::Vault;

/// The data migration that seals values stored in clear by earlier versions.
const SEAL_STORED_VALUES: &str = "2026-11-22-seal-stored-values";
/// The data migration that hashes (and seals) quiz tokens and codes stored in clear, and
/// seals the short addresses in the events of earlier versions.
const HASH_QUIZ_LINKS: &str = "2026-11-24-hash-quiz-links";

/// Why the master key was refused.
#[derive(Debug, thiserror::Error)]
pub enum KeyMismatch {
    #[error(
        "the master key (fingerprint {given}) is not the key of this database (fingerprint \
         {stored}); start with the key this database was created with (IDV_MASTER_KEY or the \
         data directory's master.key)"
    )]
    Fingerprint { given: String, stored: String },
    #[error(
        "the master key (fingerprint {given}) does not open the API secrets stored in this \
         database; start with the key this database was created with"
    )]
    Secrets { given: String },
    #[error(
        "a master key rotation to the key with fingerprint {next} is under way: start with \
         that key as IDV_NEW_MASTER_KEY too (docs/DEPLOY.md, key rotation)"
    )]
    RotationUnderWay { next: String },
    #[error(
        "a master key rotation to the key with fingerprint {next} is under way, not to the \
         new key given (fingerprint {given}); finish that one first"
    )]
    OtherRotation { next: String, given: String },
}

/// Records the key's fingerprint on first use; refuses a key whose fingerprint differs.
/// A database from before fingerprints is checked by opening one of its API secrets.
/// During a rotation (see `migrations/rekey.rs`) the database records the key rotated to: a vault of
/// the old key and that one starts it or joins it, a vault of the old key alone is refused
/// until it is done, and when it is done only the new key is the database's.
pub(crate) fn check_master_key(
    conn: &mut AnyConnection,
    vault: &Vault,
    now: i64,
) -> Result<Result<(), KeyMismatch>, Failure> {
    let stored: Option<(String, Option<String>)> = master_key::table
        .find(1)
        .select((master_key::fingerprint, master_key::next_fingerprint))
        .first(conn)
        .optional()?;
    let given = vault.fingerprint().to_owned();
    match stored {
        Some((stored, None)) if stored == given => Ok(Ok(())),
        Some((stored, Some(next))) if stored == given => {
            Ok(Err(KeyMismatch::RotationUnderWay { next }))
        }
        Some((stored, next)) if Some(stored.as_str()) == vault.previous_fingerprint() => match next
        {
            Some(next) if next != given => Ok(Err(KeyMismatch::OtherRotation { next, given })),
            Some(_) => Ok(Ok(())),
            None => {
                diesel::update(master_key::table.find(1))
                    .set(master_key::next_fingerprint.eq(&given))
                    .execute(conn)?;
                Ok(Ok(()))
            }
        },
        Some((stored, _)) => Ok(Err(KeyMismatch::Fingerprint { given, stored })),
        None => {
            let sample: Option<(String, Vec<u8>)> = api_keys::table
                .select((api_keys::api_key, api_keys::sealed_secret))
                .first(conn)
                .optional()?;
            if let Some((key, sealed)) = sample
                && vault.open(&sealed, &key).is_err()
            {
                return Ok(Err(KeyMismatch::Secrets { given }));
            }
            // During a rotation what is stored is the old key's, the new one is next.
            let (fingerprint, next) = match vault.previous_fingerprint() {
                Some(old) => (old.to_owned(), Some(given)),
                None => (given, None),
            };
            diesel::insert_into(master_key::table)
                .values((
                    master_key::id.eq(1),
                    master_key::fingerprint.eq(&fingerprint),
                    master_key::next_fingerprint.eq(&next),
                    master_key::created_at.eq(now),
                ))
                .execute(conn)?;
            Ok(Ok(()))
        }
    }
}

/// Seals every personal value stored in clear, once, in one transaction; returns how many
/// rows it sealed, or `None` when it had already run.
pub(crate) fn seal_stored_values(
    conn: &mut AnyConnection,
    vault: &Vault,
    now: i64,
) -> Result<Option<u64>, Failure> {
    once(conn, SEAL_STORED_VALUES, now, |conn| {
        Ok(seal_stored_profiles(conn, vault)? + seal_stored_documents(conn, vault)?)
    })
}

/// Hashes and seals every quiz link stored in clear, and seals the short addresses of
/// earlier events, once, in one transaction; returns how many rows it changed, or `None`
/// when it had already run.
pub(crate) fn hash_quiz_links(
    conn: &mut AnyConnection,
    vault: &Vault,
    now: i64,
) -> Result<Option<u64>, Failure> {
    once(conn, HASH_QUIZ_LINKS, now, |conn| {
        Ok(hash_stored_links(conn, vault)? + seal_stored_event_urls(conn, vault)?)
    })
}

/// Runs the data migration `name` in one transaction unless `data_migrations` records it
/// as done, and records it; how many rows it changed, or `None` when it had already run.
fn once(
    conn: &mut AnyConnection,
    name: &str,
    now: i64,
    work: impl FnOnce(&mut AnyConnection) -> Result<u64, Failure>,
) -> Result<Option<u64>, Failure> {
    conn.transaction(|conn| {
        let done: i64 = data_migrations::table.find(name).count().get_result(conn)?;
        if done > 0 {
            return Ok(None);
        }
        let rows = work(conn)?;
        diesel::insert_into(data_migrations::table)
            .values((
                data_migrations::name.eq(name),
                data_migrations::applied_at.eq(now),
            ))
            .execute(conn)?;
        Ok(Some(rows))
    })
}

/// The stored key fingerprint, or "unknown" where API secrets exist without one; `None`
/// for a database that holds nothing sealed (or no tables yet).
pub(crate) fn sealed_under(conn: &mut AnyConnection) -> Option<String> {
    let stored: Option<String> = master_key::table
        .find(1)
        .select(master_key::fingerprint)
        .first(conn)
        .optional()
        .ok()
        .flatten();
    if stored.is_some() {
        return stored;
    }
    let secrets: i64 = api_keys::table.count().get_result(conn).unwrap_or(0);
    (secrets > 0).then(|| "unknown".to_owned())
}

/// Seals the personal values of every profile stored in clear (data migration).
fn seal_stored_profiles(conn: &mut AnyConnection, vault: &Vault) -> Result<u64, Failure> {
    let rows: Vec<ProfileRow> = profiles::table.select(ProfileRow::as_select()).load(conn)?;
    let count = rows.len() as u64;
    for mut row in rows {
        row.seal_in_place(vault)?;
        diesel::update(profiles::table.find(&row.id))
            .set((
                profiles::date_of_birth.eq(&row.date_of_birth),
                profiles::driver_licence_id.eq(&row.driver_licence_id),
                profiles::ssn.eq(&row.ssn),
                profiles::submitted_email_address.eq(&row.submitted_email_address),
                profiles::submitted_mobile_number.eq(&row.submitted_mobile_number),
                profiles::submitted_address.eq(&row.submitted_address),
                profiles::submitted_date_of_birth.eq(&row.submitted_date_of_birth),
                profiles::submitted_ssn.eq(&row.submitted_ssn),
            ))
            .execute(conn)?;
    }
    Ok(count)
}

/// Seals the `url` of every event stored in clear by an earlier version (data migration,
/// run once, before anything newer was written).
fn seal_stored_event_urls(conn: &mut AnyConnection, vault: &Vault) -> Result<u64, Failure> {
    let clear: Vec<(String, String)> = events::table
        .filter(events::url.ne(""))
        .select((events::id, events::url))
        .load(conn)?;
    for (id, url) in &clear {
        let sealed = vault.seal_field(EVENT_URL, id, url)?;
        diesel::update(events::table.find(id))
            .set(events::url.eq(sealed))
            .execute(conn)?;
    }
    Ok(clear.len() as u64)
}

/// Seals the evidence of every document stored in clear, and records beside it what must
/// be read without opening it: its files' ids and bytes (data migration).
fn seal_stored_documents(conn: &mut AnyConnection, vault: &Vault) -> Result<u64, Failure> {
    let rows: Vec<DocumentRow> = documents::table
        .select(DocumentRow::as_select())
        .load(conn)?;
    let count = rows.len() as u64;
    for clear in rows {
        let document = clear.into_domain()?;
        name_files(conn, &document)?;
        let sealed = DocumentRow::seal(&document, vault)?;
        diesel::update(documents::table.find(&sealed.id))
            .set((
                documents::data.eq(&sealed.data),
                documents::size_bytes.eq(sealed.size_bytes),
            ))
            .execute(conn)?;
    }
    Ok(count)
}

/// Hashes and seals the token and code of every quiz an earlier version stored in clear
/// (data migration): until then `token_hash` and `code_hash` hold the clear values and
/// `sealed_token` is null.
fn hash_stored_links(conn: &mut AnyConnection, vault: &Vault) -> Result<u64, Failure> {
    let clear: Vec<(String, String, String)> = quizzes::table
        .filter(quizzes::sealed_token.is_null())
        .select((quizzes::id, quizzes::token_hash, quizzes::code_hash))
        .load(conn)?;
    for (id, token, code) in &clear {
        diesel::update(quizzes::table.find(id))
            .set((
                quizzes::token_hash.eq(vault.link_hash(TOKEN, token)),
                quizzes::code_hash.eq(vault.link_hash(CODE, code)),
                quizzes::sealed_token.eq(vault.seal_field(TOKEN, id, token)?),
                quizzes::sealed_code.eq(vault.seal_field(CODE, id, code)?),
            ))
            .execute(conn)?;
    }
    Ok(clear.len() as u64)
}
