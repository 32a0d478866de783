//! `ScreeningStore`: the lists in force with their entries (public list data, each entry
//! as JSON), each profile's latest screening, and the lease of the re-screening.

use ::screening::BirthDate;
use async_trait::async_trait;
use diesel::dsl::not;
use diesel::prelude::*;
use domain::merchant::MerchantId;
use domain::ports::{Saved, ScreeningStore, ScreeningWrite, StoreResult};
use domain::profile::ProfileId;
use domain::watchlist::{
    Disposition, ListHit, ListImport, ListKind, ListName, ListVersion, Match, Screening,
};
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::Database;
use crate::connection::{AnyConnection, on_concrete};
use crate::failure::{Failure, corrupt};
use crate::outbox::{SealedEntry, persist};
use crate::schema::{profiles, screening_entries, screening_lease, screening_lists, screenings};
use crate::timestamps::{from_db, to_db};

/// Entries written per statement: far under either backend's limit on bound values.
const ROWS_PER_INSERT: usize = 500;

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = screening_lists)]
struct ListRow {
    name: String,
    kind: String,
    merchant_id: Option<String>,
    version: String,
    imported_at: i64,
    entries: i64,
}

impl ListRow {
    fn of(v: &ListVersion) -> Self {
        Self {
            name: v.name.as_str().to_owned(),
            kind: v.kind.as_str().to_owned(),
            merchant_id: v.merchant_id.as_ref().map(|m| m.as_str().to_owned()),
            version: v.version.clone(),
            imported_at: to_db(v.imported_at),
            entries: i64::try_from(v.entries).unwrap_or(i64::MAX),
        }
    }

    fn into_domain(self) -> StoreResult<ListVersion> {
        Ok(ListVersion {
            name: ListName::parse(&self.name)
                .ok_or_else(|| corrupt("screening_lists.name", &self.name))?,
            kind: ListKind::parse(&self.kind)
                .ok_or_else(|| corrupt("screening_lists.kind", &self.kind))?,
            merchant_id: self.merchant_id.map(MerchantId::new),
            version: self.version,
            imported_at: from_db("screening_lists.imported_at", self.imported_at)?,
            entries: u64::try_from(self.entries).unwrap_or_default(),
        })
    }
}

/// An entry's body as stored: `{"names": [..], "dates_of_birth": [[1960, 1, 12], [1962]],
/// "countries": [..]}`.
fn entry_json(e: &::screening::Entry) -> String {
    let dates: Vec<Value> = e
        .dates_of_birth
        .iter()
        .map(|d| match d.month_day {
            Some((month, day)) => json!([d.year, month, day]),
            None => json!([d.year]),
        })
        .collect();
    json!({"names": e.names, "dates_of_birth": dates, "countries": e.countries}).to_string()
}

fn entry_of(id: String, body: &str) -> Option<::screening::Entry> {
    let v: Value = serde_json::from_str(body).ok()?;
    let strings = |key: &str| -> Option<Vec<String>> {
        v[key]
            .as_array()?
            .iter()
            .map(|s| s.as_str().map(str::to_owned))
            .collect()
    };
    let dates_of_birth = v["dates_of_birth"]
        .as_array()?
        .iter()
        .map(|d| {
            let parts = d.as_array()?;
            let year = i32::try_from(parts.first()?.as_i64()?).ok()?;
            let month_day = match (parts.get(1), parts.get(2)) {
                (Some(m), Some(d)) => Some((
                    u8::try_from(m.as_u64()?).ok()?,
                    u8::try_from(d.as_u64()?).ok()?,
                )),
                _ => None,
            };
            Some(BirthDate { year, month_day })
        })
        .collect::<Option<_>>()?;
    Some(::screening::Entry {
        id,
        names: strings("names")?,
        dates_of_birth,
        countries: strings("countries")?,
    })
}

/// A match as stored (list data, the disposition and the reviewer's note).
fn match_json(m: &Match) -> Value {
    json!({
        "list": m.hit.list.as_str(),
        "list_version": m.hit.list_version,
        "entry_id": m.hit.entry_id,
        "matched_name": m.hit.matched_name,
        "score": m.hit.score,
        "kind": m.hit.kind.as_str(),
        "disposition": m.disposition.as_str(),
        "entry_digest": m.entry_digest,
        "note": m.note,
    })
}

fn match_of(v: &Value) -> Option<Match> {
    let text = |key: &str| v[key].as_str().map(str::to_owned);
    Some(Match {
        hit: ListHit {
            list: ListName::parse(v["list"].as_str()?)?,
            list_version: text("list_version")?,
            entry_id: text("entry_id")?,
            matched_name: text("matched_name")?,
            score: u8::try_from(v["score"].as_u64()?).ok()?,
            kind: ListKind::parse(v["kind"].as_str()?)?,
        },
        disposition: Disposition::parse(v["disposition"].as_str()?)?,
        entry_digest: text("entry_digest")?,
        note: text("note"),
    })
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = screenings)]
struct ScreeningRow {
    profile_id: String,
    merchant_id: String,
    screened_at: i64,
    lists_key: String,
    lists: String,
    matches: String,
}

