//! `NoteRepository`: the merchant's notes on a profile.

use async_trait::async_trait;
use diesel::prelude::*;
use domain::merchant::MerchantId;
use domain::note::{Note, NoteText};
use domain::outbox::Entry;
use domain::paging::{Page, Paged};
use domain::ports::{NoteRepository, StoreResult};
use domain::profile::ProfileId;

use crate::Database;
use crate::failure::corrupt;
use crate::outbox::persist;
use crate::repositories::paging::{newest_first, paged};
use crate::schema::notes;
use crate::timestamps::{from_db, to_db};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = notes)]
struct NoteRow {
    id: String,
    merchant_id: String,
    profile_id: String,
    note: String,
    created_at: i64,
}

impl NoteRow {
    fn into_domain(self) -> StoreResult<Note> {
        Ok(Note {
            text: NoteText::parse(&self.note).map_err(|e| corrupt("notes.note", e))?,
            id: self.id.into(),
            merchant_id: MerchantId::new(self.merchant_id),
            profile_id: ProfileId::new(self.profile_id),
            created_at: from_db("notes.created_at", self.created_at)?,
        })
    }
}

#[async_trait]
impl NoteRepository for Database {
    async fn insert(&self, note: &Note, entry: &Entry) -> StoreResult<()> {
        let row = NoteRow {
            id: note.id.to_string(),
            merchant_id: note.merchant_id.as_str().to_owned(),
            profile_id: note.profile_id.as_str().to_owned(),
            note: note.text.as_str().to_owned(),
            created_at: to_db(note.created_at),
        };
        let event = self.sealed(entry)?;
        self.write(move |conn| {
            diesel::insert_into(notes::table)
                .values(&row)
                .execute(conn)?;
            persist(conn, &event)
        })
        .await
    }

    async fn list(&self, profile: &ProfileId, page: Page) -> StoreResult<Paged<Note>> {
        let profile = profile.as_str().to_owned();
        let rows = self
            .read(move |conn| {
                Ok(newest_first!(
                    conn,
                    notes::table.filter(notes::profile_id.eq(profile)),
                    notes::id,
                    page,
                    NoteRow
                ))
            })
            .await?;
        paged(rows, NoteRow::into_domain)
    }
}
