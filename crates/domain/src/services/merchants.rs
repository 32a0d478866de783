use std::sync::Arc;

use crate::audit::AuditAction;
use crate::error::{DomainError, Resource};
use crate::ids::UserId;
use crate::merchant::{
    API_KEY_PREFIX, API_SECRET_PREFIX, ApiKey, ApiKeyId, CREDENTIAL_RANDOM_LEN, IpNet, KeyOptions,
    MAX_ENABLED_KEYS, Merchant, MerchantId, MerchantSettings, SecretString, SettingsChanges,
};
use crate::ports::{AuditLog, Clock, IdGenerator, MerchantRepository, SecretGenerator, StoreError};
use crate::services::{AuditPorts, AuditTrail, Initiator};
use crate::validation::{Problem, Violations};

/// The ports a [`MerchantService`] works through.
#[derive(Clone)]
pub struct MerchantPorts {
    /// Merchants (their settings).
    pub merchants: Arc<dyn MerchantRepository>,
    /// Where the audit entries are kept.
    pub audit: Arc<dyn AuditLog>,
    /// The clock.
    pub clock: Arc<dyn Clock>,
    /// Makes ids.
    pub ids: Arc<dyn IdGenerator>,
    /// Makes secrets.
    pub secrets: Arc<dyn SecretGenerator>,
}

debug_as_name!(MerchantPorts);

/// Merchant accounts, their credentials and settings.
#[derive(Clone)]
pub struct MerchantService {
    merchants: Arc<dyn MerchantRepository>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    secrets: Arc<dyn SecretGenerator>,
    audit: AuditTrail,
}

debug_as_name!(MerchantService);

impl MerchantService {
    /// The service over its ports; key changes are written to `audit`.
    pub fn new(ports: MerchantPorts) -> Self {
        let MerchantPorts {
            merchants,
            audit,
            clock,
            ids,
            secrets,
        } = ports;
        Self {
            merchants,
            audit: AuditTrail::new(AuditPorts {
                log: audit,
                clock: clock.clone(),
                ids: ids.clone(),
            }),
            clock,
            ids,
            secrets,
        }
    }

    /// A new merchant with default settings and a first API key.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use domain::memory::{FixedClock, MemoryAudit, MemoryMerchants, SequentialIds};
    /// use domain::merchant::ExposeSecret;
    /// use domain::services::{MerchantPorts, MerchantService};
    /// let ids = Arc::new(SequentialIds::default());
    /// let service = MerchantService::new(MerchantPorts {
    ///     merchants: Arc::new(MemoryMerchants::default()),
    ///     audit: Arc::new(MemoryAudit::default()),
    ///     clock: Arc::new(FixedClock::default()),
    ///     ids: ids.clone(),
    ///     secrets: ids,
    /// });
    /// let (merchant, key) = futures_executor::block_on(service.create("Acme")).unwrap();
    /// assert_eq!(merchant.name, "Acme");
    /// assert!(key.key.as_str().starts_with("key-") && key.secret.expose_secret().starts_with("sec-"));
    /// assert!(futures_executor::block_on(service.create("  ")).is_err(), "a name is required");
    /// ```
    pub async fn create(&self, name: &str) -> Result<(Merchant, ApiKey), DomainError> {
        let name = Merchant::parse_name(name)
            .map_err(|e| Violations::single("name", Problem::Invalid, e.0))?;
        let merchant = Merchant {
            id: MerchantId::new(self.ids.next_id()),
            name,
            settings: MerchantSettings::default(),
            created_at: self.clock.now(),
        };
        let key = self.new_key(&merchant.id, KeyOptions::default(), None);
        self.merchants.create(&merchant, &key).await?;
        self.audit
            .record(
                &merchant.id,
                &Initiator::cli(),
                AuditAction::KeyCreated,
                key.key.as_str(),
            )
            .await?;
        Ok((merchant, key))
    }

    /// Every merchant.
    pub async fn list(&self) -> Result<Vec<Merchant>, DomainError> {
        Ok(self.merchants.list().await?)
    }

