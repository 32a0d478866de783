//! `QuizRepository`: quizzes, written with their client's profile and events.

use async_trait::async_trait;
use diesel::prelude::*;
use domain::document::Document;
use domain::ids::{FileId, QuizId, TemplateId};
use domain::merchant::{MerchantId, QuizExpiryDays};
use domain::outbox::Entry;
use domain::paging::{Page, Paged};
use domain::ports::{ProfileWrite, QuizRepository, StoreError, StoreResult};
use domain::profile::{ProfileId, SubmittedFormFields};
use domain::quiz::{
    Quiz, QuizLink, QuizUsage, QuizWithClient, RedirectUrl, TemplateSnapshot, UploadLimits,
};
use domain::template::{Feature, FeatureSet};
use domain::verification::Verification;

use crate::Database;
use crate::connection::AnyConnection;
use crate::failure::{Failure, corrupt};
use crate::outbox::persist;
use crate::repositories::documents::{DocumentRow, insert_document, remove_replaced};
use crate::repositories::encoding::{list_from_text, list_to_text, set_from_text, set_to_text};
use crate::repositories::paging::{newest_first, paged};
use crate::repositories::profiles::{
    ProfileRow, SubmittedChanges, insert_profile, merge_submitted, update_profile,
};
use crate::repositories::verifications::VerificationRow;
use crate::schema::{profiles, quizzes};
use crate::sealing::vault::{Column, Vault};
use crate::timestamps::{from_db, to_db};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = quizzes)]
struct QuizRow {
    id: String,
    merchant_id: String,
    profile_id: String,
    token_hash: String,
    code_hash: String,
    template_id: Option<String>,
    template_name: String,
    template_list: String,
    template_created_at: i64,
    expiry_days: i32,
    created_at: i64,
    expires_at: i64,
    expired_at: Option<i64>,
    submitted_at: Option<i64>,
    deleted_at: Option<i64>,
    opened_at: Option<i64>,
    completed_steps: String,
    sealed_token: Option<String>,
    sealed_code: Option<String>,
    redirect_url: Option<String>,
}

/// Where a quiz's link secrets live: their keyed hashes are looked up, their sealed copies
/// give the addresses back.
pub(crate) const TOKEN: Column = Column("quizzes.token");
pub(crate) const CODE: Column = Column("quizzes.code");

/// A presented link as lookups compare it: the keyed hashes of its token or of its code,
/// under each key held (during a rotation a quiz not re-hashed yet has the old key's).
enum LinkHash {
    Token(Vec<String>),
    Code(Vec<String>),
}

impl LinkHash {
    fn of(vault: &Vault, link: &QuizLink) -> Self {
        match link {
            QuizLink::Token(token) => Self::Token(vault.link_hashes(TOKEN, token.as_str())),
            QuizLink::Code(code) => Self::Code(vault.link_hashes(CODE, code.as_str())),
        }
    }
}

fn optional_time(column: &str, value: Option<i64>) -> StoreResult<Option<time::OffsetDateTime>> {
    value.map(|v| from_db(column, v)).transpose()
}

impl QuizRow {
    /// The row of `q`, its token and code hashed and sealed.
    fn seal(q: &Quiz, vault: &Vault) -> StoreResult<Self> {
        let id = q.id.to_string();
        let (token, code) = (q.token.as_str(), q.code.as_str());
        Ok(Self {
            token_hash: vault.link_hash(TOKEN, token),
            code_hash: vault.link_hash(CODE, code),
            sealed_token: Some(vault.seal_field(TOKEN, &id, token)?),
            sealed_code: Some(vault.seal_field(CODE, &id, code)?),
            id,
            merchant_id: q.merchant_id.as_str().to_owned(),
            profile_id: q.profile_id.as_str().to_owned(),
            template_id: q.template.template_id.as_ref().map(ToString::to_string),
            template_name: q.template.name.clone(),
            template_list: list_to_text(&q.template.list),
            template_created_at: to_db(q.template.created_at),
            expiry_days: i32::from(q.expiry_days.days()),
            created_at: to_db(q.created_at),
            expires_at: to_db(q.expires_at),
            expired_at: q.expired_at.map(to_db),
            submitted_at: q.submitted_at.map(to_db),
            deleted_at: q.deleted_at.map(to_db),
            opened_at: q.opened_at.map(to_db),
            completed_steps: set_to_text(&q.completed),
            redirect_url: q.redirect_url.as_ref().map(|u| u.as_str().to_owned()),
        })
    }

