//! `ProfileRepository`: profiles and their activity log, written together.

use async_trait::async_trait;
use diesel::prelude::*;
use domain::event::Event;
use domain::ids::FileId;
use domain::merchant::{MerchantId, RetentionDays};
use domain::outbox::Entry;
use domain::paging::{Page, Paged};
use domain::ports::{ProfileRepository, StoreError, StoreResult};
use domain::profile::{
    Amount, Attributes, Country, DateOfBirth, Email, IpAddress, LongText, PhoneNumber, Postal,
    Profile, ProfileFilter, ProfileId, ProfileKey, ProfileStatus, ShortText, Ssn, State,
    SubmittedFormFields,
};
use domain::validation::Invalid;
use time::OffsetDateTime;

use crate::Database;
use crate::connection::{AnyConnection, on_concrete};
use crate::failure::{Failure, corrupt};
use crate::outbox::{EventRow, persist};
use crate::repositories::documents::{
    erase_documents_of_profile, file_ids_of_profile, forget_files_of_profile,
};
use crate::repositories::paging::{newest_first, page_of, paged};
use crate::repositories::profile_search::{
    among_candidates, email_holds, escape_like, mobile_holds, trigram_phrase,
};
use crate::schema::{documents, events, notes, profile_counts, profiles, quizzes};
use crate::sealing::vault::{Column, Vault};
use crate::timestamps::{from_db, to_db};

/// `None` is written as NULL (the columns have no other default), so that an insert's SQL
/// is the same for every row and its prepared statement is reused.
#[derive(Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(
    table_name = profiles,
    treat_none_as_null = true,
    treat_none_as_default_value = false
)]
pub(crate) struct ProfileRow {
    pub(crate) id: String,
    merchant_id: String,
    email_address: String,
    email_key: String,
    mobile_number: String,
    first_name: String,
    last_name: String,
    merchant_reference: Option<String>,
    customer_id: Option<String>,
    middle_name: Option<String>,
    pub(crate) date_of_birth: Option<String>,
    home_phone_number: Option<String>,
    ip_address: Option<String>,
    address_line_1: Option<String>,
    address_line_2: Option<String>,
    city: Option<String>,
    state: Option<String>,
    postal: Option<String>,
    country: Option<String>,
    pub(crate) driver_licence_id: Option<String>,
    pub(crate) ssn: Option<String>,
    amount_cents: Option<i64>,
    status: String,
    created_at: i64,
    updated_at: i64,
    revision: i64,
    // What the client typed: written only by the quiz flow (`write_submitted`), never by
    // the merchant's updates, so neither side overwrites the other.
    #[diesel(skip_update)]
    pub(crate) submitted_email_address: Option<String>,
    #[diesel(skip_update)]
    pub(crate) submitted_mobile_number: Option<String>,
    #[diesel(skip_update)]
    pub(crate) submitted_address: Option<String>,
    #[diesel(skip_update)]
    pub(crate) submitted_date_of_birth: Option<String>,
    #[diesel(skip_update)]
    pub(crate) submitted_ssn: Option<String>,
    #[diesel(skip_update)]
    submitted_created_at: Option<i64>,
    #[diesel(skip_update)]
    submitted_updated_at: Option<i64>,
    status_changed_at: i64,
    erased_at: Option<i64>,
}

/// How many profiles `merchant` has, from the counts the triggers keep (migration
/// 000020): counting the rows themselves read a million index entries at a million.
pub(crate) fn profile_count(conn: &mut AnyConnection, merchant: &str) -> Result<i64, Failure> {
    let sum = profile_counts::table
        .filter(profile_counts::merchant_id.eq(merchant))
        .select(diesel::dsl::sql::<diesel::sql_types::BigInt>(
            "CAST(COALESCE(SUM(profiles), 0) AS BIGINT)",
        ))
        .get_result(conn)?;
    Ok(sum)
}

fn text<T: ToString>(value: &Option<T>) -> Option<String> {
    value.as_ref().map(ToString::to_string)
}

/// The stored text of each submitted field, as `SubmittedChanges` and `ProfileRow` keep it.
fn submitted_texts(s: Option<&SubmittedFormFields>) -> [Option<String>; 5] {
    let Some(s) = s else {
        return Default::default();
    };
    [
        s.email_address.as_ref().map(|e| e.as_str().to_owned()),
        s.mobile_number.as_ref().map(|m| m.as_str().to_owned()),
        s.address.clone(),
        s.date_of_birth.map(|d| d.to_string()),
        s.ssn.as_ref().map(|s| s.as_str().to_owned()),
    ]
}

