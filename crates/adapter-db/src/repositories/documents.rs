//! Documents and their evidence, stored as a JSON array in `documents.data`.

use async_trait::async_trait;
use diesel::prelude::*;
use domain::document::{Document, DocumentStatus, Evidence, FileType, Side, StoredFile};
use domain::ids::{DocumentId, FileId};
use domain::merchant::MerchantId;
use domain::outbox::Entry;
use domain::paging::{Page, Paged};
use domain::ports::{DocumentRepository, StoreError, StoreResult};
use domain::profile::ProfileId;
use domain::verification::{DocumentRead, ReadSource};
use serde::{Deserialize, Serialize};
use time::Date;

use domain::template::Feature;

use crate::Database;
use crate::connection::AnyConnection;
use crate::failure::{Failure, corrupt};
use crate::outbox::persist;
use crate::repositories::paging::{newest_first, paged};
use crate::schema::{document_files, documents};
use crate::sealing::vault::{Column, Vault};
use crate::timestamps::{from_db, to_db};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = documents)]
pub(crate) struct DocumentRow {
    pub(crate) id: String,
    merchant_id: String,
    profile_id: String,
    quiz_id: String,
    name: String,
    status: String,
    pub(crate) data: String,
    created_at: i64,
    updated_at: i64,
    pub(crate) size_bytes: i64,
}

/// The evidence is sealed: it holds what the client signed, their device's fingerprint,
/// their file names.
pub(crate) const DATA: Column = Column("documents.data");

/// A document's evidence as stored in `documents.data`: a JSON array of entries whose
/// shape depends on the step. Stored data depends on these names: never rename one.
#[derive(Debug, Serialize, Deserialize)]
#[serde(untagged)]
enum StoredEntry {
    File {
        file_id: String,
        file_name: String,
        content_type: String,
        size_bytes: u64,
        sha256: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<String>,
    },
    /// What a verification read (its `source` tells it from a file).
    Read(Box<StoredRead>),
    Agreement {
        signed_name: String,
        /// Unix seconds.
        signed_at: i64,
    },
    Fingerprint {
        fingerprint: String,
    },
}

/// The stored name of each file type, written out per variant.
fn type_text(file_type: FileType) -> &'static str {
    match file_type {
        FileType::Jpeg => "image/jpeg",
        FileType::Png => "image/png",
        FileType::Pdf => "application/pdf",
    }
}

fn type_from_text(text: &str) -> Option<FileType> {
    [FileType::Jpeg, FileType::Png, FileType::Pdf]
        .into_iter()
        .find(|t| type_text(*t) == text)
}

/// What was read from a document as stored, dates as `YYYY-MM-DD`.
#[derive(Debug, Default, Serialize, Deserialize)]
struct StoredRead {
    source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    document_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    issuer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    first_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    middle_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    date_of_birth: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    document_number: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    issued_on: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    expires_on: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sex: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    address_line_1: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    city: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    postal: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    country: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    marked_ages: Vec<(u8, String)>,
}

impl StoredRead {
    fn of(read: &DocumentRead) -> Self {
        Self {
            source: read
                .source
                .map(|s| s.as_str())
                .unwrap_or_default()
                .to_owned(),
            document_type: read.document_type.clone(),
            issuer: read.issuer.clone(),
            first_name: read.first_name.clone(),
            middle_name: read.middle_name.clone(),
            last_name: read.last_name.clone(),
            date_of_birth: read.date_of_birth.map(day_text),
            document_number: read.document_number.clone(),
            issued_on: read.issued_on.map(day_text),
            expires_on: read.expires_on.map(day_text),
            sex: read.sex.clone(),
            address_line_1: read.address_line_1.clone(),
            city: read.city.clone(),
            state: read.state.clone(),
            postal: read.postal.clone(),
            country: read.country.clone(),
            marked_ages: read
                .marked_ages
                .iter()
                .map(|(years, day)| (*years, day_text(*day)))
                .collect(),
        }
    }

    fn into_domain(self) -> StoreResult<DocumentRead> {
        let day = |text: Option<String>| text.as_deref().map(parse_day).transpose();
        let marked_ages = self
            .marked_ages
            .iter()
            .map(|(years, day)| Ok((*years, parse_day(day)?)))
            .collect::<StoreResult<_>>()?;
        Ok(DocumentRead {
            source: ReadSource::parse(&self.source),
            document_type: self.document_type,
            issuer: self.issuer,
            first_name: self.first_name,
            middle_name: self.middle_name,
            last_name: self.last_name,
            date_of_birth: day(self.date_of_birth)?,
            document_number: self.document_number,
            issued_on: day(self.issued_on)?,
            expires_on: day(self.expires_on)?,
            sex: self.sex,
            address_line_1: self.address_line_1,
            city: self.city,
            state: self.state,
            postal: self.postal,
            country: self.country,
            marked_ages,
        })
    }
}