    fn open(self, vault: &Vault) -> StoreResult<Quiz> {
        let open = |column: Column, sealed: &Option<String>| -> StoreResult<String> {
            let sealed = sealed
                .as_deref()
                .ok_or_else(|| corrupt(column.0, "not sealed yet: run idv migrate"))?;
            Ok(vault.open_field(column, &self.id, sealed)?)
        };
        let (token, code) = (
            open(TOKEN, &self.sealed_token)?,
            open(CODE, &self.sealed_code)?,
        );
        let list =
            list_from_text(&self.template_list).map_err(|e| corrupt("quizzes.template_list", e))?;
        let days = QuizExpiryDays::new(i64::from(self.expiry_days))
            .map_err(|e| corrupt("quizzes.expiry_days", e))?;
        Ok(Quiz {
            id: self.id.into(),
            merchant_id: MerchantId::new(self.merchant_id),
            profile_id: ProfileId::new(self.profile_id),
            token: token.into(),
            code: code.into(),
            template: TemplateSnapshot {
                template_id: self.template_id.map(TemplateId::from),
                name: self.template_name,
                list,
                created_at: from_db("quizzes.template_created_at", self.template_created_at)?,
            },
            expiry_days: days,
            created_at: from_db("quizzes.created_at", self.created_at)?,
            expires_at: from_db("quizzes.expires_at", self.expires_at)?,
            expired_at: optional_time("quizzes.expired_at", self.expired_at)?,
            submitted_at: optional_time("quizzes.submitted_at", self.submitted_at)?,
            deleted_at: optional_time("quizzes.deleted_at", self.deleted_at)?,
            opened_at: optional_time("quizzes.opened_at", self.opened_at)?,
            completed: set_from_text(&self.completed_steps)
                .map_err(|e| corrupt("quizzes.completed_steps", e))?,
            redirect_url: self.redirect_url.map(RedirectUrl::stored),
        })
    }
}

fn with_client(
    vault: &Vault,
    (quiz, client): (QuizRow, ProfileRow),
) -> StoreResult<QuizWithClient> {
    Ok(QuizWithClient {
        quiz: quiz.open(vault)?,
        client: client.open(vault)?,
    })
}

/// How many documents a quiz's link has added, and their files' bytes.
fn usage_of(conn: &mut AnyConnection, quiz_id: &str) -> Result<QuizUsage, Failure> {
    let (documents, bytes): (i64, i64) = quizzes::table
        .find(quiz_id)
        .select((quizzes::documents_added, quizzes::bytes_added))
        .get_result(conn)?;
    Ok(QuizUsage {
        documents: u64::try_from(documents).unwrap_or_default(),
        bytes: u64::try_from(bytes).unwrap_or_default(),
    })
}

/// Counts a document of `bytes` as added by the quiz's link.
fn count_added(conn: &mut AnyConnection, quiz_id: &str, bytes: u64) -> Result<(), Failure> {
    let bytes = i64::try_from(bytes).unwrap_or(i64::MAX);
    diesel::update(quizzes::table.find(quiz_id))
        .set((
            quizzes::documents_added.eq(quizzes::documents_added + 1),
            quizzes::bytes_added.eq(quizzes::bytes_added + bytes),
        ))
        .execute(conn)?;
    Ok(())
}