/// The client's submitted fields as they go to the database: sealed, and only those
/// sent. Each column is written on its own, so posts of different fields never undo
/// each other.
#[derive(AsChangeset)]
#[diesel(table_name = profiles)]
pub(crate) struct SubmittedChanges {
    submitted_email_address: Option<String>,
    submitted_mobile_number: Option<String>,
    submitted_address: Option<String>,
    submitted_date_of_birth: Option<String>,
    submitted_ssn: Option<String>,
    submitted_updated_at: i64,
}

impl SubmittedChanges {
    pub(crate) fn seal(
        profile: &ProfileId,
        sent: &SubmittedFormFields,
        vault: &Vault,
    ) -> Result<Self, Failure> {
        let [email, mobile, address, dob, ssn] = submitted_texts(Some(sent));
        let mut changes = Self {
            submitted_email_address: email,
            submitted_mobile_number: mobile,
            submitted_address: address,
            submitted_date_of_birth: dob,
            submitted_ssn: ssn,
            submitted_updated_at: to_db(sent.updated_at),
        };
        vault
            .seal_columns(
                profile.as_str(),
                [
                    (SUBMITTED_EMAIL, &mut changes.submitted_email_address),
                    (SUBMITTED_MOBILE, &mut changes.submitted_mobile_number),
                    (SUBMITTED_ADDRESS, &mut changes.submitted_address),
                    (SUBMITTED_DOB, &mut changes.submitted_date_of_birth),
                    (SUBMITTED_SSN, &mut changes.submitted_ssn),
                ],
            )
            .map_err(StoreError::from)?;
        Ok(changes)
    }
}

/// Stores the fields of `changes` that were sent (an absent one is left as it is), and
/// when the client first submitted anything.
pub(crate) fn merge_submitted(
    conn: &mut AnyConnection,
    profile: &ProfileId,
    changes: &SubmittedChanges,
    created_at: i64,
) -> Result<(), Failure> {
    let changed = diesel::update(profiles::table.find(&profile.as_str()))
        .set(changes)
        .execute(conn)?;
    if changed == 0 {
        return Err(Failure::Store(StoreError::Missing));
    }
    diesel::update(
        profiles::table
            .find(&profile.as_str())
            .filter(profiles::submitted_created_at.is_null()),
    )
    .set(profiles::submitted_created_at.eq(created_at))
    .execute(conn)?;
    Ok(())
}

// The sealed columns of a profile (docs/SECURITY.md): personal values beyond the lookup
// keys (e-mail, mobile) and the names.
pub(crate) const DATE_OF_BIRTH: Column = Column("profiles.date_of_birth");
pub(crate) const DRIVER_LICENCE_ID: Column = Column("profiles.driver_licence_id");
pub(crate) const SSN: Column = Column("profiles.ssn");
pub(crate) const SUBMITTED_EMAIL: Column = Column("profiles.submitted_email_address");
pub(crate) const SUBMITTED_MOBILE: Column = Column("profiles.submitted_mobile_number");
pub(crate) const SUBMITTED_ADDRESS: Column = Column("profiles.submitted_address");
pub(crate) const SUBMITTED_DOB: Column = Column("profiles.submitted_date_of_birth");
pub(crate) const SUBMITTED_SSN: Column = Column("profiles.submitted_ssn");

/// Parses a stored required column back into its value object.
fn required<T>(name: &str, parsed: Result<T, Invalid>) -> StoreResult<T> {
    parsed.map_err(|e| corrupt(name, e))
}

/// Parses a stored optional column back into its value object.
fn column<T>(
    name: &str,
    value: Option<String>,
    parse: impl Fn(&str) -> Result<T, Invalid>,
) -> StoreResult<Option<T>> {
    value
        .map(|v| parse(&v).map_err(|e| corrupt(name, e)))
        .transpose()
}

