//! `MerchantRepository`: merchants, their sealed API keys and settings.

use async_trait::async_trait;
use diesel::prelude::*;
use domain::ids::UserId;
use domain::merchant::{
    ApiKey, ApiKeyId, ExposeSecret, IpNet, KeyAccess, Language, Merchant, MerchantId,
    MerchantSettings, QuizExpiryDays, RetentionDays,
};
use domain::ports::{MerchantRepository, StoreError, StoreResult};
use domain::verification::proof_of_address::MaxAge;
use domain::verification::{MinimumAge, Policy};
use domain::watchlist::{ListName, ScreeningSettings, Threshold};

use crate::connection::AnyConnection;
use crate::failure::{Failure, corrupt};
use crate::schema::{api_keys, merchants};
use crate::timestamps::{from_db, to_db};
use crate::{Database, Vault};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = merchants)]
struct MerchantRow {
    id: String,
    name: String,
    quiz_expiry_days: i32,
    created_at: i64,
    minimum_age: i32,
    verification_policy: String,
    auto_decision: bool,
    default_language: String,
    retention_days: Option<i32>,
    proof_of_address_max_age_days: i32,
    screening: bool,
    screening_lists: String,
    screening_threshold: i32,
    face_search: bool,
}

/// The settings' columns, as a change writes them.
#[derive(AsChangeset)]
#[diesel(table_name = merchants, treat_none_as_null = true)]
struct SettingsRow {
    quiz_expiry_days: i32,
    minimum_age: i32,
    verification_policy: String,
    auto_decision: bool,
    default_language: String,
    retention_days: Option<i32>,
    proof_of_address_max_age_days: i32,
    screening: bool,
    screening_lists: String,
    screening_threshold: i32,
    face_search: bool,
}

impl SettingsRow {
    fn of(s: &MerchantSettings) -> Self {
        // The merchant's own choices only, as a JSON object of reason code to decision:
        // reasons it never named follow the default, even one changed later.
        let choices: serde_json::Map<String, serde_json::Value> = s
            .policy
            .choices()
            .map(|(reason, decision)| (reason.as_str().into(), decision.as_str().into()))
            .collect();
        Self {
            quiz_expiry_days: i32::from(s.quiz_expiry_days.days()),
            minimum_age: i32::from(s.minimum_age.years()),
            verification_policy: serde_json::Value::Object(choices).to_string(),
            auto_decision: s.auto_decision,
            default_language: s.default_language.as_str().to_owned(),
            retention_days: s.retention_days.map(|d| i32::from(d.days())),
            proof_of_address_max_age_days: i32::from(s.proof_of_address_max_age.days()),
            screening: s.screening.on,
            // List names hold no comma.
            screening_lists: s
                .screening
                .lists
                .iter()
                .map(ListName::as_str)
                .collect::<Vec<_>>()
                .join(","),
            screening_threshold: i32::from(s.screening.threshold.score()),
            face_search: s.face_search,
        }
    }
}

impl MerchantRow {
    fn from_domain(m: &Merchant) -> Self {
        let s = SettingsRow::of(&m.settings);
        Self {
            id: m.id.as_str().to_owned(),
            name: m.name.clone(),
            quiz_expiry_days: s.quiz_expiry_days,
            created_at: to_db(m.created_at),
            minimum_age: s.minimum_age,
            verification_policy: s.verification_policy,
            auto_decision: s.auto_decision,
            default_language: s.default_language,
            retention_days: s.retention_days,
            proof_of_address_max_age_days: s.proof_of_address_max_age_days,
            screening: s.screening,
            screening_lists: s.screening_lists,
            screening_threshold: s.screening_threshold,
            face_search: s.face_search,
        }
    }