#[async_trait]
impl QuizRepository for Database {
    async fn create(
        &self,
        profile: &ProfileWrite,
        quiz: &Quiz,
        entries: &[Entry],
    ) -> StoreResult<()> {
        let (profile_row, is_new) = match profile {
            ProfileWrite::Insert(p) => (ProfileRow::seal(p, &self.vault)?, true),
            ProfileWrite::Update(p) => (ProfileRow::seal(p, &self.vault)?, false),
        };
        let quiz_row = QuizRow::seal(quiz, &self.vault)?;
        let entries = entries
            .iter()
            .map(|e| self.sealed(e))
            .collect::<StoreResult<Vec<_>>>()?;
        self.write(move |conn| {
            if is_new {
                insert_profile(conn, &profile_row)?;
            } else {
                update_profile(conn, &profile_row)?;
            }
            diesel::insert_into(quizzes::table)
                .values(&quiz_row)
                .execute(conn)?;
            entries.iter().try_for_each(|e| persist(conn, e))
        })
        .await
    }

    async fn find(
        &self,
        merchant: &MerchantId,
        link: &QuizLink,
    ) -> StoreResult<Option<QuizWithClient>> {
        let merchant = merchant.as_str().to_owned();
        let hash = LinkHash::of(&self.vault, link);
        let row = self
            .read(move |conn| {
                let mine = quizzes::table
                    .inner_join(profiles::table)
                    .filter(quizzes::merchant_id.eq(merchant))
                    .filter(quizzes::deleted_at.is_null())
                    .select((QuizRow::as_select(), ProfileRow::as_select()));
                let found = match hash {
                    LinkHash::Token(hash) => mine
                        .filter(quizzes::token_hash.eq_any(hash))
                        .get_result(conn),
                    LinkHash::Code(hash) => mine
                        .filter(quizzes::code_hash.eq_any(hash))
                        .get_result(conn),
                };
                Ok(found.optional()?)
            })
            .await?;
        row.map(|r| with_client(&self.vault, r)).transpose()
    }

    async fn find_by_id(
        &self,
        merchant: &MerchantId,
        id: &QuizId,
    ) -> StoreResult<Option<QuizWithClient>> {
        let (merchant, id) = (merchant.as_str().to_owned(), id.to_string());
        let row = self
            .read(move |conn| {
                Ok(quizzes::table
                    .inner_join(profiles::table)
                    .filter(quizzes::id.eq(id))
                    .filter(quizzes::merchant_id.eq(merchant))
                    .filter(quizzes::deleted_at.is_null())
                    .select((QuizRow::as_select(), ProfileRow::as_select()))
                    .get_result(conn)
                    .optional()?)
            })
            .await?;
        row.map(|r| with_client(&self.vault, r)).transpose()
    }

    async fn list(&self, merchant: &MerchantId, page: Page) -> StoreResult<Paged<QuizWithClient>> {
        let merchant = merchant.as_str().to_owned();
        let rows = self
            .read(move |conn| {
                let mine = quizzes::table
                    .inner_join(profiles::table)
                    .filter(quizzes::merchant_id.eq(merchant))
                    .filter(quizzes::deleted_at.is_null());
                Ok(newest_first!(
                    conn,
                    mine,
                    quizzes::id,
                    page,
                    (QuizRow, ProfileRow)
                ))
            })
            .await?;
        paged(rows, |r| with_client(&self.vault, r))
    }

