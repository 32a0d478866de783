//! Builds the adapters and the use cases over them.

use std::fs;
use std::sync::Arc;

use std::os::unix::fs::PermissionsExt;

use adapter_db::{CachedKeys, Database, Vault, create_private_dir};
use adapter_http::openapi::ApiDocument;
use anyhow::Context;
use async_trait::async_trait;
use domain::outbox::Outbox;
use domain::ports::{Clock, DocumentStore, ImageAnalysis};
use domain::quiz::UploadLimits;
use domain::services::{
    AuditPorts, AuditTrail, ClientPorts, ClientService, DocumentPorts, DocumentService,
    MerchantPorts, MerchantService, NotePorts, NoteService, ProfilePorts, ProfileService,
    QuizPorts, QuizService, RetentionPorts, RetentionService, ScreeningPorts, ScreeningService,
    Services, SignInPorts, SignInService, TemplatePorts, TemplateService, UserPorts, UserService,
    VerificationPorts, VerificationService, WebhookPorts, WebhookService,
};

use crate::cli::StorageArgs;
use crate::master_key;
use crate::passwords::Argon2id;
use crate::second_factor::Totp;
use crate::system::{RandomSecrets, SystemClock, UlidIds};

const SQLITE_FILE: &str = "idv.sqlite3";

/// Opens (and for SQLite, creates) the configured database. Does not migrate.
/// The data directory is made private (0700): it holds the database, the key file and
/// the stored files.
pub fn open_database(storage: &StorageArgs) -> anyhow::Result<Database> {
    let new_key = storage.new_master_key.as_deref();
    open_database_with(storage, new_key.map(|hex| (hex, "IDV_NEW_MASTER_KEY")))
}

/// Opens the configured database as `open_database` does, with the key a rotation goes
/// to (its text, and where it was read) if there is one: values are then sealed under the
/// new key and values of either key open.
pub fn open_database_with(
    storage: &StorageArgs,
    new_key: Option<(&str, &str)>,
) -> anyhow::Result<Database> {
    let dir = &storage.data_dir;
    create_private_dir(dir)
        .and_then(|()| fs::set_permissions(dir, fs::Permissions::from_mode(0o700)))
        .with_context(|| format!("creating the data directory {}", dir.display()))?;
    let url = database_url(storage);
    let key = master_key::load(storage.master_key.as_deref(), dir, || {
        Ok(adapter_db::sealed_under(&url)?)
    })?;
    let new_key = new_key
        .map(|(hex, source)| master_key::new_key(hex, source, &key))
        .transpose()?;
    let vault = match new_key {
        Some(new_key) => Vault::rotating(&key, &new_key),
        None => Vault::new(&key),
    };
    Ok(Database::open(&url, Arc::new(vault))?)
}

/// The configured database: `IDV_DATABASE_URL`, or the SQLite file in the data directory.
pub fn database_url(storage: &StorageArgs) -> String {
    match &storage.database_url {
        Some(url) => url.clone(),
        None => storage.data_dir.join(SQLITE_FILE).display().to_string(),
    }
}

/// Opens and migrates: what every command that uses the data needs first. Refuses a
/// master key that is not this database's.
pub fn open_migrated(storage: &StorageArgs) -> anyhow::Result<Database> {
    let db = open_database(storage)?;
    let applied = migrate(&db)?;
    if !applied.is_empty() {
        tracing::info!(count = applied.len(), database = %db.describe(), "migrations applied");
    }
    Ok(db)
}

/// Applies pending migrations, checks the master key, seals values stored in clear.
pub fn migrate(db: &Database) -> anyhow::Result<Vec<String>> {
    Ok(db.migrate(SystemClock.now().unix_timestamp())?)
}

/// Where uploaded files live (`IDV_STORAGE_URL`; default `files/` in the data
/// directory), sealed.
pub fn file_store(db: &Database, storage: &StorageArgs) -> anyhow::Result<Arc<dyn DocumentStore>> {
    db.file_store(
        storage.storage_url.as_deref(),
        storage.data_dir.join("files"),
    )
    .map_err(anyhow::Error::msg)
}

/// How the use cases are tuned by the operator.
pub struct Tuning<'a> {
    /// Quiz addresses are made under it.
    pub public_url: &'a str,
    /// What one quiz link may add.
    pub limits: UploadLimits,
    /// Webhooks may point at private addresses (`IDV_WEBHOOK_ALLOW_PRIVATE`).
    pub webhook_allow_private: bool,
}