    /// The merchant, or `NotFound`.
    pub async fn get(&self, id: &MerchantId) -> Result<Merchant, DomainError> {
        self.merchants
            .find(id)
            .await?
            .ok_or(DomainError::NotFound(Resource::Merchant))
    }

    /// Another key for the merchant, made by `by` (recorded on the key and in the audit
    /// trail; a user's keys are disabled with the user), with `options`: what it may do
    /// (`access`), whether it may sign with the replayable legacy scheme (only for
    /// integrations that cannot be changed), and the addresses it is limited to.
    /// `KeyLimitReached` when the merchant already holds 20 enabled keys.
    pub async fn create_key(
        &self,
        merchant: &MerchantId,
        options: KeyOptions,
        by: &Initiator,
    ) -> Result<ApiKey, DomainError> {
        let key = self.new_key(merchant, options, by.auditor.user_id().cloned());
        match self.merchants.add_key(&key, MAX_ENABLED_KEYS).await {
            Ok(()) => {}
            Err(StoreError::Missing) => return Err(DomainError::NotFound(Resource::Merchant)),
            Err(StoreError::LimitReached) => return Err(DomainError::KeyLimitReached),
            Err(e) => return Err(e.into()),
        }
        self.audit
            .record(merchant, by, AuditAction::KeyCreated, key.key.as_str())
            .await?;
        Ok(key)
    }

    /// Enables or disables a key; `NotFound(ApiKey)` when there is none.
    pub async fn set_key_enabled(&self, key: &ApiKeyId, enabled: bool) -> Result<(), DomainError> {
        match self.merchants.set_key_enabled(key, enabled).await {
            Err(StoreError::Missing) => Err(DomainError::NotFound(Resource::ApiKey)),
            other => Ok(other?),
        }
    }

    /// The merchant's keys, enabled or not, oldest first.
    pub async fn keys(&self, merchant: &MerchantId) -> Result<Vec<ApiKey>, DomainError> {
        Ok(self.merchants.keys(merchant).await?)
    }

    /// Disables one of the merchant's keys, by `by`; another merchant's key is
    /// `NotFound(ApiKey)`, as if it did not exist.
    pub async fn disable_key_of(
        &self,
        merchant: &MerchantId,
        key: &ApiKeyId,
        by: &Initiator,
    ) -> Result<(), DomainError> {
        match self.merchants.find_key(key).await? {
            Some(found) if &found.merchant_id == merchant => {
                self.set_key_enabled(key, false).await?;
                self.audit
                    .record(merchant, by, AuditAction::KeyDisabled, key.as_str())
                    .await
            }
            _ => Err(DomainError::NotFound(Resource::ApiKey)),
        }
    }

    /// Disables a key of whichever merchant holds it (the operator's CLI).
    pub async fn disable_key(&self, key: &ApiKeyId, by: &Initiator) -> Result<(), DomainError> {
        let found = self
            .merchants
            .find_key(key)
            .await?
            .ok_or(DomainError::NotFound(Resource::ApiKey))?;
        self.disable_key_of(&found.merchant_id, key, by).await
    }

    /// Limits a key to requests from these networks (empty: from anywhere).
    pub async fn set_key_networks(
        &self,
        key: &ApiKeyId,
        networks: Vec<IpNet>,
    ) -> Result<(), DomainError> {
        match self.merchants.set_key_networks(key, &networks).await {
            Err(StoreError::Missing) => Err(DomainError::NotFound(Resource::ApiKey)),
            other => Ok(other?),
        }
    }

    /// The credential named by an `Api-Key` header, enabled or not.
    pub async fn find_key(&self, key: &ApiKeyId) -> Result<Option<ApiKey>, DomainError> {
        Ok(self.merchants.find_key(key).await?)
    }

