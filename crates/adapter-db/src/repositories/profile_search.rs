//! The dashboard's search index on SQLite (migration 000019): an FTS5 trigram index of
//! each profile's name, e-mail and mobile that names the candidates of a search; the
//! search's own `LIKE` decides. Rows are indexed in batches behind the writes
//! ([`Database::index_profiles`]); a search reads the rows not indexed yet as it did
//! before the index. PostgreSQL needs none of this: its `pg_trgm` indexes are kept by
//! PostgreSQL itself, and a needle with an `@` is narrowed by the local parts' index
//! ([`email_holds`]).

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Integer, Nullable, Text};
use domain::ports::StoreResult;
use domain::profile::PhoneNumber;

use crate::Database;
use crate::connection::AnyConnection;
use crate::schema::profiles;

/// Rows indexed per batch. A batch holds the one writer, and the creates waiting behind
/// it: a small one keeps that wait to a millisecond or two. Under a flood of creates,
/// batches of 500 set the create p99 (14-17 ms against 11-13 with 100, and 10-12 with
/// 50, for the same rate; docs/BENCHMARKS.md).
pub const INDEX_BATCH: u64 = 100;

/// Pages of the search index one merge step writes at most: a step holds the one writer
/// for a few milliseconds, where FTS5's own merges, made inside the batch that filled a
/// level, held it for up to 50 (migration 000022).
const MERGE_PAGES: i32 = 32;

/// The FTS5 query for profiles whose name, e-mail or mobile holds `needle`: one quoted
/// phrase (its quotes doubled), which the trigram tokenizer matches as a substring. `None`
/// under three characters, which a trigram index cannot look up (the search then reads
/// the merchant's profiles, as it did before the index).
pub(crate) fn trigram_phrase(needle: &str) -> Option<String> {
    (needle.chars().count() >= 3).then(|| format!("\"{}\"", needle.replace('"', "\"\"")))
}

/// `query` kept to the profiles a search by `phrase` must look at: those the index names,
/// and those it holds no entry for yet.
pub(crate) fn among_candidates(query: ProfilesQuery, phrase: String) -> ProfilesQuery {
    query.filter(
        diesel::dsl::sql::<Bool>(
            "profiles.id IN (SELECT profile_id FROM profile_search_keys \
             WHERE key IN (SELECT rowid FROM profile_search WHERE profile_search MATCH ",
        )
        .bind::<Text, _>(phrase)
        .sql(
            ") UNION ALL SELECT profile_id FROM profile_search_keys \
             WHERE key > (SELECT indexed_upto FROM profile_search_state))",
        ),
    )
}

