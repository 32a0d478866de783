//! `VerificationRepository`: verifications and their job queue (pending rows claimed with
//! `FOR UPDATE SKIP LOCKED` on PostgreSQL, through the single writer on SQLite), and the
//! `IdentityIndex` of keyed digests.

use async_trait::async_trait;
use diesel::prelude::*;
use domain::ids::{DocumentId, QuizId};
use domain::merchant::MerchantId;
use domain::outbox::Entry;
use domain::paging::{Page, Paged};
use domain::ports::{IdentityIndex, StoreError, StoreResult, VerificationRepository};
use domain::profile::{Profile, ProfileId};
use domain::verification::{
    Check, CheckName, CheckStatus, Detail, DocumentRead, IdentityKind, Reason, Verification,
    VerificationStatus,
};
use serde_json::{Map, Value, json};
use time::OffsetDateTime;

use crate::Database;
use crate::connection::AnyConnection;
use crate::failure::{Failure, corrupt};
use crate::outbox::persist;
use crate::repositories::documents::replace_reads;
use crate::repositories::paging::{newest_first, paged};
use crate::repositories::profiles::{ProfileRow, update_profile};
use crate::schema::{identity_index, verifications};
use crate::sealing::vault::Column;
use crate::timestamps::{from_db, to_db};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = verifications)]
pub(crate) struct VerificationRow {
    id: String,
    merchant_id: String,
    profile_id: String,
    quiz_id: String,
    status: String,
    checks: String,
    created_at: i64,
    completed_at: Option<i64>,
}

impl VerificationRow {
    pub(crate) fn of(v: &Verification) -> Self {
        Self {
            id: v.id.to_string(),
            merchant_id: v.merchant_id.as_str().to_owned(),
            profile_id: v.profile_id.as_str().to_owned(),
            quiz_id: v.quiz_id.to_string(),
            status: v.status.as_str().to_owned(),
            checks: Value::Array(v.checks.iter().map(check_json).collect()).to_string(),
            created_at: to_db(v.created_at),
            completed_at: v.completed_at.map(to_db),
        }
    }

    fn into_domain(self) -> StoreResult<Verification> {
        let column = "verifications.checks";
        let checks: Vec<Value> =
            serde_json::from_str(&self.checks).map_err(|e| corrupt(column, e))?;
        Ok(Verification {
            status: VerificationStatus::parse(&self.status)
                .ok_or_else(|| corrupt("verifications.status", &self.status))?,
            checks: checks
                .iter()
                .map(|c| check_of(c).ok_or_else(|| corrupt(column, c)))
                .collect::<StoreResult<_>>()?,
            created_at: from_db("verifications.created_at", self.created_at)?,
            completed_at: self
                .completed_at
                .map(|at| from_db("verifications.completed_at", at))
                .transpose()?,
            id: self.id.into(),
            merchant_id: MerchantId::new(self.merchant_id),
            profile_id: ProfileId::new(self.profile_id),
            quiz_id: self.quiz_id.into(),
        })
    }
}

/// A check as stored: the API's own layout.
fn check_json(c: &Check) -> Value {
    let details: Map<String, Value> = c
        .details
        .iter()
        // Stored as the API shows it; a float is read back as hundredths.
        .map(|(name, detail)| (name.clone(), json!(detail)))
        .collect();
    json!({
        "name": c.name.as_str(),
        "status": c.status.as_str(),
        "reasons": c.reasons.iter().map(Reason::as_str).collect::<Vec<_>>(),
        "document_id": c.document_id.as_ref().map(ToString::to_string),
        "details": details,
    })
}

