//! The merchant's settings: the default quiz expiry, retention, API keys (a new key's secret is
//! shown once), and webhook endpoints with their latest deliveries.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use domain::merchant::{ApiKeyId, ExposeSecret, KeyAccess, KeyOptions, Language, SettingsChanges};
use domain::paging::Page;
use domain::webhook::{Delivery, Webhook};

use super::settings_forms::{GeneralForm, RetentionForm};
use super::verification::PolicyForm;
use super::{AdminPosted, Button, DashboardError, Posted, Reviewer};
use crate::pages::{html, language_name, redirect_to};
use crate::state::State;
use crate::timefmt::rfc3339;

/// Endpoints shown, and deliveries shown of each.
const WEBHOOKS_SHOWN: i64 = 20;
const DELIVERIES_SHOWN: i64 = 10;
const SETTINGS: &str = "/dashboard/settings";

struct KeyRow {
    key: String,
    read_only: bool,
    enabled: bool,
    created_at: String,
    networks: String,
}

struct DeliveryRow {
    activity: &'static str,
    status: &'static str,
    attempts: u32,
    answer: String,
    created_at: String,
}

struct WebhookCard {
    url: String,
    description: String,
    enabled: bool,
    events: String,
    deliveries: Vec<DeliveryRow>,
}

#[derive(Template)]
#[template(path = "dashboard/settings.html")]
struct SettingsPage<'a> {
    reviewer: &'a str,
    csrf_token: &'a str,
    merchant: &'a str,
    expiry_days: u8,
    /// The default language's code, and each language's code and name.
    language: &'static str,
    languages: Vec<(&'static str, String)>,
    /// Empty when personal data is kept.
    retention_days: String,
    verification: PolicyForm,
    keys: Vec<KeyRow>,
    webhooks: Vec<WebhookCard>,
}

/// `GET /dashboard/settings`.
pub(super) async fn show(
    state: State,
    Reviewer { session, .. }: Reviewer,
) -> Result<HttpResponse, DashboardError> {
    let merchant_id = &session.merchant_id;
    let webhooks_page = Page::new(0, WEBHOOKS_SHOWN).unwrap_or_default();
    let (merchant, keys, webhooks) = futures_util::try_join!(
        state.merchants.get(merchant_id),
        state.merchants.keys(merchant_id),
        state.webhooks.list(merchant_id, webhooks_page),
    )?;
    let mut cards = Vec::with_capacity(webhooks.items.len());
    let deliveries_page = Page::new(0, DELIVERIES_SHOWN).unwrap_or_default();
    for webhook in &webhooks.items {
        let deliveries = state
            .webhooks
            .deliveries(merchant_id, &webhook.id, deliveries_page)
            .await?;
        cards.push(webhook_card(webhook, &deliveries.items));
    }
    Ok(html(
        StatusCode::OK,
        &SettingsPage {
            reviewer: session.email.as_str(),
            csrf_token: &session.csrf_token,
            merchant: &merchant.name,
            expiry_days: merchant.settings.quiz_expiry_days.days(),
            language: merchant.settings.default_language.as_str(),
            languages: Language::ALL
                .iter()
                .map(|&l| (l.as_str(), language_name(l)))
                .collect(),
            retention_days: merchant
                .settings
                .retention_days
                .map(|d| d.days().to_string())
                .unwrap_or_default(),
            verification: PolicyForm::of(&merchant.settings),
            keys: keys
                .iter()
                .map(|k| KeyRow {
                    key: k.key.to_string(),
                    read_only: k.access == KeyAccess::ReadOnly,
                    enabled: k.enabled,
                    created_at: rfc3339(k.created_at),
                    networks: if k.allowed_networks.is_empty() {
                        "Anywhere".to_owned()
                    } else {
                        let nets: Vec<String> =
                            k.allowed_networks.iter().map(ToString::to_string).collect();
                        nets.join(", ")
                    },
                })
                .collect(),
            webhooks: cards,
        },
    ))
}