    fn into_domain(self) -> StoreResult<Merchant> {
        let days = QuizExpiryDays::new(i64::from(self.quiz_expiry_days))
            .map_err(|e| corrupt("merchants.quiz_expiry_days", e))?;
        let minimum_age = MinimumAge::new(i64::from(self.minimum_age))
            .map_err(|e| corrupt("merchants.minimum_age", e))?;
        let column = "merchants.verification_policy";
        let choices: std::collections::BTreeMap<String, String> =
            serde_json::from_str(&self.verification_policy).map_err(|e| corrupt(column, e))?;
        let policy = Policy::parse(choices.iter().map(|(r, d)| (r.as_str(), d.as_str())))
            .map_err(|e| corrupt(column, e))?;
        let default_language = Language::parse(&self.default_language)
            .map_err(|e| corrupt("merchants.default_language", e))?;
        let retention_days = self
            .retention_days
            .map(|days| RetentionDays::new(i64::from(days)))
            .transpose()
            .map_err(|e| corrupt("merchants.retention_days", e))?;
        let proof_of_address_max_age =
            MaxAge::new(i64::from(self.proof_of_address_max_age_days))
                .map_err(|e| corrupt("merchants.proof_of_address_max_age_days", e))?;
        let column = "merchants.screening_lists";
        let lists = self
            .screening_lists
            .split(',')
            .filter(|n| !n.is_empty())
            .map(|n| ListName::parse(n).ok_or_else(|| corrupt(column, n)))
            .collect::<StoreResult<_>>()?;
        let threshold = Threshold::new(i64::from(self.screening_threshold))
            .ok_or_else(|| corrupt("merchants.screening_threshold", self.screening_threshold))?;
        Ok(Merchant {
            id: MerchantId::new(self.id),
            name: self.name,
            settings: MerchantSettings {
                quiz_expiry_days: days,
                minimum_age,
                policy,
                auto_decision: self.auto_decision,
                default_language,
                retention_days,
                proof_of_address_max_age,
                screening: ScreeningSettings {
                    on: self.screening,
                    lists,
                    threshold,
                },
                face_search: self.face_search,
            },
            created_at: from_db("merchants.created_at", self.created_at)?,
        })
    }
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = api_keys)]
struct ApiKeyRow {
    api_key: String,
    merchant_id: String,
    sealed_secret: Vec<u8>,
    enabled: bool,
    compat_signature: bool,
    created_at: i64,
    allowed_networks: String,
    created_by: Option<String>,
    read_only: bool,
}

/// Whether the merchant exists; on PostgreSQL its row is also locked until the
/// transaction ends, so that concurrent writes counting what the merchant holds (keys,
/// webhook endpoints) count one after the other. SQLite's single writer already does.
pub(crate) fn lock_merchant(conn: &mut AnyConnection, merchant: &str) -> Result<bool, Failure> {
    let found: Vec<String> = match conn {
        AnyConnection::Postgresql(c) => merchants::table
            .find(merchant)
            .select(merchants::id)
            .for_update()
            .load(c)?,
        AnyConnection::Sqlite(c) => merchants::table
            .find(merchant)
            .select(merchants::id)
            .load(c)?,
    };
    Ok(!found.is_empty())
}

fn missing_unless_changed(changed: usize) -> Result<(), Failure> {
    if changed == 0 {
        return Err(Failure::Store(StoreError::Missing));
    }
    Ok(())
}