impl ScreeningRow {
    fn of(s: &Screening) -> Self {
        let lists: Vec<Value> = s
            .lists
            .iter()
            .map(|(name, version)| json!([name.as_str(), version]))
            .collect();
        Self {
            profile_id: s.profile_id.as_str().to_owned(),
            merchant_id: s.merchant_id.as_str().to_owned(),
            screened_at: to_db(s.screened_at),
            lists_key: Screening::lists_key(&s.lists),
            lists: Value::Array(lists).to_string(),
            matches: Value::Array(s.matches.iter().map(match_json).collect()).to_string(),
        }
    }

    fn into_domain(self) -> StoreResult<Screening> {
        let lists: Vec<(String, String)> =
            serde_json::from_str(&self.lists).map_err(|e| corrupt("screenings.lists", e))?;
        let matches: Vec<Value> =
            serde_json::from_str(&self.matches).map_err(|e| corrupt("screenings.matches", e))?;
        Ok(Screening {
            merchant_id: MerchantId::new(self.merchant_id),
            profile_id: ProfileId::new(self.profile_id),
            screened_at: from_db("screenings.screened_at", self.screened_at)?,
            lists: lists
                .into_iter()
                .map(|(name, version)| {
                    let name =
                        ListName::parse(&name).ok_or_else(|| corrupt("screenings.lists", &name))?;
                    Ok((name, version))
                })
                .collect::<StoreResult<_>>()?,
            matches: matches
                .iter()
                .map(|m| match_of(m).ok_or_else(|| corrupt("screenings.matches", m)))
                .collect::<StoreResult<_>>()?,
        })
    }
}

/// An erased profile's screening (its name is gone; the profile stays).
pub(crate) fn forget(conn: &mut AnyConnection, profile: &str) -> Result<(), Failure> {
    diesel::delete(screenings::table.find(profile)).execute(conn)?;
    Ok(())
}

#[async_trait]
impl ScreeningStore for Database {
    async fn import(&self, import: &ListImport) -> StoreResult<bool> {
        let list = ListRow::of(&import.version);
        let entries: Vec<(String, String, String)> = import
            .entries
            .iter()
            .map(|e| (list.name.clone(), e.id.clone(), entry_json(e)))
            .collect();
        self.write(move |conn| {
            let in_force: Option<String> = screening_lists::table
                .find(&list.name)
                .select(screening_lists::version)
                .first(conn)
                .optional()?;
            if in_force.as_deref() == Some(list.version.as_str()) {
                return Ok(false);
            }
            // Its entries go with it, by the foreign key's cascade.
            diesel::delete(screening_lists::table.find(&list.name)).execute(conn)?;
            diesel::insert_into(screening_lists::table)
                .values(&list)
                .execute(conn)?;
            for rows in entries.chunks(ROWS_PER_INSERT) {
                let values: Vec<_> = rows
                    .iter()
                    .map(|(name, id, body)| {
                        (
                            screening_entries::list_name.eq(name),
                            screening_entries::entry_id.eq(id),
                            screening_entries::body.eq(body),
                        )
                    })
                    .collect();
                // A batch insert is written per backend.
                on_concrete!(conn, |c| diesel::insert_into(screening_entries::table)
                    .values(&values)
                    .execute(c))?;
            }
            Ok(true)
        })
        .await
    }

    async fn lists(&self) -> StoreResult<Vec<ListVersion>> {
        let rows: Vec<ListRow> = self
            .read(|conn| {
                Ok(screening_lists::table
                    .order(screening_lists::name)
                    .select(ListRow::as_select())
                    .load(conn)?)
            })
            .await?;
        rows.into_iter().map(ListRow::into_domain).collect()
    }

    async fn entries(&self, list: &ListName) -> StoreResult<Vec<::screening::Entry>> {
        let name = list.as_str().to_owned();
        let rows: Vec<(String, String)> = self
            .read(move |conn| {
                Ok(screening_entries::table
                    .filter(screening_entries::list_name.eq(name))
                    .order(screening_entries::entry_id)
                    .select((screening_entries::entry_id, screening_entries::body))
                    .load(conn)?)
            })
            .await?;
        rows.into_iter()
            .map(|(id, body)| {
                entry_of(id, &body).ok_or_else(|| corrupt("screening_entries.body", body))
            })
            .collect()
    }

