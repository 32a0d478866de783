//! Filling a database with many profiles quickly, for benchmarks at scale (`idv seed`).
//! Each profile is written as the API would write it (sealed, with its `profile_created`
//! event), in large transactions instead of one per profile.

use diesel::{Connection, RunQueryDsl};
use domain::OffsetDateTime;
use domain::event::{Activity, Event};
use domain::merchant::MerchantId;
use domain::outbox::Entry;
use domain::ports::StoreResult;
use domain::profile::{
    AttributesPatch, Email, PhoneNumber, Profile, ProfileChanges, ProfileId, ProfileKey, ShortText,
};

use crate::connection::AnyConnection;
use crate::failure::Failure;
use crate::outbox::persist;
use crate::repositories::profiles::{ProfileRow, insert_profile};
use crate::{Database, checkout};

/// Profiles written per transaction.
const BATCH: u64 = 10_000;

/// The mobile number of seeded client `i`: unique for every `i`, NANP-valid
/// (`scripts/load/requests.py` numbers its clients the same way).
pub(crate) fn seeded_mobile(i: u64) -> String {
    format!(
        "2{:02}{}{:06}",
        i / 10_000_000 % 100,
        2 + i / 1_000_000 % 8,
        i % 1_000_000
    )
}

/// Seeded clients' names: every pair of these (a thousand), so that a search by name
/// finds about a thousandth of the clients, as it would among real ones.
const FIRST_NAMES: [&str; 20] = [
    "Ada",
    "Alan",
    "Barbara",
    "Claude",
    "Donald",
    "Edsger",
    "Frances",
    "Grace",
    "Hedy",
    "John",
    "Katherine",
    "Leslie",
    "Margaret",
    "Niklaus",
    "Radia",
    "Shafi",
    "Sophie",
    "Tim",
    "Whitfield",
    "Yukihiro",
];
const LAST_NAMES: [&str; 50] = [
    "Adams", "Baker", "Brown", "Campbell", "Carter", "Clark", "Collins", "Cook", "Davis",
    "Edwards", "Evans", "Garcia", "Green", "Hall", "Harris", "Hill", "Jackson", "Johnson", "King",
    "Lee", "Lewis", "Lopez", "Lovelace", "Martin", "Miller", "Mitchell", "Moore", "Morgan",
    "Murphy", "Nelson", "Parker", "Perez", "Phillips", "Roberts", "Robinson", "Rogers", "Scott",
    "Smith", "Stewart", "Taylor", "Thomas", "Thompson", "Turner", "Walker", "White", "Williams",
    "Wilson", "Wright", "Young", "Zhang",
];

fn seeded(
    merchant: &MerchantId,
    prefix: &str,
    i: u64,
    id: String,
    now: OffsetDateTime,
) -> StoreResult<Profile> {
    let bad = |e: domain::validation::Invalid| domain::ports::StoreError::Internal(Box::new(e));
    let key = ProfileKey {
        email: Email::parse(&format!("{prefix}-{i}@example.com")).map_err(bad)?,
        mobile: PhoneNumber::parse(&seeded_mobile(i)).map_err(bad)?,
    };
    let changes = ProfileChanges {
        first_name: ShortText::parse(FIRST_NAMES[(i % 20) as usize]).map_err(bad)?,
        last_name: ShortText::parse(LAST_NAMES[(i / 20 % 50) as usize]).map_err(bad)?,
        attributes: AttributesPatch::default(),
    };
    Profile::create(ProfileId::new(id), merchant.clone(), key, changes, now)
        .map_err(|v| domain::ports::StoreError::Internal(Box::new(v)))
}

impl Database {
    /// Writes `count` profiles `{prefix}-0@example.com`... for `merchant`, each with its
    /// creation event; `next_id` gives ids in creation order. Returns how many were written.
    pub fn seed_profiles(
        &self,
        merchant: &MerchantId,
        prefix: &str,
        count: u64,
        now: OffsetDateTime,
        mut next_id: impl FnMut() -> String,
    ) -> StoreResult<u64> {
        let mut conn = checkout(&self.pool)?;
        let mut written = 0;
        while written < count {
            let upto = (written + BATCH).min(count);
            let mut batch = Vec::with_capacity((upto - written) as usize);
            for i in written..upto {
                let profile = seeded(merchant, prefix, i, next_id(), now)?;
                let event = Event::about(
                    next_id().into(),
                    &profile,
                    Activity::ProfileCreated,
                    "Profile created (seeded)",
                    now,
                );
                // Seeded clients owe the merchant's endpoints nothing: a load test
                // must not flood them.
                let entry = Entry {
                    event,
                    deliveries: Vec::new(),
                };
                batch.push((
                    ProfileRow::seal(&profile, &self.vault)?,
                    self.sealed(&entry)?,
                ));
            }
            conn.transaction::<_, Failure, _>(|conn| {
                for (row, event) in &batch {
                    insert_profile(conn, row)?;
                    persist(conn, event)?;
                }
                Ok(())
            })?;
            written = upto;
        }
        // A bulk load leaves PostgreSQL's planner without statistics for the new rows
        // until autovacuum analyses the tables (never, where it is turned off), and the
        // dashboard's searches pick poorer plans without them: leave the database as a
        // settled one would be, so what is measured on it is what a merchant meets.
        // SQLite's queries are planned without statistics, so it is left as it is.
        if let AnyConnection::Postgresql(conn) = &mut **conn {
            diesel::sql_query("ANALYZE profiles, events")
                .execute(conn)
                .map_err(Failure::from)?;
        }
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_mobiles_are_valid_and_distinct() {
        let mut seen = std::collections::HashSet::new();
        for i in (0..3_000_000)
            .step_by(997)
            .chain([999_999, 1_000_000, 9_999_999])
        {
            let mobile = seeded_mobile(i);
            assert!(PhoneNumber::parse(&mobile).is_ok(), "{mobile}");
            assert!(seen.insert(mobile));
        }
    }
}