    /// Changes the merchant's settings, by `by` (recorded in the audit trail, with the
    /// names of the settings sent); returns them all as they now are.
    pub async fn change_settings(
        &self,
        merchant: &MerchantId,
        changes: SettingsChanges,
        by: &Initiator,
    ) -> Result<MerchantSettings, DomainError> {
        let sent = changes.names().join(",");
        let settings = self.get(merchant).await?.settings.changed(changes);
        match self.merchants.save_settings(merchant, &settings).await {
            Ok(()) => {}
            Err(StoreError::Missing) => return Err(DomainError::NotFound(Resource::Merchant)),
            Err(e) => return Err(e.into()),
        }
        self.audit
            .record(merchant, by, AuditAction::SettingsChanged, &sent)
            .await?;
        Ok(settings)
    }

    fn new_key(
        &self,
        merchant: &MerchantId,
        options: KeyOptions,
        created_by: Option<UserId>,
    ) -> ApiKey {
        ApiKey {
            key: ApiKeyId::new(format!(
                "{API_KEY_PREFIX}{}",
                self.secrets.base62(CREDENTIAL_RANDOM_LEN)
            )),
            merchant_id: merchant.clone(),
            secret: SecretString::from(format!(
                "{API_SECRET_PREFIX}{}",
                self.secrets.base62(CREDENTIAL_RANDOM_LEN)
            )),
            enabled: true,
            compat_signature: options.compat_signature,
            allowed_networks: options.allowed_networks,
            access: options.access,
            created_at: self.clock.now(),
            created_by,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{FixedClock, MemoryAudit, MemoryMerchants, SequentialIds};
    use crate::merchant::QuizExpiryDays;
    use crate::merchant::{ExposeSecret, KeyAccess};
    use crate::verification::MinimumAge;
    use futures_executor::block_on;

    fn service() -> MerchantService {
        let ids = Arc::new(SequentialIds::default());
        MerchantService::new(MerchantPorts {
            merchants: Arc::new(MemoryMerchants::default()),
            audit: Arc::new(MemoryAudit::default()),
            clock: Arc::new(FixedClock::default()),
            ids: ids.clone(),
            secrets: ids,
        })
    }

    #[test]
    fn a_new_merchant_gets_an_enabled_key_with_the_documented_shape() {
        let svc = service();
        let (merchant, key) = block_on(svc.create("Acme")).expect("created");
        assert_eq!(key.merchant_id, merchant.id);
        assert!(key.enabled);
        assert_eq!(
            key.access,
            KeyAccess::Full,
            "the first key may do everything"
        );
        assert!(
            key.key.as_str().starts_with("key-") && key.key.as_str().len() == 36,
            "{}",
            key.key
        );
        let secret = key.secret.expose_secret();
        assert!(secret.starts_with("sec-") && secret.len() == 36);
        assert_eq!(merchant.settings.quiz_expiry_days.days(), 5);
    }

    #[test]
    fn a_merchant_disables_only_its_own_keys() {
        let svc = service();
        let (acme, acme_key) = block_on(svc.create("Acme")).expect("created");
        let (globex, globex_key) = block_on(svc.create("Globex")).expect("created");
        let cli = Initiator::cli();
        let refused = block_on(svc.disable_key_of(&acme.id, &globex_key.key, &cli));
        assert!(
            matches!(refused, Err(DomainError::NotFound(Resource::ApiKey))),
            "{refused:?}"
        );
        let theirs = block_on(svc.keys(&globex.id)).expect("read");
        assert!(theirs[0].enabled, "another merchant's key is untouched");
        block_on(svc.disable_key_of(&acme.id, &acme_key.key, &cli)).expect("disabled");
        let mine = block_on(svc.keys(&acme.id)).expect("read");
        assert_eq!(mine.len(), 1);
        assert!(!mine[0].enabled);
    }

    #[test]
    fn a_merchant_holds_at_most_20_enabled_keys_and_a_users_keys_name_their_maker() {
        let svc = service();
        let (merchant, first) = block_on(svc.create("Acme")).expect("created");
        let admin = Initiator {
            auditor: crate::audit::Auditor::User(
                UserId::new("u1"),
                crate::profile::Email::parse("admin@example.com").expect("valid"),
            ),
            address: "203.0.113.1".into(),
        };
        for _ in 1..MAX_ENABLED_KEYS {
            let key = block_on(svc.create_key(&merchant.id, KeyOptions::default(), &admin))
                .expect("under the limit");
            assert_eq!(key.created_by, Some(UserId::new("u1")));
        }
        let refused = block_on(svc.create_key(&merchant.id, KeyOptions::default(), &admin));
        assert!(
            matches!(refused, Err(DomainError::KeyLimitReached)),
            "{refused:?}"
        );
        block_on(svc.disable_key(&first.key, &Initiator::cli())).expect("disabled");
        block_on(svc.create_key(&merchant.id, KeyOptions::default(), &admin))
            .expect("a disabled key makes room");
    }

    #[test]
    fn a_blank_merchant_name_or_one_with_control_or_invisible_characters_is_refused() {
        for name in [
            "  ",
            "Acme\u{1b}[2J",
            "Acme\0",
            "Acme\u{202e}emcA",
            &"x".repeat(101),
        ] {
            assert!(
                matches!(
                    block_on(service().create(name)),
                    Err(DomainError::Invalid(_))
                ),
                "{name:?}"
            );
        }
        let (merchant, _) =
            block_on(service().create("  Caf\u{65}\u{301} & Co  ")).expect("created");
        assert_eq!(
            merchant.name, "Caf\u{e9} & Co",
            "trimmed, and normalised to NFC"
        );
    }

    #[test]
    fn keys_can_be_added_and_disabled() {
        let svc = service();
        let (merchant, _) = block_on(svc.create("Acme")).expect("created");
        let cli = Initiator::cli();
        let options = KeyOptions {
            access: KeyAccess::ReadOnly,
            compat_signature: true,
            allowed_networks: vec!["203.0.113.0/24".parse().expect("cidr")],
        };
        let second = block_on(svc.create_key(&merchant.id, options, &cli)).expect("added");
        assert_eq!(second.created_by, None, "made by the CLI");
        assert!(second.compat_signature);
        assert_eq!(second.access, KeyAccess::ReadOnly);
        assert_eq!(second.allowed_networks.len(), 1);
        block_on(svc.set_key_enabled(&second.key, false)).expect("disabled");
        let found = block_on(svc.find_key(&second.key))
            .expect("found")
            .expect("exists");
        assert!(!found.enabled);
        let err = block_on(svc.create_key(&MerchantId::new("nobody"), KeyOptions::default(), &cli))
            .expect_err("none");
        assert!(matches!(err, DomainError::NotFound(Resource::Merchant)));
        let err = block_on(svc.set_key_enabled(&"key-none".into(), false)).expect_err("none");
        assert!(matches!(err, DomainError::NotFound(Resource::ApiKey)));
    }

    #[test]
    fn settings_are_saved_per_merchant() {
        let svc = service();
        let (merchant, _) = block_on(svc.create("Acme")).expect("created");
        let changes = SettingsChanges {
            quiz_expiry_days: Some(QuizExpiryDays::new(12).expect("valid")),
            ..SettingsChanges::default()
        };
        block_on(svc.change_settings(&merchant.id, changes, &Initiator::cli())).expect("saved");
        let reread = block_on(svc.get(&merchant.id)).expect("found");
        assert_eq!(reread.settings.quiz_expiry_days.days(), 12);
        let changes = SettingsChanges {
            minimum_age: Some(MinimumAge::new(21).expect("valid")),
            auto_decision: Some(true),
            ..SettingsChanges::default()
        };
        let saved =
            block_on(svc.change_settings(&merchant.id, changes, &Initiator::cli())).expect("saved");
        assert_eq!(
            saved.quiz_expiry_days.days(),
            12,
            "what was not named is kept"
        );
        assert_eq!((saved.minimum_age.years(), saved.auto_decision), (21, true));
        assert_eq!(
            block_on(svc.get(&merchant.id)).expect("found").settings,
            saved
        );
    }
}
