use domain::merchant::{Language, QuizExpiryDays, RetentionDays, SettingsChanges};
use domain::verification::{MinimumAge, Policy};

use crate::api::dto::merchant::SettingsView;
use crate::api::dto::requests::{SETTINGS, SettingsRequest};
use crate::api::handlers::{Answer, State};
use crate::api::signed::Signed;
use crate::envelope::{Envelope, Reply};
use crate::fields::Fields;

/// Change any of the merchant's settings: the default quiz expiry, the minimum age, the
/// verification policy, automatic decisions, the client's pages' default language,
/// retention (`retention_days`: `null` keeps personal data). Those not sent are kept.
#[utoipa::path(post, path = "/api/v1/merchant/settings/update", tag = "merchant",
    request_body = SettingsRequest,
    responses((status = 200, description = "The settings, all of them", body = Envelope<SettingsView>)))]
pub async fn handle(state: State, req: Signed) -> Answer<SettingsView> {
    let mut f = Fields::new(&req.body);
    // Nothing to change reads as the one setting there always was.
    let nothing = !SETTINGS.iter().any(|name| f.has(name));
    let days = f.integer("quiz_expiry_days", nothing);
    let days = f.check("quiz_expiry_days", days, QuizExpiryDays::new);
    let age = f.integer("minimum_age", false);
    let age = f.check("minimum_age", age, MinimumAge::new);
    let policy = f.object("policy", false).map(|choices| {
        choices
            .iter()
            .map(|(reason, decision)| (reason.as_str(), decision.as_str().unwrap_or_default()))
            .collect::<Vec<_>>()
    });
    let policy = f.check("policy", policy, Policy::parse);
    let auto_decision = f.flag("auto_decision");
    let language = f.text("default_language");
    let language = f.check("default_language", language, |code| Language::parse(&code));
    let retention_days = f.integer_patch("retention_days", RetentionDays::new);
    let changes = f.finish(|| {
        Some(SettingsChanges {
            quiz_expiry_days: days,
            minimum_age: age,
            policy,
            auto_decision,
            default_language: language,
            retention_days,
        })
    })?;
    let saved = state
        .merchants
        .change_settings(&req.merchant, changes)
        .await?;
    Ok(Reply::ok(SettingsView::of(&saved)))
}