impl ProfileRow {
    fn sealed_columns(&mut self) -> [(Column, &mut Option<String>); 8] {
        [
            (DATE_OF_BIRTH, &mut self.date_of_birth),
            (DRIVER_LICENCE_ID, &mut self.driver_licence_id),
            (SSN, &mut self.ssn),
            (SUBMITTED_EMAIL, &mut self.submitted_email_address),
            (SUBMITTED_MOBILE, &mut self.submitted_mobile_number),
            (SUBMITTED_ADDRESS, &mut self.submitted_address),
            (SUBMITTED_DOB, &mut self.submitted_date_of_birth),
            (SUBMITTED_SSN, &mut self.submitted_ssn),
        ]
    }

    /// The row as stored: its personal columns sealed.
    pub(crate) fn seal(p: &Profile, vault: &Vault) -> StoreResult<Self> {
        let mut row = Self::from_domain(p);
        let id = row.id.clone();
        vault.seal_columns(&id, row.sealed_columns())?;
        Ok(row)
    }

    /// Seals the values of this row that are still in clear (rows stored before sealing).
    pub(crate) fn seal_in_place(&mut self, vault: &Vault) -> StoreResult<()> {
        let id = self.id.clone();
        vault.seal_columns(&id, self.sealed_columns())?;
        Ok(())
    }

    /// The profile a stored row holds, its sealed columns opened.
    pub(crate) fn open(mut self, vault: &Vault) -> StoreResult<Profile> {
        let id = self.id.clone();
        vault.open_columns(&id, self.sealed_columns())?;
        self.into_domain()
    }

    fn from_domain(p: &Profile) -> Self {
        let a = &p.attributes;
        let [email, mobile, address, dob, ssn] = submitted_texts(p.submitted.as_ref());
        let as_text = |t: &Option<LongText>| t.as_ref().map(|t| t.as_str().to_owned());
        let short = |t: &Option<ShortText>| t.as_ref().map(|t| t.as_str().to_owned());
        Self {
            id: p.id.as_str().to_owned(),
            merchant_id: p.merchant_id.as_str().to_owned(),
            email_address: p.key.email.as_str().to_owned(),
            email_key: p.key.email.key(),
            mobile_number: p.key.mobile.as_str().to_owned(),
            first_name: p.first_name.as_str().to_owned(),
            last_name: p.last_name.as_str().to_owned(),
            merchant_reference: as_text(&a.merchant_reference),
            customer_id: as_text(&a.customer_id),
            middle_name: short(&a.middle_name),
            date_of_birth: text(&a.date_of_birth),
            home_phone_number: a.home_phone_number.as_ref().map(|p| p.as_str().to_owned()),
            ip_address: text(&a.ip_address),
            address_line_1: as_text(&a.address_line_1),
            address_line_2: as_text(&a.address_line_2),
            city: short(&a.city),
            state: a.state.as_ref().map(|s| s.as_str().to_owned()),
            postal: a.postal.as_ref().map(|s| s.as_str().to_owned()),
            country: a.country.as_ref().map(|s| s.as_str().to_owned()),
            driver_licence_id: as_text(&a.driver_licence_id),
            ssn: a.ssn.as_ref().map(|s| s.as_str().to_owned()),
            amount_cents: a.amount.map(|a| a.cents()),
            status: p.status.as_str().to_owned(),
            created_at: to_db(p.created_at),
            updated_at: to_db(p.updated_at),
            revision: p.revision,
            submitted_email_address: email,
            submitted_mobile_number: mobile,
            submitted_address: address,
            submitted_date_of_birth: dob,
            submitted_ssn: ssn,
            submitted_created_at: p.submitted.as_ref().map(|s| to_db(s.created_at)),
            submitted_updated_at: p.submitted.as_ref().map(|s| to_db(s.updated_at)),
            status_changed_at: to_db(p.status_changed_at),
            erased_at: p.erased_at.map(to_db),
        }
    }