/// `text` as itself in a `LIKE` pattern: `%`, `_` and the escape `\\` escaped.
pub(crate) fn escape_like(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

/// Whether the e-mail holds `needle`, whose pattern is `pattern` (`%needle%`). On
/// PostgreSQL a needle `A@B` is looked up by its `A` in the index of reversed local parts
/// (migration 000021): an address holds one `@`, so it can only hold the needle if its
/// local part ends with `A`, and that B-tree finds those at once where the trigram index
/// reads the posting lists of the domain's trigrams, shared by every address.
/// - The reversed `A` is a range of the index, written with its operators: a bound
///   `LIKE 'A%'` is no range in a generic plan (1.2 s at a million).
/// - Local parts are ASCII (the e-mail's validation), so every one starting with the
///   reversed `A` sorts below it followed by U+10FFFF.
/// - The needle is then checked with `strpos`, which the trigram index cannot serve: with
///   `LIKE` the planner may also scan that index and intersect (70 ms instead of 1).
pub(crate) fn email_holds(
    pattern: String,
    needle: &str,
    on_postgres: bool,
) -> Box<dyn BoxableExpression<profiles::table, Backend, SqlType = Bool>> {
    const REVERSED_LOCAL: &str = "reverse(split_part(lower(profiles.email_address), '@', 1))";
    let local = needle.split_once('@').map(|(local, _)| local);
    match local.filter(|local| on_postgres && !local.is_empty()) {
        Some(local) => {
            let reversed: String = local.chars().rev().collect();
            Box::new(
                diesel::dsl::sql::<Bool>(&format!("({REVERSED_LOCAL} ~>=~ "))
                    .bind::<Text, _>(reversed.clone())
                    .sql(&format!(" AND {REVERSED_LOCAL} ~<~ "))
                    .bind::<Text, _>(format!("{reversed}{}", char::MAX))
                    .sql(" AND strpos(lower(profiles.email_address), ")
                    .bind::<Text, _>(needle.to_owned())
                    .sql(") > 0)"),
            )
        }
        None => Box::new(lower(profiles::email_address).like(pattern).escape('\\')),
    }
}

/// Whether the mobile number holds `needle`, whose pattern is `pattern`. Numbers are ten
/// digits, so a needle that no number could hold (an e-mail, a name) is looked for in
/// the other fields only: on PostgreSQL a probe of the numbers' trigram index for it
/// found nothing in 6 of a whole e-mail search's 8 ms at a million (docs/BENCHMARKS.md).
pub(crate) fn mobile_holds(
    pattern: String,
    needle: &str,
) -> Box<dyn BoxableExpression<profiles::table, Backend, SqlType = Bool>> {
    if PhoneNumber::could_hold(needle) {
        Box::new(profiles::mobile_number.like(pattern).escape('\\'))
    } else {
        Box::new(diesel::dsl::sql::<Bool>("FALSE"))
    }
}

diesel::define_sql_function! {
    /// SQL's `lower`, on both backends.
    fn lower(text: diesel::sql_types::Text) -> diesel::sql_types::Text;
}

/// The backend of [`AnyConnection`], which a query is built for.
type Backend = <AnyConnection as diesel::Connection>::Backend;

/// A search's query, built up filter by filter.
pub(crate) type ProfilesQuery = profiles::BoxedQuery<'static, Backend>;

#[derive(QueryableByName)]
struct Upto {
    #[diesel(sql_type = Nullable<BigInt>)]
    upto: Option<i64>,
}

impl Database {
    /// Indexes the next batch of profiles written since the index last caught up (at
    /// most [`INDEX_BATCH`], in key order) and moves its mark past them, in one write.
    /// Returns how many were indexed: a full batch means more may wait. Nothing to do on
    /// PostgreSQL.
    pub async fn index_profiles(&self) -> StoreResult<u64> {
        if !self.backend.is_sqlite() {
            return Ok(0);
        }
        self.write(|conn| {
            let last: Upto = diesel::sql_query(
                "SELECT MAX(key) AS upto FROM (SELECT key FROM profile_search_keys \
                 WHERE key > (SELECT indexed_upto FROM profile_search_state) \
                 ORDER BY key LIMIT ?)",
            )
            .bind::<BigInt, _>(INDEX_BATCH as i64)
            .get_result(conn)?;
            let Some(upto) = last.upto else {
                return Ok(0);
            };
            let indexed = diesel::sql_query(
                "INSERT INTO profile_search (rowid, name, email, mobile) \
                 SELECT k.key, p.first_name || ' ' || p.last_name, p.email_address, \
                        p.mobile_number \
                 FROM profile_search_keys k JOIN profiles p ON p.id = k.profile_id \
                 WHERE k.key > (SELECT indexed_upto FROM profile_search_state) AND k.key <= ?",
            )
            .bind::<BigInt, _>(upto)
            .execute(conn)?;
            diesel::sql_query("UPDATE profile_search_state SET indexed_upto = ?")
                .bind::<BigInt, _>(upto)
                .execute(conn)?;
            Ok(indexed as u64)
        })
        .await
    }

    /// One step of merging the search index's segments (at most [`MERGE_PAGES`] pages
    /// written), in one write. Returns whether there was work to do: then more may wait.
    /// Nothing to do on PostgreSQL.
    pub async fn merge_profile_search(&self) -> StoreResult<bool> {
        if !self.backend.is_sqlite() {
            return Ok(false);
        }
        self.write(|conn| {
            // FTS5 tells a merge that did something by the changes it counts: two or more.
            let before = total_changes(conn)?;
            diesel::sql_query(
                "INSERT INTO profile_search (profile_search, rank) VALUES ('merge', ?)",
            )
            .bind::<Integer, _>(MERGE_PAGES)
            .execute(conn)?;
            Ok(total_changes(conn)? - before >= 2)
        })
        .await
    }
}

#[derive(QueryableByName)]
struct Changes {
    #[diesel(sql_type = BigInt)]
    changes: i64,
}

/// The rows changed on `conn` since it opened (SQLite's `total_changes()`).
fn total_changes(conn: &mut AnyConnection) -> Result<i64, diesel::result::Error> {
    let counted: Changes =
        diesel::sql_query("SELECT total_changes() AS changes").get_result(conn)?;
    Ok(counted.changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_needle_is_one_quoted_phrase_and_short_ones_are_not_looked_up() {
        assert_eq!(trigram_phrase("ada").as_deref(), Some("\"ada\""));
        assert_eq!(trigram_phrase("a\"b c").as_deref(), Some("\"a\"\"b c\""));
        assert_eq!(trigram_phrase("ad"), None);
        assert_eq!(
            trigram_phrase("éé").as_deref(),
            None,
            "characters, not bytes"
        );
    }
}