    async fn screening(
        &self,
        merchant: &MerchantId,
        profile: &ProfileId,
    ) -> StoreResult<Option<Screening>> {
        let (merchant, profile) = (merchant.as_str().to_owned(), profile.as_str().to_owned());
        let row: Option<ScreeningRow> = self
            .read_point(move |conn| {
                Ok(screenings::table
                    .find(profile)
                    .filter(screenings::merchant_id.eq(merchant))
                    .select(ScreeningRow::as_select())
                    .first(conn)
                    .optional()?)
            })
            .await?;
        row.map(ScreeningRow::into_domain).transpose()
    }

    async fn save(&self, writes: &[ScreeningWrite]) -> StoreResult<Vec<Saved>> {
        let writes = writes
            .iter()
            .map(|write| {
                let events = write
                    .entries
                    .iter()
                    .map(|e| self.sealed(e))
                    .collect::<StoreResult<Vec<_>>>()?;
                let replacing = write.replacing.as_ref().map(ScreeningRow::of);
                Ok((ScreeningRow::of(&write.screening), replacing, events))
            })
            .collect::<StoreResult<Vec<_>>>()?;
        self.write(move |conn| {
            writes
                .iter()
                .map(|(row, replacing, events)| store(conn, row, replacing.as_ref(), events))
                .collect()
        })
        .await
    }

    async fn due(
        &self,
        merchant: &MerchantId,
        lists: &str,
        before: OffsetDateTime,
        limit: usize,
    ) -> StoreResult<Vec<ProfileId>> {
        let (merchant, lists) = (merchant.as_str().to_owned(), lists.to_owned());
        let (before, limit) = (to_db(before), i64::try_from(limit).unwrap_or(i64::MAX));
        let ids: Vec<String> = self
            .read(move |conn| {
                let current = screenings::table
                    .filter(screenings::merchant_id.eq(&merchant))
                    .filter(screenings::lists_key.eq(&lists))
                    .filter(screenings::screened_at.ge(before))
                    .select(screenings::profile_id);
                Ok(profiles::table
                    .filter(profiles::merchant_id.eq(&merchant))
                    .filter(profiles::erased_at.is_null())
                    .filter(not(profiles::id.eq_any(current)))
                    .order(profiles::id)
                    .limit(limit)
                    .select(profiles::id)
                    .load(conn)?)
            })
            .await?;
        Ok(ids.into_iter().map(ProfileId::new).collect())
    }

    async fn lease(
        &self,
        holder: &str,
        now: OffsetDateTime,
        until: OffsetDateTime,
    ) -> StoreResult<bool> {
        let holder = holder.to_owned();
        let (now, until) = (to_db(now), to_db(until));
        self.write(move |conn| {
            let taken = diesel::update(
                screening_lease::table
                    .filter(screening_lease::id.eq(1))
                    .filter(
                        screening_lease::holder
                            .eq(&holder)
                            .or(screening_lease::until.lt(now)),
                    ),
            )
            .set((
                screening_lease::holder.eq(&holder),
                screening_lease::until.eq(until),
            ))
            .execute(conn)?;
            Ok(taken == 1)
        })
        .await
    }
}

/// Stores `row` as its profile's latest screening in place of `replacing`, with its
/// `events`: a single statement that finds the row as it was read (an update of it, or an
/// insert where there was none), so that of two writes over the same latest one stores
/// and the other is superseded, on either backend.
fn store(
    conn: &mut AnyConnection,
    row: &ScreeningRow,
    replacing: Option<&ScreeningRow>,
    events: &[SealedEntry],
) -> Result<Saved, Failure> {
    let live: i64 = profiles::table
        .filter(profiles::id.eq(&row.profile_id))
        .filter(profiles::merchant_id.eq(&row.merchant_id))
        .filter(profiles::erased_at.is_null())
        .count()
        .get_result(conn)?;
    if live == 0 {
        return Ok(Saved::ProfileGone);
    }
    let stored = match replacing {
        None => on_concrete!(conn, |c| diesel::insert_into(screenings::table)
            .values(row)
            .on_conflict_do_nothing()
            .execute(c))?,
        Some(old) => diesel::update(
            screenings::table
                .find(&row.profile_id)
                .filter(screenings::screened_at.eq(old.screened_at))
                .filter(screenings::lists.eq(&old.lists))
                .filter(screenings::matches.eq(&old.matches)),
        )
        .set((
            screenings::screened_at.eq(row.screened_at),
            screenings::lists_key.eq(&row.lists_key),
            screenings::lists.eq(&row.lists),
            screenings::matches.eq(&row.matches),
        ))
        .execute(conn)?,
    };
    if stored == 0 {
        return Ok(Saved::Superseded);
    }
    for event in events {
        persist(conn, event)?;
    }
    Ok(Saved::Stored)
}
