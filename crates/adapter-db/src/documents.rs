//! Documents and their evidence, stored as a JSON array in `documents.data`.

use async_trait::async_trait;
use diesel::prelude::*;
use domain::document::{Document, DocumentStatus, Evidence, FileType, StoredFile};
use domain::event::Event;
use domain::merchant::MerchantId;
use domain::paging::{Page, Paged};
use domain::ports::{DocumentRepository, StoreError, StoreResult};
use domain::profile::ProfileId;
use domain::template::Feature;
use serde_json::{Value, json};

use crate::Database;
use crate::connection::AnyConnection;
use crate::failure::{Failure, corrupt};
use crate::paging::{newest_first, paged};
use crate::profiles::record;
use crate::schema::{document_files, documents};
use crate::timestamps::{from_db, to_db};
use crate::vault::{Column, Vault};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = documents)]
pub(crate) struct DocumentRow {
    id: String,
    merchant_id: String,
    profile_id: String,
    quiz_id: String,
    name: String,
    status: String,
    data: String,
    created_at: i64,
    updated_at: i64,
    size_bytes: i64,
}

/// The evidence is sealed: it holds what the client signed, their device's fingerprint,
/// their file names.
const DATA: Column = Column("documents.data");

fn evidence_json(evidence: &Evidence) -> Value {
    match evidence {
        Evidence::Files(files) => Value::Array(
            files
                .iter()
                .map(|f| {
                    json!({
                        "file_id": f.file_id,
                        "file_name": f.file_name,
                        "content_type": f.file_type.mime(),
                        "size_bytes": f.size_bytes,
                        "sha256": f.sha256,
                    })
                })
                .collect(),
        ),
        Evidence::Agreement {
            signed_name,
            signed_at,
        } => {
            json!([{ "signed_name": signed_name, "signed_at": to_db(*signed_at) }])
        }
        Evidence::Fingerprint { fingerprint } => json!([{ "fingerprint": fingerprint }]),
    }
}

fn parse_evidence(step: &str, data: &str) -> StoreResult<Evidence> {
    let bad = |what: &str| corrupt("documents.data", what);
    let entries: Vec<Value> =
        serde_json::from_str(data).map_err(|e| corrupt("documents.data", e))?;
    let text = |v: &Value, key: &str| v[key].as_str().map(str::to_owned).ok_or_else(|| bad(key));
    match Feature::from_name(step) {
        Some(Feature::AgreementSign) => {
            let entry = entries.first().ok_or_else(|| bad("agreement"))?;
            Ok(Evidence::Agreement {
                signed_name: text(entry, "signed_name")?,
                signed_at: from_db(
                    "documents.data.signed_at",
                    entry["signed_at"]
                        .as_i64()
                        .ok_or_else(|| bad("signed_at"))?,
                )?,
            })
        }
        Some(Feature::DeviceFingerPrint) => {
            let entry = entries.first().ok_or_else(|| bad("fingerprint"))?;
            Ok(Evidence::Fingerprint {
                fingerprint: text(entry, "fingerprint")?,
            })
        }
        _ => entries
            .iter()
            .map(|f| {
                Ok(StoredFile {
                    file_id: text(f, "file_id")?,
                    file_name: text(f, "file_name")?,
                    file_type: FileType::from_mime(&text(f, "content_type")?)
                        .ok_or_else(|| bad("content_type"))?,
                    size_bytes: f["size_bytes"].as_u64().ok_or_else(|| bad("size_bytes"))?,
                    sha256: text(f, "sha256")?,
                })
            })
            .collect::<StoreResult<_>>()
            .map(Evidence::Files),
    }
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
            id: d.id.clone(),
            merchant_id: d.merchant_id.0.clone(),
            profile_id: d.profile_id.0.clone(),
            quiz_id: d.quiz_id.clone(),
            name: d.name.clone(),
            status: d.status.as_str().to_owned(),
            data: evidence_json(&d.evidence).to_string(),
            created_at: to_db(d.created_at),
            updated_at: to_db(d.updated_at),
            size_bytes: i64::try_from(size).unwrap_or(i64::MAX),
        }
    }

    fn into_domain(self) -> StoreResult<Document> {
        let status: DocumentStatus = self
            .status
            .parse()
            .map_err(|e| corrupt("documents.status", e))?;
        Ok(Document {
            evidence: parse_evidence(&self.name, &self.data)?,
            id: self.id,
            merchant_id: MerchantId(self.merchant_id),
            profile_id: ProfileId(self.profile_id),
            quiz_id: self.quiz_id,
            name: self.name,
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

/// Records which files a document holds, readable without opening its evidence.
pub(crate) fn name_files(conn: &mut AnyConnection, document: &Document) -> Result<(), Failure> {
    for file in document.files() {
        diesel::insert_into(document_files::table)
            .values((
                document_files::file_id.eq(&file.file_id),
                document_files::document_id.eq(&document.id),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// The ids of every file held by the documents of a profile.
pub(crate) fn file_ids_of_profile(
    conn: &mut AnyConnection,
    profile_id: &str,
) -> Result<Vec<String>, Failure> {
    Ok(document_files::table
        .inner_join(documents::table)
        .filter(documents::profile_id.eq(profile_id))
        .select(document_files::file_id)
        .load(conn)?)
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
    async fn find(&self, profile: &ProfileId, id: &str) -> StoreResult<Option<Document>> {
        let (profile, id) = (profile.0.clone(), id.to_owned());
        let row = self
            .read(move |conn| {
                Ok(documents::table
                    .find(id)
                    .filter(documents::profile_id.eq(profile))
                    .select(DocumentRow::as_select())
                    .first(conn)
                    .optional()?)
            })
            .await?;
        row.map(|r| r.open(&self.vault)).transpose()
    }

    async fn list(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Document>> {
        let profile = profile.0.clone();
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

    async fn update_status(&self, document: &Document, event: &Event) -> StoreResult<()> {
        let row = DocumentRow::from_domain(document);
        let event = event.clone();
        self.write(move |conn| {
            let changed = diesel::update(documents::table.find(&row.id))
                .set((
                    documents::status.eq(&row.status),
                    documents::updated_at.eq(row.updated_at),
                ))
                .execute(conn)?;
            missing_unless_changed(changed)?;
            record(conn, &event)
        })
        .await
    }

    async fn delete(&self, document: &Document, event: &Event) -> StoreResult<()> {
        let (id, event) = (document.id.clone(), event.clone());
        self.write(move |conn| {
            forget_files(conn, vec![id.clone()])?;
            let changed = diesel::delete(documents::table.find(&id)).execute(conn)?;
            missing_unless_changed(changed)?;
            record(conn, &event)
        })
        .await
    }

    async fn file_in_use(&self, file_id: &str) -> StoreResult<bool> {
        let id = file_id.to_owned();
        self.read(move |conn| {
            let named: i64 = document_files::table.find(id).count().get_result(conn)?;
            Ok(named > 0)
        })
        .await
    }
}

/// Seals the evidence of every document stored in clear, and records beside it what must
/// be read without opening it: its files' ids and bytes (data migration).
pub(crate) fn seal_stored_documents(
    conn: &mut AnyConnection,
    vault: &Vault,
) -> Result<u64, Failure> {
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