/// The use cases over `db` and `files`, judging images with `images`.
pub fn services(
    db: &Database,
    files: Arc<dyn DocumentStore>,
    tuning: Tuning,
    images: Arc<dyn ImageAnalysis>,
) -> Services {
    let Tuning {
        public_url,
        limits,
        webhook_allow_private,
    } = tuning;
    let db = Arc::new(db.clone());
    let clock = Arc::new(SystemClock);
    let ids = Arc::new(UlidIds::default());
    let secrets = Arc::new(RandomSecrets::default());
    // Every signed request looks its key up: held in memory, at most 1 s stale.
    let keys = Arc::new(CachedKeys::new(db.clone()));
    // Every event is written with the deliveries the merchant's endpoints are owed.
    let outbox = Outbox::new(db.clone(), ids.clone());
    let quiz_ports = QuizPorts {
        quizzes: db.clone(),
        profiles: db.clone(),
        templates: db.clone(),
        merchants: db.clone(),
        clock: clock.clone(),
        ids: ids.clone(),
        secrets: secrets.clone(),
        outbox: outbox.clone(),
    };
    let screening = screening_over(&db, clock.clone(), outbox.clone());
    Services {
        profiles: ProfileService::new(ProfilePorts {
            profiles: db.clone(),
            store: files.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            outbox: outbox.clone(),
        }),
        merchants: MerchantService::new(MerchantPorts {
            merchants: keys,
            audit: db.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            secrets: secrets.clone(),
        }),
        audit: AuditTrail::new(AuditPorts {
            log: db.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
        }),
        webhooks: WebhookService::new(
            WebhookPorts {
                webhooks: db.clone(),
                clock: clock.clone(),
                ids: ids.clone(),
                secrets: secrets.clone(),
            },
            webhook_allow_private,
        ),
        sign_in: SignInService::new(SignInPorts {
            users: db.clone(),
            sessions: db.clone(),
            hasher: Arc::new(Argon2id::default()),
            codes: Arc::new(Totp),
            audit: db.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            secrets,
            devices: db.device_marks(),
        }),
        templates: TemplateService::new(TemplatePorts {
            templates: db.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
        }),
        quizzes: QuizService::new(quiz_ports, public_url),
        client: ClientService::new(
            ClientPorts {
                quizzes: db.clone(),
                merchants: db.clone(),
                store: files.clone(),
                images: images.clone(),
                clock: clock.clone(),
                ids: ids.clone(),
                outbox: outbox.clone(),
            },
            public_url,
            limits,
        ),
        documents: DocumentService::new(DocumentPorts {
            profiles: db.clone(),
            documents: db.clone(),
            store: files.clone(),
            clock: clock.clone(),
            outbox: outbox.clone(),
        }),
        retention: RetentionService::new(RetentionPorts {
            merchants: db.clone(),
            profiles: db.clone(),
            store: files.clone(),
            clock: clock.clone(),
            outbox: outbox.clone(),
        }),
        verifications: VerificationService::new(
            VerificationPorts {
                verifications: db.clone(),
                index: db.clone(),
                quizzes: db.clone(),
                profiles: db.clone(),
                documents: db.clone(),
                merchants: db.clone(),
                store: files,
                images,
                clock: clock.clone(),
                ids: ids.clone(),
                outbox: outbox.clone(),
                screening: screening.clone(),
                signals: db.clone(),
            },
            public_url,
        ),
        screening,
        notes: NoteService::new(NotePorts {
            profiles: db.clone(),
            notes: db,
            clock: clock.clone(),
            ids,
            outbox,
        }),
        clock,
    }
}

/// The merchant use cases alone, for the CLI.
pub fn merchant_service(storage: &StorageArgs) -> anyhow::Result<MerchantService> {
    let db = Arc::new(open_migrated(storage)?);
    let ids = Arc::new(UlidIds::default());
    Ok(MerchantService::new(MerchantPorts {
        merchants: db.clone(),
        audit: db,
        clock: Arc::new(SystemClock),
        ids,
        secrets: Arc::new(RandomSecrets::default()),
    }))
}

/// The dashboard users' use cases alone, for the CLI.
pub fn user_service(storage: &StorageArgs) -> anyhow::Result<UserService> {
    let db = Arc::new(open_migrated(storage)?);
    Ok(UserService::new(UserPorts {
        users: db.clone(),
        merchants: db.clone(),
        hasher: Arc::new(Argon2id::default()),
        codes: Arc::new(Totp),
        audit: db,
        clock: Arc::new(SystemClock),
        ids: Arc::new(UlidIds::default()),
        secrets: Arc::new(RandomSecrets::default()),
    }))
}

/// The audit trail alone, for the CLI.
pub fn audit_trail(storage: &StorageArgs) -> anyhow::Result<AuditTrail> {
    let db = Arc::new(open_migrated(storage)?);
    Ok(AuditTrail::new(AuditPorts {
        log: db,
        clock: Arc::new(SystemClock),
        ids: Arc::new(UlidIds::default()),
    }))
}

fn screening_over(db: &Arc<Database>, clock: Arc<SystemClock>, outbox: Outbox) -> ScreeningService {
    ScreeningService::new(ScreeningPorts {
        store: db.clone(),
        merchants: db.clone(),
        profiles: db.clone(),
        clock,
        outbox,
    })
}

/// The screening use cases alone, for the CLI (`idv screening`).
pub fn screening_service(storage: &StorageArgs) -> anyhow::Result<ScreeningService> {
    let db = Arc::new(open_migrated(storage)?);
    let ids = Arc::new(UlidIds::default());
    let outbox = Outbox::new(db.clone(), ids);
    Ok(screening_over(&db, Arc::new(SystemClock), outbox))
}

/// `GET /readyz` asks the database.
pub struct DatabaseReadiness(pub Database);

#[async_trait]
impl adapter_http::Readiness for DatabaseReadiness {
    async fn check(&self) -> Result<(), String> {
        self.0.ping().await.map_err(|e| e.to_string())
    }
}

/// The OpenAPI document `/api/v1/openapi.json` serves and `idv openapi` prints: the API's
/// operations, with the webhooks' deliveries, which adapter-webhook describes from the
/// type that writes them.
pub fn api_document() -> ApiDocument {
    ApiDocument::with(&[&adapter_webhook::openapi::Deliveries])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_document_is_the_generated_one() {
        let committed = include_str!("../../../docs/openapi.json");
        assert!(
            committed.trim() == api_document().as_str().trim(),
            "docs/openapi.json is stale: run `cargo run -p app -- openapi > docs/openapi.json`"
        );
    }
}
