//! What a server's copy of the signals costs at scale (docs/BENCHMARKS.md): a merchant
//! with `N` profiles, each kept with a selfie's picture hash, a portrait hash and a face
//! description (128 numbers), as a verification with `face_search` keeps them. Then a new
//! server (a second pool) reads them: its first read (every row, unsealed), reads with
//! nothing new, and reads after another server kept one more profile's signals; and the
//! memory the copy takes.
//!
//! ```text
//! cargo run --release -p adapter-db --example signal_index -- DATABASE_URL [N]
//! ```
//!
//! `DATABASE_URL` is a SQLite file (made) or an empty PostgreSQL database.

use std::sync::Arc;
use std::time::Instant;

use adapter_db::{Database, Vault};
use domain::event::{Activity, Event};
use domain::merchant::{ApiKey, KeyAccess, Merchant, MerchantId, MerchantSettings};
use domain::outbox::Entry;
use domain::ports::{MerchantRepository, ProfileRepository, SignalStore};
use domain::profile::{
    AttributesPatch, Email, PhoneNumber, Profile, ProfileChanges, ProfileId, ProfileKey, ShortText,
};
use domain::signals::Signal;
use time::OffsetDateTime;
use tokio::sync::Semaphore;

/// Profiles written at once while the merchant is filled.
const AT_ONCE: usize = 32;
/// Reads timed in each series.
const READS: usize = 30;

/// A reproducible stream of numbers (xorshift64*).
struct Draws(u64);

impl Draws {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn signals(&mut self) -> Vec<Signal> {
        let face: Vec<f32> = (0..128)
            .map(|_| (self.next() % 2000) as f32 / 10_000.0 - 0.1)
            .collect();
        vec![
            Signal::Picture(self.next()),
            Signal::Portrait(self.next() >> 24),
            Signal::Face(face.into()),
        ]
    }
}

fn open(url: &str) -> Database {
    let db = Database::open(url, Arc::new(Vault::new(&[7; 32]))).expect("database opens");
    db.migrate(OffsetDateTime::now_utc().unix_timestamp())
        .expect("migrated");
    db
}

/// The process's own resident memory (`RssAnon`: not the SQLite file it maps).
fn resident_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("RssAnon:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}

fn profile(merchant: &MerchantId, n: usize, now: OffsetDateTime) -> Profile {
    let key = ProfileKey {
        email: Email::parse(&format!("p{n}@example.com")).expect("e-mail"),
        // Exchanges start 2 to 9 (the North American plan).
        mobile: PhoneNumber::parse(&format!("4165{:06}", n)).expect("mobile"),
    };
    let changes = ProfileChanges {
        first_name: ShortText::parse("Ada").expect("name"),
        last_name: ShortText::parse("Lovelace").expect("name"),
        attributes: AttributesPatch::default(),
    };
    Profile::create(
        ProfileId::new(format!("p{n:07}")),
        merchant.clone(),
        key,
        changes,
        now,
    )
    .expect("profile")
}

/// Milliseconds at the 50th and 95th percentiles.
fn percentiles(mut times: Vec<f64>) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    (at(0.5), at(0.95))
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let url = args.next().expect("DATABASE_URL");
    let count: usize = args.next().map_or(100_000, |n| n.parse().expect("N"));
    let now = OffsetDateTime::now_utc();
    let writer = Arc::new(open(&url));
    let merchant = Merchant {
        id: MerchantId::new("bench"),
        name: "Bench".into(),
        settings: MerchantSettings::default(),
        created_at: now,
    };
    let key = ApiKey {
        key: "bench-key".into(),
        merchant_id: merchant.id.clone(),
        secret: "bench-secret".to_owned().into(),
        enabled: true,
        compat_signature: false,
        allowed_networks: Vec::new(),
        access: KeyAccess::Full,
        created_at: now,
        created_by: None,
    };
    writer.create(&merchant, &key).await.expect("merchant");

    let started = Instant::now();
    let room = Arc::new(Semaphore::new(AT_ONCE));
    let mut draws = Draws(0x9e37_79b9_7f4a_7c15);
    let mut writes = tokio::task::JoinSet::new();
    for n in 0..count {
        let permit = room.clone().acquire_owned().await.expect("room");
        let (db, id, signals) = (writer.clone(), merchant.id.clone(), draws.signals());
        writes.spawn(async move {
            let profile = profile(&id, n, now);
            let event = Event::about(
                format!("ev{n}").into(),
                &profile,
                Activity::ProfileCreated,
                "",
                now,
            );
            let entry = Entry {
                event,
                deliveries: Vec::new(),
            };
            ProfileRepository::insert(db.as_ref(), &profile, &entry)
                .await
                .expect("profile");
            db.keep(&id, &profile.id, &signals).await.expect("kept");
            drop(permit);
        });
    }
    while let Some(written) = writes.join_next().await {
        written.expect("written");
    }
    println!(
        "{count} profiles kept with 3 signals each in {:.0} s",
        started.elapsed().as_secs_f64()
    );

    // Another server: its copy starts empty.
    let reader = open(&url);
    let asking = ProfileId::new("nobody");
    let before = resident_mib();
    let started = Instant::now();
    let first = reader.others(&merchant.id, &asking).await.expect("read");
    println!(
        "first read: {} signals in {:.2} s, {:.0} MiB more resident (the copy, and the read's own answer)",
        first.len(),
        started.elapsed().as_secs_f64(),
        resident_mib() - before
    );
    drop(first);

    let mut unchanged = Vec::new();
    for _ in 0..READS {
        let started = Instant::now();
        let got = reader.others(&merchant.id, &asking).await.expect("read");
        unchanged.push(started.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(got.len(), count * 3);
    }
    let (p50, p95) = percentiles(unchanged);
    println!("read with nothing new: p50 {p50:.1} ms, p95 {p95:.1} ms");

    let mut changed = Vec::new();
    for n in 0..READS {
        let id = ProfileId::new(format!("p{n:07}"));
        writer
            .keep(&merchant.id, &id, &draws.signals())
            .await
            .expect("kept");
        let started = Instant::now();
        let got = reader.others(&merchant.id, &asking).await.expect("read");
        changed.push(started.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(got.len(), count * 3);
    }
    let (p50, p95) = percentiles(changed);
    println!("read after another server kept one profile: p50 {p50:.1} ms, p95 {p95:.1} ms");
}