/// A key's networks as stored: CIDRs separated by commas; empty for any address.
fn networks_text(networks: &[IpNet]) -> String {
    networks
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

impl ApiKeyRow {
    fn seal(key: &ApiKey, vault: &Vault) -> StoreResult<Self> {
        let sealed_secret = vault
            .seal(key.secret.expose_secret().as_bytes(), key.key.as_str())
            .map_err(|e| StoreError::Internal(Box::new(e)))?;
        Ok(Self {
            api_key: key.key.as_str().to_owned(),
            merchant_id: key.merchant_id.as_str().to_owned(),
            sealed_secret,
            enabled: key.enabled,
            compat_signature: key.compat_signature,
            created_at: to_db(key.created_at),
            allowed_networks: networks_text(&key.allowed_networks),
            created_by: key.created_by.as_ref().map(ToString::to_string),
            read_only: key.access == KeyAccess::ReadOnly,
        })
    }

    fn open(self, vault: &Vault) -> StoreResult<ApiKey> {
        let secret = vault
            .open(&self.sealed_secret, &self.api_key)
            .map_err(|e| corrupt("api_keys.sealed_secret", e))?;
        let secret = String::from_utf8(secret).map_err(|e| corrupt("api_keys.sealed_secret", e))?;
        Ok(ApiKey {
            created_at: from_db("api_keys.created_at", self.created_at)?,
            created_by: self.created_by.map(UserId::new),
            key: ApiKeyId::new(self.api_key),
            merchant_id: MerchantId::new(self.merchant_id),
            secret: secret.into(),
            enabled: self.enabled,
            compat_signature: self.compat_signature,
            access: if self.read_only {
                KeyAccess::ReadOnly
            } else {
                KeyAccess::Full
            },
            allowed_networks: self
                .allowed_networks
                .split(',')
                .filter(|n| !n.is_empty())
                .map(|n| {
                    n.parse()
                        .map_err(|e| corrupt("api_keys.allowed_networks", e))
                })
                .collect::<StoreResult<_>>()?,
        })
    }
}

#[async_trait]
impl MerchantRepository for Database {
    async fn create(&self, merchant: &Merchant, first_key: &ApiKey) -> StoreResult<()> {
        let row = MerchantRow::from_domain(merchant);
        let key = ApiKeyRow::seal(first_key, &self.vault)?;
        self.write(move |conn| {
            diesel::insert_into(merchants::table)
                .values(&row)
                .execute(conn)?;
            diesel::insert_into(api_keys::table)
                .values(&key)
                .execute(conn)?;
            Ok(())
        })
        .await
    }

    async fn list(&self) -> StoreResult<Vec<Merchant>> {
        let rows = self
            .read(|conn| {
                Ok(merchants::table
                    .order(merchants::id.asc())
                    .select(MerchantRow::as_select())
                    .load(conn)?)
            })
            .await?;
        rows.into_iter().map(MerchantRow::into_domain).collect()
    }

    async fn find(&self, id: &MerchantId) -> StoreResult<Option<Merchant>> {
        let id = id.as_str().to_owned();
        let row = self
            .read(move |conn| {
                Ok(merchants::table
                    .find(id)
                    .select(MerchantRow::as_select())
                    .get_result(conn)
                    .optional()?)
            })
            .await?;
        row.map(MerchantRow::into_domain).transpose()
    }

    async fn add_key(&self, key: &ApiKey, max_enabled: usize) -> StoreResult<()> {
        let row = ApiKeyRow::seal(key, &self.vault)?;
        let max = i64::try_from(max_enabled).unwrap_or(i64::MAX);
        self.write(move |conn| {
            if !lock_merchant(conn, &row.merchant_id)? {
                return Err(Failure::Store(StoreError::Missing));
            }
            let enabled: i64 = api_keys::table
                .filter(api_keys::merchant_id.eq(&row.merchant_id))
                .filter(api_keys::enabled.eq(true))
                .count()
                .get_result(conn)?;
            if enabled >= max {
                return Err(Failure::Store(StoreError::LimitReached));
            }
            diesel::insert_into(api_keys::table)
                .values(&row)
                .execute(conn)?;
            Ok(())
        })
        .await
    }

    async fn set_key_enabled(&self, key: &ApiKeyId, enabled: bool) -> StoreResult<()> {
        let key = key.as_str().to_owned();
        self.write(move |conn| {
            let changed = diesel::update(api_keys::table.find(key))
                .set(api_keys::enabled.eq(enabled))
                .execute(conn)?;
            missing_unless_changed(changed)
        })
        .await
    }

    async fn set_key_networks(&self, key: &ApiKeyId, networks: &[IpNet]) -> StoreResult<()> {
        let (key, text) = (key.as_str().to_owned(), networks_text(networks));
        self.write(move |conn| {
            let changed = diesel::update(api_keys::table.find(key))
                .set(api_keys::allowed_networks.eq(text))
                .execute(conn)?;
            missing_unless_changed(changed)
        })
        .await
    }

    async fn find_key(&self, key: &ApiKeyId) -> StoreResult<Option<ApiKey>> {
        let key = key.as_str().to_owned();
        let row = self
            .read(move |conn| {
                Ok(api_keys::table
                    .find(key)
                    .select(ApiKeyRow::as_select())
                    .get_result(conn)
                    .optional()?)
            })
            .await?;
        row.map(|r| r.open(&self.vault)).transpose()
    }

    async fn keys(&self, merchant: &MerchantId) -> StoreResult<Vec<ApiKey>> {
        let merchant = merchant.as_str().to_owned();
        let rows = self
            .read(move |conn| {
                Ok(api_keys::table
                    .filter(api_keys::merchant_id.eq(merchant))
                    .order((api_keys::created_at, api_keys::api_key))
                    .select(ApiKeyRow::as_select())
                    .load(conn)?)
            })
            .await?;
        rows.into_iter().map(|r| r.open(&self.vault)).collect()
    }

    async fn save_settings(&self, id: &MerchantId, settings: &MerchantSettings) -> StoreResult<()> {
        let id = id.as_str().to_owned();
        let row = SettingsRow::of(settings);
        self.write(move |conn| {
            let changed = diesel::update(merchants::table.find(id))
                .set(&row)
                .execute(conn)?;
            if changed == 0 {
                return Err(Failure::Store(StoreError::Missing));
            }
            Ok(())
        })
        .await
    }
}