    fn into_domain(self) -> StoreResult<Profile> {
        let attributes = Attributes {
            merchant_reference: column(
                "merchant_reference",
                self.merchant_reference,
                LongText::parse,
            )?,
            customer_id: column("customer_id", self.customer_id, LongText::parse)?,
            middle_name: column("middle_name", self.middle_name, ShortText::parse)?,
            date_of_birth: column("date_of_birth", self.date_of_birth, DateOfBirth::parse)?,
            home_phone_number: column(
                "home_phone_number",
                self.home_phone_number,
                PhoneNumber::parse,
            )?,
            ip_address: column("ip_address", self.ip_address, IpAddress::parse)?,
            address_line_1: column("address_line_1", self.address_line_1, LongText::parse)?,
            address_line_2: column("address_line_2", self.address_line_2, LongText::parse)?,
            city: column("city", self.city, ShortText::parse)?,
            state: column("state", self.state, State::parse)?,
            postal: column("postal", self.postal, Postal::parse)?,
            country: column("country", self.country, Country::parse)?,
            driver_licence_id: column(
                "driver_licence_id",
                self.driver_licence_id,
                LongText::parse,
            )?,
            ssn: column("ssn", self.ssn, Ssn::parse)?,
            amount: self.amount_cents.map(Amount::from_cents),
        };
        Ok(Profile {
            id: ProfileId::new(self.id),
            merchant_id: MerchantId::new(self.merchant_id),
            key: ProfileKey {
                email: Email::from_stored(self.email_address),
                mobile: required("mobile_number", PhoneNumber::parse(&self.mobile_number))?,
            },
            first_name: required("first_name", ShortText::parse(&self.first_name))?,
            last_name: required("last_name", ShortText::parse(&self.last_name))?,
            attributes,
            status: required("status", self.status.parse())?,
            submitted: match (self.submitted_created_at, self.submitted_updated_at) {
                (Some(created), Some(updated)) => Some(SubmittedFormFields {
                    email_address: self.submitted_email_address.map(Email::from_stored),
                    mobile_number: column(
                        "submitted_mobile_number",
                        self.submitted_mobile_number,
                        PhoneNumber::parse,
                    )?,
                    address: self.submitted_address,
                    date_of_birth: column(
                        "submitted_date_of_birth",
                        self.submitted_date_of_birth,
                        DateOfBirth::parse,
                    )?,
                    ssn: column("submitted_ssn", self.submitted_ssn, Ssn::parse)?,
                    created_at: from_db("profiles.submitted_created_at", created)?,
                    updated_at: from_db("profiles.submitted_updated_at", updated)?,
                }),
                _ => None,
            },
            created_at: from_db("profiles.created_at", self.created_at)?,
            updated_at: from_db("profiles.updated_at", self.updated_at)?,
            revision: self.revision,
            status_changed_at: from_db("profiles.status_changed_at", self.status_changed_at)?,
            erased_at: self
                .erased_at
                .map(|at| from_db("profiles.erased_at", at))
                .transpose()?,
        })
    }
}

pub(crate) fn insert_profile(conn: &mut AnyConnection, row: &ProfileRow) -> Result<(), Failure> {
    // Every create runs it: on the concrete connection, its statement is prepared once.
    on_concrete!(conn, |c| diesel::insert_into(profiles::table)
        .values(row)
        .execute(c))?;
    Ok(())
}

/// Writes the row if the stored revision is the one it was read at (`Conflict` if not).
pub(crate) fn update_profile(conn: &mut AnyConnection, row: &ProfileRow) -> Result<(), Failure> {
    let changed = diesel::update(
        profiles::table
            .find(&row.id)
            .filter(profiles::revision.eq(row.revision - 1)),
    )
    .set(row)
    .execute(conn)?;
    if changed == 0 {
        let exists: i64 = profiles::table.find(&row.id).count().get_result(conn)?;
        let reason = if exists == 0 {
            StoreError::Missing
        } else {
            StoreError::Conflict
        };
        return Err(Failure::Store(reason));
    }
    Ok(())
}

#[async_trait]
impl ProfileRepository for Database {
    async fn insert(&self, profile: &Profile, entry: &Entry) -> StoreResult<()> {
        let row = ProfileRow::seal(profile, &self.vault)?;
        let event = self.sealed(entry)?;
        self.write(move |conn| {
            insert_profile(conn, &row)?;
            persist(conn, &event)
        })
        .await
    }

    async fn update(&self, profile: &Profile, entry: &Entry) -> StoreResult<()> {
        let row = ProfileRow::seal(profile, &self.vault)?;
        let event = self.sealed(entry)?;
        self.write(move |conn| {
            update_profile(conn, &row)?;
            persist(conn, &event)
        })
        .await
    }

    async fn find_by_id(
        &self,
        merchant: &MerchantId,
        id: &ProfileId,
    ) -> StoreResult<Option<Profile>> {
        let (merchant, id) = (merchant.as_str().to_owned(), id.as_str().to_owned());
        let row = self
            .read(move |conn| {
                Ok(profiles::table
                    .find(id)
                    .filter(profiles::merchant_id.eq(merchant))
                    .select(ProfileRow::as_select())
                    .get_result(conn)
                    .optional()?)
            })
            .await?;
        row.map(|r| r.open(&self.vault)).transpose()
    }