const DAY: &[time::format_description::FormatItem<'_>] =
    time::macros::format_description!("[year]-[month]-[day]");

fn day_text(day: Date) -> String {
    day.format(DAY).unwrap_or_default()
}

fn parse_day(text: &str) -> StoreResult<Date> {
    Date::parse(text, DAY).map_err(|e| corrupt("documents.data.read", e))
}

fn data_text(evidence: &Evidence, read: &[DocumentRead]) -> String {
    let mut entries: Vec<StoredEntry> = match evidence {
        Evidence::Files(files) => files
            .iter()
            .map(|f| StoredEntry::File {
                file_id: f.file_id.to_string(),
                file_name: f.file_name.clone(),
                content_type: type_text(f.file_type).to_owned(),
                size_bytes: f.size_bytes,
                sha256: f.sha256.clone(),
                side: f.side.map(|s| s.as_str().to_owned()),
            })
            .collect(),
        Evidence::Agreement {
            signed_name,
            signed_at,
        } => vec![StoredEntry::Agreement {
            signed_name: signed_name.clone(),
            signed_at: to_db(*signed_at),
        }],
        Evidence::Fingerprint { fingerprint } => vec![StoredEntry::Fingerprint {
            fingerprint: fingerprint.clone(),
        }],
    };
    entries.extend(
        read.iter()
            .map(|r| StoredEntry::Read(Box::new(StoredRead::of(r)))),
    );
    serde_json::to_string(&entries).unwrap_or_default()
}

/// The evidence and what was read, from `documents.data`.
fn parse_data(data: &str) -> StoreResult<(Evidence, Vec<DocumentRead>)> {
    let bad = |what: &str| corrupt("documents.data", what);
    let entries: Vec<StoredEntry> =
        serde_json::from_str(data).map_err(|e| corrupt("documents.data", e))?;
    let mut files = Vec::new();
    let mut other = None;
    let mut read = Vec::new();
    for entry in entries {
        match entry {
            StoredEntry::Agreement {
                signed_name,
                signed_at,
            } => {
                other = Some(Evidence::Agreement {
                    signed_name,
                    signed_at: from_db("documents.data.signed_at", signed_at)?,
                });
            }
            StoredEntry::Fingerprint { fingerprint } => {
                other = Some(Evidence::Fingerprint { fingerprint });
            }
            StoredEntry::File {
                file_id,
                file_name,
                content_type,
                size_bytes,
                sha256,
                side,
            } => files.push(StoredFile {
                file_id: file_id.into(),
                file_name,
                file_type: type_from_text(&content_type).ok_or_else(|| bad("content_type"))?,
                size_bytes,
                sha256,
                side: side
                    .map(|s| Side::parse(&s).ok_or_else(|| bad("side")))
                    .transpose()?,
            }),
            StoredEntry::Read(stored) => read.push(stored.into_domain()?),
        }
    }
    Ok((other.unwrap_or(Evidence::Files(files)), read))
}

/// Replaces what was read from a document, inside the caller's transaction; a document
/// deleted meanwhile is skipped.
pub(crate) fn replace_reads(
    conn: &mut AnyConnection,
    vault: &Vault,
    document: &DocumentId,
    read: &[DocumentRead],
) -> Result<(), Failure> {
    let row: Option<DocumentRow> = documents::table
        .find(document.as_str())
        .select(DocumentRow::as_select())
        .first(conn)
        .optional()?;
    let Some(row) = row else { return Ok(()) };
    let mut stored = row.open(vault)?;
    stored.read = read.to_vec();
    let sealed = DocumentRow::seal(&stored, vault)?;
    diesel::update(documents::table.find(document.as_str()))
        .set(documents::data.eq(&sealed.data))
        .execute(conn)?;
    Ok(())
}

impl DocumentRow {
    /// The row as stored: its evidence sealed.
    pub(crate) fn seal(d: &Document, vault: &Vault) -> StoreResult<Self> {
        let mut row = Self::from_domain(d);
        row.seal_in_place(vault)?;
        Ok(row)
    }

    pub(crate) fn seal_in_place(&mut self, vault: &Vault) -> StoreResult<()> {
        self.data = vault.seal_field(DATA, &self.id, &self.data)?;
        Ok(())
    }

    /// The document a stored row holds, its evidence opened.
    pub(crate) fn open(mut self, vault: &Vault) -> StoreResult<Document> {
        self.data = vault.open_field(DATA, &self.id, &self.data)?;
        self.into_domain()
    }

    fn from_domain(d: &Document) -> Self {
        let size: u64 = d.files().iter().map(|f| f.size_bytes).sum();
        Self {
            id: d.id.to_string(),
            merchant_id: d.merchant_id.as_str().to_owned(),
            profile_id: d.profile_id.as_str().to_owned(),
            quiz_id: d.quiz_id.to_string(),
            name: d.step.name().to_owned(),
            status: d.status.as_str().to_owned(),
            data: data_text(&d.evidence, &d.read),
            created_at: to_db(d.created_at),
            updated_at: to_db(d.updated_at),
            size_bytes: i64::try_from(size).unwrap_or(i64::MAX),
        }
    }

    pub(crate) fn into_domain(self) -> StoreResult<Document> {
        let status: DocumentStatus = self
            .status
            .parse()
            .map_err(|e| corrupt("documents.status", e))?;
        let (evidence, read) = parse_data(&self.data)?;
        Ok(Document {
            evidence,
            read,
            id: self.id.into(),
            merchant_id: MerchantId::new(self.merchant_id),
            profile_id: ProfileId::new(self.profile_id),
            quiz_id: self.quiz_id.into(),
            step: Feature::from_name(&self.name)
                .ok_or_else(|| corrupt("documents.name", &self.name))?,
            status,
            created_at: from_db("documents.created_at", self.created_at)?,
            updated_at: from_db("documents.updated_at", self.updated_at)?,
        })
    }
}

/// Inserts a sealed document row and the ids of its files beside it.
pub(crate) fn insert_document(
    conn: &mut AnyConnection,
    row: &DocumentRow,
    document: &Document,
) -> Result<(), Failure> {
    diesel::insert_into(documents::table)
        .values(row)
        .execute(conn)?;
    name_files(conn, document)
}

/// Deletes the documents of `document`'s quiz that it [`Document::replaces`], inside the
/// caller's transaction; returns their files' ids, for their bytes to be removed. Only
/// the quiz's documents of the same step are opened (the side is in the sealed evidence).
pub(crate) fn remove_replaced(
    conn: &mut AnyConnection,
    vault: &Vault,
    document: &Document,
) -> Result<Vec<FileId>, Failure> {
    if document.side().is_none() {
        return Ok(Vec::new());
    }
    let rows: Vec<DocumentRow> = documents::table
        .filter(documents::quiz_id.eq(document.quiz_id.as_str()))
        .filter(documents::name.eq(document.step.name()))
        .select(DocumentRow::as_select())
        .load(conn)?;
    let (mut file_ids, mut document_ids) = (Vec::new(), Vec::new());
    for row in rows {
        let earlier = row.open(vault)?;
        if document.replaces(&earlier) {
            file_ids.extend(earlier.files().iter().map(|f| f.file_id.clone()));
            document_ids.push(earlier.id.to_string());
        }
    }
    forget_files(conn, document_ids.clone())?;
    diesel::delete(documents::table.filter(documents::id.eq_any(document_ids))).execute(conn)?;
    Ok(file_ids)
}

/// Records which files a document holds, readable without opening its evidence.
pub(crate) fn name_files(conn: &mut AnyConnection, document: &Document) -> Result<(), Failure> {
    for file in document.files() {
        diesel::insert_into(document_files::table)
            .values((
                document_files::file_id.eq(file.file_id.as_str()),
                document_files::document_id.eq(document.id.as_str()),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// The ids of every file held by the documents of a profile.
pub(crate) fn file_ids_of_profile(
    conn: &mut AnyConnection,
    profile_id: &str,
) -> Result<Vec<FileId>, Failure> {
    let ids: Vec<String> = document_files::table
        .inner_join(documents::table)
        .filter(documents::profile_id.eq(profile_id))
        .select(document_files::file_id)
        .load(conn)?;
    Ok(ids.into_iter().map(FileId::from).collect())
}

/// Empties every document of a profile (`Document::erase_personal_data`: no evidence,
/// nothing read), inside the caller's transaction, and forgets their files; returns the
/// ids of those files, for their bytes to be removed.
pub(crate) fn erase_documents_of_profile(
    conn: &mut AnyConnection,
    vault: &Vault,
    profile_id: &str,
) -> Result<Vec<FileId>, Failure> {
    let rows: Vec<DocumentRow> = documents::table
        .filter(documents::profile_id.eq(profile_id))
        .select(DocumentRow::as_select())
        .load(conn)?;
    let mut file_ids = Vec::new();
    let mut document_ids = Vec::with_capacity(rows.len());
    for row in rows {
        let mut document = row.open(vault)?;
        file_ids.extend(document.erase_personal_data());
        let emptied = DocumentRow::seal(&document, vault)?;
        diesel::update(documents::table.find(&emptied.id))
            .set((
                documents::data.eq(&emptied.data),
                documents::size_bytes.eq(emptied.size_bytes),
            ))
            .execute(conn)?;
        document_ids.push(emptied.id);
    }
    forget_files(conn, document_ids)?;
    Ok(file_ids)
}

/// Removes the file names of the documents matched by `filter` (explicitly: SQLite's
/// foreign keys may be off on connections other than ours).
fn forget_files(conn: &mut AnyConnection, document_ids: Vec<String>) -> Result<(), Failure> {
    diesel::delete(document_files::table.filter(document_files::document_id.eq_any(document_ids)))
        .execute(conn)?;
    Ok(())
}

/// Forgets the files of every document of a profile, before those documents go.
pub(crate) fn forget_files_of_profile(
    conn: &mut AnyConnection,
    profile_id: &str,
) -> Result<(), Failure> {
    let ids: Vec<String> = documents::table
        .filter(documents::profile_id.eq(profile_id))
        .select(documents::id)
        .load(conn)?;
    forget_files(conn, ids)
}

fn missing_unless_changed(changed: usize) -> Result<(), Failure> {
    if changed == 0 {
        return Err(Failure::Store(StoreError::Missing));
    }
    Ok(())
}

#[async_trait]
impl DocumentRepository for Database {
    async fn find(&self, profile: &ProfileId, id: &DocumentId) -> StoreResult<Option<Document>> {
        let (profile, id) = (profile.as_str().to_owned(), id.to_string());
        let row = self
            .read(move |conn| {
                Ok(documents::table
                    .find(id)
                    .filter(documents::profile_id.eq(profile))
                    .select(DocumentRow::as_select())
                    .get_result(conn)
                    .optional()?)
            })
            .await?;
        row.map(|r| r.open(&self.vault)).transpose()
    }

    async fn find_of_merchant(
        &self,
        merchant: &MerchantId,
        id: &DocumentId,
    ) -> StoreResult<Option<Document>> {
        let (merchant, id) = (merchant.as_str().to_owned(), id.to_string());
        let row = self
            .read(move |conn| {
                Ok(documents::table
                    .find(id)
                    .filter(documents::merchant_id.eq(merchant))
                    .select(DocumentRow::as_select())
                    .get_result(conn)
                    .optional()?)
            })
            .await?;
        row.map(|r| r.open(&self.vault)).transpose()
    }

    async fn list(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Document>> {
        let profile = profile.as_str().to_owned();
        let rows = self
            .read(move |conn| {
                Ok(newest_first!(
                    conn,
                    documents::table.filter(documents::profile_id.eq(profile)),
                    documents::id,
                    page,
                    DocumentRow
                ))
            })
            .await?;
        paged(rows, |r| r.open(&self.vault))
    }

    async fn update_status(&self, document: &Document, entry: &Entry) -> StoreResult<()> {
        let row = DocumentRow::from_domain(document);
        let event = self.sealed(entry)?;
        self.write(move |conn| {
            let changed = diesel::update(documents::table.find(&row.id))
                .set((
                    documents::status.eq(&row.status),
                    documents::updated_at.eq(row.updated_at),
                ))
                .execute(conn)?;
            missing_unless_changed(changed)?;
            persist(conn, &event)
        })
        .await
    }

    async fn delete(&self, document: &Document, entry: &Entry) -> StoreResult<()> {
        let (id, event) = (document.id.to_string(), self.sealed(entry)?);
        self.write(move |conn| {
            forget_files(conn, vec![id.clone()])?;
            let changed = diesel::delete(documents::table.find(&id)).execute(conn)?;
            missing_unless_changed(changed)?;
            persist(conn, &event)
        })
        .await
    }

    async fn file_in_use(&self, file_id: &FileId) -> StoreResult<bool> {
        let id = file_id.to_string();
        self.read(move |conn| {
            let named: i64 = document_files::table.find(id).count().get_result(conn)?;
            Ok(named > 0)
        })
        .await
    }
}