fn webhook_card(webhook: &Webhook, deliveries: &[Delivery]) -> WebhookCard {
    let events: Vec<&str> = webhook
        .events
        .activities()
        .iter()
        .map(|a| a.as_str())
        .collect();
    WebhookCard {
        url: webhook.url.as_str().to_owned(),
        description: webhook.description.clone(),
        enabled: webhook.enabled,
        events: if events.is_empty() {
            "Every event".to_owned()
        } else {
            events.join(", ")
        },
        deliveries: deliveries
            .iter()
            .map(|d| DeliveryRow {
                activity: d.activity.as_str(),
                status: d.status.as_str(),
                attempts: d.attempts,
                answer: match (d.last_status_code, &d.last_error) {
                    (Some(code), _) => format!("HTTP {code}"),
                    (None, Some(error)) => error.clone(),
                    (None, None) => String::new(),
                },
                created_at: rfc3339(d.created_at),
            })
            .collect(),
    }
}

/// Saves `changes` to the reviewer's merchant's settings and shows the settings page at
/// `section` (its anchor, or none).
pub(super) async fn saved(
    state: &State,
    reviewer: &Reviewer,
    changes: SettingsChanges,
    section: &str,
) -> Result<HttpResponse, DashboardError> {
    state
        .merchants
        .change_settings(
            &reviewer.session.merchant_id,
            changes,
            &reviewer.initiator(),
        )
        .await?;
    Ok(redirect_to(format!("{SETTINGS}{section}")))
}

/// `POST /dashboard/settings`: the default expiry of new quizzes and the client's pages'
/// default language.
pub(super) async fn save(
    state: State,
    AdminPosted(Posted { reviewer, form }): AdminPosted<GeneralForm>,
) -> Result<HttpResponse, DashboardError> {
    saved(&state, &reviewer, form.try_into()?, "").await
}

/// `POST /dashboard/settings/retention` (admins): how long a decided profile keeps its
/// personal data, as `merchant/settings/update` sets `retention_days`; left empty, it is
/// kept.
pub(super) async fn save_retention(
    state: State,
    AdminPosted(Posted { reviewer, form }): AdminPosted<RetentionForm>,
) -> Result<HttpResponse, DashboardError> {
    saved(&state, &reviewer, form.try_into()?, "#retention").await
}

#[derive(Template)]
#[template(path = "dashboard/new_key.html")]
struct NewKeyPage<'a> {
    reviewer: &'a str,
    csrf_token: &'a str,
    key: &'a str,
    secret: &'a str,
}

/// `POST /dashboard/settings/keys`: a new API key; its secret is shown on this page and
/// never again (pages are never cached).
pub(super) async fn create_key(
    state: State,
    AdminPosted(Posted { reviewer, .. }): AdminPosted<Button>,
) -> Result<HttpResponse, DashboardError> {
    let session = &reviewer.session;
    let key = state
        .merchants
        .create_key(
            &session.merchant_id,
            KeyOptions::default(),
            &reviewer.initiator(),
        )
        .await?;
    tracing::info!(reviewer = %session.user_id, api_key = %key.key, "API key created in the dashboard");
    Ok(html(
        StatusCode::CREATED,
        &NewKeyPage {
            reviewer: session.email.as_str(),
            csrf_token: &session.csrf_token,
            key: key.key.as_str(),
            secret: key.secret.expose_secret(),
        },
    ))
}

/// `POST /dashboard/settings/keys/{key}/disable`: the key stops working at once, on
/// every instance within a second; another merchant's key is the 404 page.
pub(super) async fn disable_key(
    state: State,
    AdminPosted(Posted { reviewer, .. }): AdminPosted<Button>,
    key: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    let session = &reviewer.session;
    let key = ApiKeyId::new(key.into_inner());
    state
        .merchants
        .disable_key_of(&session.merchant_id, &key, &reviewer.initiator())
        .await?;
    tracing::info!(reviewer = %session.user_id, api_key = %key, "API key disabled in the dashboard");
    Ok(redirect_to(SETTINGS.to_owned()))
}