    async fn find(&self, merchant: &MerchantId, key: &ProfileKey) -> StoreResult<Option<Profile>> {
        let (merchant, email, mobile) = (
            merchant.as_str().to_owned(),
            key.email.key(),
            key.mobile.as_str().to_owned(),
        );
        let row = self
            .read_point(move |conn| {
                // The hottest read of the API: on the concrete connection, and with
                // `get_result`, not `first` (a bound `LIMIT ?` makes SQLite prepare the
                // statement again on every run; the pair is unique: one row at most).
                Ok(on_concrete!(conn, |c| profiles::table
                    .filter(profiles::merchant_id.eq(merchant))
                    .filter(profiles::email_key.eq(email))
                    .filter(profiles::mobile_number.eq(mobile))
                    .select(ProfileRow::as_select())
                    .get_result(c)
                    .optional())?)
            })
            .await?;
        row.map(|r| r.open(&self.vault)).transpose()
    }

    async fn list(&self, merchant: &MerchantId, page: Page) -> StoreResult<Paged<Profile>> {
        let merchant = merchant.as_str().to_owned();
        let rows = self
            .read(move |conn| {
                let total = profile_count(conn, &merchant)?;
                let mine = profiles::table.filter(profiles::merchant_id.eq(merchant));
                let rows = page_of!(conn, mine, profiles::id, page, total, ProfileRow);
                Ok((rows, total))
            })
            .await?;
        paged(rows, |r| r.open(&self.vault))
    }

    async fn search(
        &self,
        merchant: &MerchantId,
        filter: &ProfileFilter,
        page: Page,
    ) -> StoreResult<Paged<Profile>> {
        let merchant = merchant.as_str().to_owned();
        let needle = filter.needle();
        // `%` and `_` typed by the reviewer are looked for as themselves.
        let pattern = needle
            .as_deref()
            .map(|needle| format!("%{}%", escape_like(needle)));
        let phrase = needle.as_deref().and_then(trigram_phrase);
        let status = filter.status.map(|s| s.as_str().to_owned());
        let (rows, total, filtered) = self
            .read(move |conn| {
                let total = profile_count(conn, &merchant)?;
                let on_sqlite = matches!(conn, AnyConnection::Sqlite(_));
                let needle = needle.as_deref().unwrap_or_default();
                // Boxed queries cannot be cloned: the same query is built for the count
                // and for the page.
                let selected = || {
                    let mut query = profiles::table
                        .filter(profiles::merchant_id.eq(merchant.clone()))
                        .into_boxed();
                    if let Some(pattern) = &pattern {
                        // Written as PostgreSQL's trigram index on it is (migration
                        // 000019): a bound ' ' would keep the planner from matching it.
                        let name = diesel::dsl::sql::<diesel::sql_types::Text>(
                            "lower(profiles.first_name || ' ' || profiles.last_name)",
                        );
                        query = query.filter(
                            name.like(pattern.clone())
                                .escape('\\')
                                .or(email_holds(pattern.clone(), needle, !on_sqlite))
                                .or(mobile_holds(pattern.clone(), needle)),
                        );
                    }
                    // SQLite's trigram index names the candidates; the LIKE above decides.
                    if let Some(phrase) = phrase.as_ref().filter(|_| on_sqlite) {
                        query = among_candidates(query, phrase.clone());
                    }
                    if let Some(status) = &status {
                        query = query.filter(profiles::status.eq(status.clone()));
                    }
                    query
                };
                let filtered = match (&pattern, &status) {
                    (None, None) => total,
                    _ => selected().count().get_result(conn)?,
                };
                let rows = page_of!(conn, selected(), profiles::id, page, filtered, ProfileRow);
                Ok((rows, total, filtered))
            })
            .await?;
        let mut found = paged((rows, filtered), |r| r.open(&self.vault))?;
        found.total_count = total;
        Ok(found)
    }