fn check_of(v: &Value) -> Option<Check> {
    let reasons = v["reasons"]
        .as_array()?
        .iter()
        .map(|r| r.as_str().and_then(Reason::parse))
        .collect::<Option<Vec<_>>>()?;
    let details = v["details"]
        .as_object()?
        .iter()
        .map(|(name, value)| {
            let detail = match value {
                Value::Bool(flag) => Detail::Flag(*flag),
                Value::Array(_) => Detail::Matches(serde_json::from_value(value.clone()).ok()?),
                Value::Number(n) if n.is_f64() => {
                    Detail::Decimal((n.as_f64()? * 100.0).round() as i64)
                }
                other => Detail::Number(other.as_i64()?),
            };
            Some((name.clone(), detail))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Check {
        name: CheckName::parse(v["name"].as_str()?)?,
        status: CheckStatus::parse(v["status"].as_str()?)?,
        reasons,
        document_id: v["document_id"].as_str().map(Into::into),
        details,
    })
}

/// Queues `v` inside a unit of work (a submission's, or a rerun's own).
pub(crate) fn queue(conn: &mut AnyConnection, v: &VerificationRow) -> Result<(), Failure> {
    diesel::insert_into(verifications::table)
        .values(v)
        .execute(conn)?;
    Ok(())
}

/// Frees every claim (see `Database::free_crashed_claims`).
pub(crate) fn forget_claims(conn: &mut AnyConnection) -> Result<usize, Failure> {
    Ok(
        diesel::update(verifications::table.filter(verifications::claimed_until.is_not_null()))
            .set(verifications::claimed_until.eq(None::<i64>))
            .execute(conn)?,
    )
}

/// Everything of an erased profile: its verifications and its digests.
pub(crate) fn forget_profile(conn: &mut AnyConnection, profile: &str) -> Result<(), Failure> {
    diesel::delete(verifications::table.filter(verifications::profile_id.eq(profile)))
        .execute(conn)?;
    forget_identities(conn, profile)
}

/// Removes the profile's entries of the identity index: keyed digests of its SSN and
/// document numbers, which retention erases with the values.
pub(crate) fn forget_identities(conn: &mut AnyConnection, profile: &str) -> Result<(), Failure> {
    diesel::delete(identity_index::table.filter(identity_index::profile_id.eq(profile)))
        .execute(conn)?;
    Ok(())
}

#[async_trait]
impl VerificationRepository for Database {
    async fn queue(&self, verification: &Verification) -> StoreResult<()> {
        let row = VerificationRow::of(verification);
        self.write(move |conn| queue(conn, &row)).await
    }

    async fn claim(
        &self,
        now: OffsetDateTime,
        until: OffsetDateTime,
    ) -> StoreResult<Option<Verification>> {
        let (now, until) = (to_db(now), to_db(until));
        // A cheap read first: most of the time nothing is pending, and SQLite's single
        // writer need not be taken for that.
        let waiting: i64 = self
            .read(move |conn| {
                Ok(verifications::table
                    .filter(verifications::status.eq(VerificationStatus::Pending.as_str()))
                    .filter(
                        verifications::claimed_until
                            .is_null()
                            .or(verifications::claimed_until.le(now)),
                    )
                    .count()
                    .get_result(conn)?)
            })
            .await?;
        if waiting == 0 {
            return Ok(None);
        }
        let row = self
            .write(move |conn| {
                // Written per backend: a selection's backend is fixed where it is built.
                macro_rules! free {
                    () => {
                        verifications::table
                            .filter(verifications::status.eq(VerificationStatus::Pending.as_str()))
                            .filter(
                                verifications::claimed_until
                                    .is_null()
                                    .or(verifications::claimed_until.le(now)),
                            )
                            .order(verifications::created_at.asc())
                            .limit(1)
                            .select(VerificationRow::as_select())
                    };
                }
                let found: Option<VerificationRow> = match conn {
                    // Another instance's claim in progress is skipped, never waited on.
                    AnyConnection::Postgresql(c) => {
                        free!().for_update().skip_locked().first(c).optional()?
                    }
                    AnyConnection::Sqlite(c) => free!().first(c).optional()?,
                };
                if let Some(row) = &found {
                    diesel::update(verifications::table.find(&row.id))
                        .set(verifications::claimed_until.eq(until))
                        .execute(conn)?;
                }
                Ok(found)
            })
            .await?;
        row.map(VerificationRow::into_domain).transpose()
    }

    async fn complete(
        &self,
        verification: &Verification,
        entries: &[Entry],
        profile: Option<&Profile>,
        reads: &[(DocumentId, Vec<DocumentRead>)],
    ) -> StoreResult<()> {
        let row = VerificationRow::of(verification);
        let reads = reads.to_vec();
        let vault = self.vault.clone();
        let entries = entries
            .iter()
            .map(|e| self.sealed(e))
            .collect::<StoreResult<Vec<_>>>()?;
        let profile = profile
            .map(|p| ProfileRow::seal(p, &self.vault))
            .transpose()?;
        self.write(move |conn| {
            // Only while it is pending: a claimer whose claim lapsed may finish after the
            // one that took it up, and a verification is completed once.
            let pending = verifications::table
                .find(&row.id)
                .filter(verifications::status.eq(VerificationStatus::Pending.as_str()));
            let done = diesel::update(pending)
                .set((
                    verifications::status.eq(&row.status),
                    verifications::checks.eq(&row.checks),
                    verifications::completed_at.eq(row.completed_at),
                    verifications::claimed_until.eq(None::<i64>),
                ))
                .execute(conn)?;
            if done == 0 {
                return Err(Failure::Store(StoreError::Missing));
            }
            if let Some(profile) = &profile {
                update_profile(conn, profile)?;
            }
            for (document, read) in &reads {
                replace_reads(conn, &vault, document, read)?;
            }
            entries.iter().try_for_each(|e| persist(conn, e))
        })
        .await
    }

    async fn latest_of_quiz(&self, quiz: &QuizId) -> StoreResult<Option<Verification>> {
        let quiz = quiz.to_string();
        let row = self
            .read(move |conn| {
                Ok(verifications::table
                    .filter(verifications::quiz_id.eq(&quiz))
                    .order(verifications::id.desc())
                    .select(VerificationRow::as_select())
                    .first(conn)
                    .optional()?)
            })
            .await?;
        row.map(VerificationRow::into_domain).transpose()
    }

    async fn list_of_profile(
        &self,
        profile: &ProfileId,
        page: Page,
    ) -> StoreResult<Paged<Verification>> {
        let profile = profile.as_str().to_owned();
        let rows = self
            .read(move |conn| {
                let mine = verifications::table.filter(verifications::profile_id.eq(&profile));
                Ok(newest_first!(
                    conn,
                    mine,
                    verifications::id,
                    page,
                    VerificationRow
                ))
            })
            .await?;
        paged(rows, VerificationRow::into_domain)
    }
}

/// An indexed value's sealed copy: sealed like a personal field, bound to its entry.
pub(crate) const INDEXED_VALUE: Column = Column("identity_index.value");

/// What an index entry's sealed copy is bound to (its digest changes with the key).
pub(crate) fn indexed_row(merchant: &str, kind: &str, profile: &str) -> String {
    format!("{merchant}|{kind}|{profile}")
}

#[async_trait]
impl IdentityIndex for Database {
    async fn note(
        &self,
        merchant: &MerchantId,
        profile: &ProfileId,
        kind: IdentityKind,
        value: &str,
    ) -> StoreResult<u64> {
        let digest = self
            .vault
            .index_digest(merchant.as_str(), kind.as_str(), value);
        // While a rotation is under way a value may still be indexed under the old key.
        let digests = self
            .vault
            .index_digests(merchant.as_str(), kind.as_str(), value);
        let sealed = self.vault.seal_field(
            INDEXED_VALUE,
            &indexed_row(merchant.as_str(), kind.as_str(), profile.as_str()),
            value,
        )?;
        let (merchant, profile, kind) = (
            merchant.as_str().to_owned(),
            profile.as_str().to_owned(),
            kind.as_str(),
        );
        self.write(move |conn| {
            let same = || {
                identity_index::table
                    .filter(identity_index::merchant_id.eq(&merchant))
                    .filter(identity_index::kind.eq(kind))
                    .filter(identity_index::digest.eq_any(&digests))
            };
            let noted: i64 = same()
                .filter(identity_index::profile_id.eq(&profile))
                .count()
                .get_result(conn)?;
            if noted == 0 {
                diesel::insert_into(identity_index::table)
                    .values((
                        identity_index::merchant_id.eq(&merchant),
                        identity_index::kind.eq(kind),
                        identity_index::digest.eq(&digest),
                        identity_index::profile_id.eq(&profile),
                        identity_index::sealed_value.eq(&sealed),
                    ))
                    .execute(conn)?;
            }
            // Distinct profiles: mid-rotation one may be indexed under both keys.
            let others: Vec<String> = same()
                .filter(identity_index::profile_id.ne(&profile))
                .select(identity_index::profile_id)
                .distinct()
                .load(conn)?;
            Ok(others.len() as u64)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_of_every_kind_read_back_as_stored() {
        let check = Check::failed(
            CheckName::FaceMatch,
            vec![Reason::FaceMismatch],
            vec![
                ("distance".to_owned(), Detail::Decimal(42)),
                ("whole".to_owned(), Detail::Decimal(100)),
                ("faces".to_owned(), Detail::Number(1)),
                ("matches".to_owned(), Detail::Flag(false)),
            ],
        );
        let stored = check_json(&check);
        assert_eq!(stored["details"]["distance"], json!(0.42));
        assert_eq!(check_of(&stored), Some(check));
    }
}