    async fn list_of_profile(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Quiz>> {
        let profile = profile.as_str().to_owned();
        let rows = self
            .read(move |conn| {
                let theirs = quizzes::table
                    .filter(quizzes::profile_id.eq(profile))
                    .filter(quizzes::deleted_at.is_null());
                Ok(newest_first!(conn, theirs, quizzes::id, page, QuizRow))
            })
            .await?;
        paged(rows, |r| r.open(&self.vault))
    }

    async fn mark_expired(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()> {
        let (id, at) = (quiz.id.to_string(), quiz.expired_at.map(to_db));
        let event = self.sealed(entry)?;
        self.write(move |conn| {
            let unended = quizzes::table
                .find(&id)
                .filter(quizzes::deleted_at.is_null())
                .filter(quizzes::expired_at.is_null());
            let changed = diesel::update(unended)
                .set(quizzes::expired_at.eq(at))
                .execute(conn)?;
            if changed == 0 {
                return Err(why_unchanged(conn, &id));
            }
            persist(conn, &event)
        })
        .await
    }

    async fn mark_extended(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()> {
        let id = quiz.id.to_string();
        let (days, until) = (i32::from(quiz.expiry_days.days()), to_db(quiz.expires_at));
        let event = self.sealed(entry)?;
        self.write(move |conn| {
            let open = quizzes::table
                .find(&id)
                .filter(quizzes::deleted_at.is_null())
                .filter(quizzes::submitted_at.is_null());
            let changed = diesel::update(open)
                .set((
                    quizzes::expiry_days.eq(days),
                    quizzes::expires_at.eq(until),
                    quizzes::expired_at.eq(None::<i64>),
                ))
                .execute(conn)?;
            if changed == 0 {
                return Err(why_unchanged(conn, &id));
            }
            persist(conn, &event)
        })
        .await
    }

    async fn find_live(&self, link: &QuizLink) -> StoreResult<Option<QuizWithClient>> {
        let hash = LinkHash::of(&self.vault, link);
        let row = self
            .read(move |conn| {
                let live = quizzes::table
                    .inner_join(profiles::table)
                    .filter(quizzes::deleted_at.is_null())
                    .select((QuizRow::as_select(), ProfileRow::as_select()));
                let found = match hash {
                    LinkHash::Token(hash) => live
                        .filter(quizzes::token_hash.eq_any(hash))
                        .get_result(conn),
                    LinkHash::Code(hash) => live
                        .filter(quizzes::code_hash.eq_any(hash))
                        .get_result(conn),
                };
                Ok(found.optional()?)
            })
            .await?;
        row.map(|r| with_client(&self.vault, r)).transpose()
    }

    async fn mark_opened(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()> {
        let (id, at) = (quiz.id.to_string(), quiz.opened_at.map(to_db));
        let event = self.sealed(entry)?;
        self.write(move |conn| {
            let changed = diesel::update(
                quizzes::table
                    .find(&id)
                    .filter(quizzes::opened_at.is_null()),
            )
            .set(quizzes::opened_at.eq(at))
            .execute(conn)?;
            if changed == 0 {
                return Err(Failure::Store(StoreError::Conflict));
            }
            persist(conn, &event)
        })
        .await
    }

    async fn save_fields(
        &self,
        quiz: &Quiz,
        profile: &ProfileId,
        sent: &SubmittedFormFields,
        entry: &Entry,
    ) -> StoreResult<()> {
        let (id, done) = (quiz.id.to_string(), quiz.completed);
        let changes = SubmittedChanges::seal(profile, sent, &self.vault)?;
        let (profile, created_at, event) =
            (profile.clone(), to_db(sent.created_at), self.sealed(entry)?);
        self.write(move |conn| {
            lock_unsubmitted(conn, &id)?;
            merge_submitted(conn, &profile, &changes, created_at)?;
            add_completed(conn, &id, done)?;
            persist(conn, &event)
        })
        .await
    }

    async fn usage(&self, quiz: &Quiz) -> StoreResult<QuizUsage> {
        let id = quiz.id.to_string();
        self.read(move |conn| usage_of(conn, &id)).await
    }

    async fn add_document(
        &self,
        quiz: &Quiz,
        document: &Document,
        entry: &Entry,
        limits: UploadLimits,
    ) -> StoreResult<Vec<FileId>> {
        let (id, done) = (quiz.id.to_string(), quiz.completed);
        let row = DocumentRow::seal(document, &self.vault)?;
        let (document, event, vault) = (document.clone(), self.sealed(entry)?, self.vault.clone());
        self.write(move |conn| {
            // The row lock also keeps two uploads at once from both passing the limits
            // on the same count, or both replacing the same earlier side.
            lock_unsubmitted(conn, &id)?;
            let replaced = remove_replaced(conn, &vault, &document)?;
            let bytes = document.files().iter().map(|f| f.size_bytes).sum();
            if !limits.admits(usage_of(conn, &id)?, bytes) {
                return Err(Failure::Store(StoreError::LimitReached));
            }
            insert_document(conn, &row, &document)?;
            count_added(conn, &id, bytes)?;
            add_completed(conn, &id, done)?;
            persist(conn, &event)?;
            Ok(replaced)
        })
        .await
    }

    async fn mark_submitted(
        &self,
        quiz: &Quiz,
        entry: &Entry,
        verification: &Verification,
    ) -> StoreResult<()> {
        let (id, at) = (quiz.id.to_string(), quiz.submitted_at.map(to_db));
        let event = self.sealed(entry)?;
        let job = VerificationRow::of(verification);
        self.write(move |conn| {
            let changed = diesel::update(
                quizzes::table
                    .find(&id)
                    .filter(quizzes::submitted_at.is_null()),
            )
            .set(quizzes::submitted_at.eq(at))
            .execute(conn)?;
            if changed == 0 {
                return Err(Failure::Store(StoreError::Conflict));
            }
            crate::repositories::verifications::queue(conn, &job)?;
            persist(conn, &event)
        })
        .await
    }

    async fn mark_deleted(&self, quiz: &Quiz, entry: &Entry) -> StoreResult<()> {
        let (id, at) = (quiz.id.to_string(), quiz.deleted_at.map(to_db));
        let event = self.sealed(entry)?;
        self.write(move |conn| {
            let changed = diesel::update(
                quizzes::table
                    .find(&id)
                    .filter(quizzes::deleted_at.is_null()),
            )
            .set(quizzes::deleted_at.eq(at))
            .execute(conn)?;
            if changed == 0 {
                return Err(Failure::Store(StoreError::Missing));
            }
            persist(conn, &event)
        })
        .await
    }
}

/// Why a conditional update of a quiz that is not deleted changed nothing: it is deleted
/// (`Missing`), or its state refused the change (`Conflict`).
fn why_unchanged(conn: &mut AnyConnection, quiz_id: &str) -> Failure {
    let live = quizzes::table
        .find(quiz_id)
        .filter(quizzes::deleted_at.is_null())
        .count()
        .get_result::<i64>(conn);
    match live {
        Ok(0) => Failure::Store(StoreError::Missing),
        Ok(_) => Failure::Store(StoreError::Conflict),
        Err(e) => e.into(),
    }
}

/// Takes the quiz row's lock for this write's transaction if the quiz is not submitted;
/// `Conflict` if it is. On PostgreSQL a `submit` committing meanwhile makes this update
/// wait and then find the row submitted, and a `submit` coming after waits for this
/// write's commit; SQLite has one writer anyway. So the quiz's state is decided in the
/// write's own transaction: nothing is written to a quiz after its submission.
fn lock_unsubmitted(conn: &mut AnyConnection, quiz_id: &str) -> Result<(), Failure> {
    let locked = diesel::update(
        quizzes::table
            .find(quiz_id)
            .filter(quizzes::submitted_at.is_null()),
    )
    .set(quizzes::id.eq(quiz_id))
    .execute(conn)?;
    if locked == 0 {
        return Err(Failure::Store(StoreError::Conflict));
    }
    Ok(())
}

/// Adds `done` to the quiz's stored completed steps. Compare-and-set in a loop: two steps
/// handed in at the same moment both end up recorded, on either backend.
fn add_completed(conn: &mut AnyConnection, quiz_id: &str, done: FeatureSet) -> Result<(), Failure> {
    loop {
        let stored: String = quizzes::table
            .find(quiz_id)
            .select(quizzes::completed_steps)
            .get_result(conn)?;
        let mut merged =
            set_from_text(&stored).map_err(|e| corrupt("quizzes.completed_steps", e))?;
        for feature in Feature::ALL.iter().copied().filter(|f| done.contains(*f)) {
            merged.insert(feature);
        }
        let changed = diesel::update(
            quizzes::table
                .find(quiz_id)
                .filter(quizzes::completed_steps.eq(&stored)),
        )
        .set(quizzes::completed_steps.eq(set_to_text(&merged)))
        .execute(conn)?;
        if changed == 1 {
            return Ok(());
        }
    }
}