    async fn delete(&self, profile: &Profile, tombstone: &Entry) -> StoreResult<Vec<FileId>> {
        let id = profile.id.as_str().to_owned();
        let tombstone = self.sealed(tombstone)?;
        let file_ids = self
            .write(move |conn| {
                let file_ids = file_ids_of_profile(conn, &id)?;
                forget_files_of_profile(conn, &id)?;
                crate::repositories::verifications::forget_profile(conn, &id)?;
                crate::repositories::webhooks::forget_deliveries_of_profile(conn, &id)?;
                // Foreign keys cascade too; deleting explicitly keeps the order obvious and
                // does not depend on SQLite's foreign_keys pragma.
                diesel::delete(events::table.filter(events::profile_id.eq(&id))).execute(conn)?;
                diesel::delete(notes::table.filter(notes::profile_id.eq(&id))).execute(conn)?;
                diesel::delete(documents::table.filter(documents::profile_id.eq(&id)))
                    .execute(conn)?;
                diesel::delete(quizzes::table.filter(quizzes::profile_id.eq(&id))).execute(conn)?;
                let deleted = diesel::delete(profiles::table.find(&id)).execute(conn)?;
                if deleted == 0 {
                    return Err(Failure::Store(StoreError::Missing));
                }
                persist(conn, &tombstone)?;
                Ok(file_ids)
            })
            .await?;
        // Nothing of the deleted profile's clear fields stays in the write-ahead log.
        self.checkpoint_after_erasure().await;
        Ok(file_ids)
    }

    async fn events(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Event>> {
        let profile = profile.as_str().to_owned();
        let rows = self
            .read(move |conn| {
                Ok(newest_first!(
                    conn,
                    events::table.filter(events::profile_id.eq(profile)),
                    events::id,
                    page,
                    EventRow
                ))
            })
            .await?;
        paged(rows, |r| r.open(&self.vault))
    }

    async fn due_for_erasure(
        &self,
        merchant: &MerchantId,
        retention: RetentionDays,
        now: OffsetDateTime,
        limit: usize,
    ) -> StoreResult<Vec<Profile>> {
        // `Profile::due_for_erasure`, as a query (served by `profiles_by_decision`).
        let merchant = merchant.as_str().to_owned();
        let decided_by = to_db(now - retention.duration());
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self
            .read(move |conn| {
                Ok(profiles::table
                    .filter(profiles::merchant_id.eq(merchant))
                    .filter(profiles::status.eq_any([
                        ProfileStatus::Approved.as_str(),
                        ProfileStatus::Declined.as_str(),
                    ]))
                    .filter(profiles::status_changed_at.le(decided_by))
                    .filter(
                        profiles::erased_at
                            .is_null()
                            .or(profiles::erased_at.lt(profiles::status_changed_at.nullable())),
                    )
                    .order((profiles::status_changed_at.asc(), profiles::id.asc()))
                    .limit(limit)
                    .select(ProfileRow::as_select())
                    .load::<ProfileRow>(conn)?)
            })
            .await?;
        rows.into_iter().map(|r| r.open(&self.vault)).collect()
    }

    async fn erase_personal_data(
        &self,
        profile: &Profile,
        entry: &Entry,
    ) -> StoreResult<Vec<FileId>> {
        let row = ProfileRow::seal(profile, &self.vault)?;
        let event = self.sealed(entry)?;
        let vault = self.vault.clone();
        let file_ids = self
            .write(move |conn| {
                update_profile(conn, &row)?;
                // What the client typed is written apart from the merchant's updates.
                diesel::update(profiles::table.find(&row.id))
                    .set((
                        profiles::submitted_email_address.eq(None::<String>),
                        profiles::submitted_mobile_number.eq(None::<String>),
                        profiles::submitted_address.eq(None::<String>),
                        profiles::submitted_date_of_birth.eq(None::<String>),
                        profiles::submitted_ssn.eq(None::<String>),
                        profiles::submitted_created_at.eq(None::<i64>),
                        profiles::submitted_updated_at.eq(None::<i64>),
                    ))
                    .execute(conn)?;
                let file_ids = erase_documents_of_profile(conn, &vault, &row.id)?;
                crate::repositories::verifications::forget_identities(conn, &row.id)?;
                crate::repositories::screening::forget(conn, &row.id)?;
                crate::repositories::signals::forget(conn, &row.id)?;
                persist(conn, &event)?;
                Ok(file_ids)
            })
            .await?;
        // The values erased leave no trace in SQLite's write-ahead log either.
        self.checkpoint_after_erasure().await;
        Ok(file_ids)
    }
}
