//! The settings page's forms, each read into the `SettingsChanges` that
//! `merchant/settings/update` makes of the same choices: the rules are the domain's value
//! objects' (the policy's normal form included), what a refusal says is the dashboard's.

use std::collections::BTreeMap;

use domain::merchant::{Language, QuizExpiryDays, RetentionDays, SettingsChanges};
use domain::profile::Patch;
use domain::verification::proof_of_address::MaxAge;
use domain::verification::{MinimumAge, Policy};
use domain::watchlist::{ListName, Threshold};
use serde::Deserialize;

use super::DashboardError;

/// A whole number typed in a field, kept when `rule` takes it.
fn whole<T>(typed: &str, rule: impl FnOnce(i64) -> Option<T>) -> Option<T> {
    typed.trim().parse::<i64>().ok().and_then(rule)
}

/// `POST /dashboard/settings`: the default expiry of new quizzes and the client's pages'
/// default language.
#[derive(Deserialize)]
pub(super) struct GeneralForm {
    #[serde(default)]
    quiz_expiry_days: String,
    /// Absent (a form from before languages): kept.
    default_language: Option<String>,
}

impl TryFrom<GeneralForm> for SettingsChanges {
    type Error = DashboardError;

    fn try_from(form: GeneralForm) -> Result<Self, DashboardError> {
        let days =
            whole(&form.quiz_expiry_days, |d| QuizExpiryDays::new(d).ok()).ok_or_else(|| {
                DashboardError::not_saved(
                    "The default expiry is a whole number of days from 1 to 30.",
                )
            })?;
        let language = form
            .default_language
            .map(|code| Language::parse(code.trim()))
            .transpose()
            .map_err(|_| DashboardError::not_saved("The default language is en, fr or es."))?;
        Ok(Self {
            quiz_expiry_days: Some(days),
            default_language: language,
            ..Self::default()
        })
    }
}

/// `POST /dashboard/settings/retention`: how long a decided profile keeps its personal
/// data; left empty, it is kept.
#[derive(Deserialize)]
pub(super) struct RetentionForm {
    #[serde(default)]
    retention_days: String,
}

impl TryFrom<RetentionForm> for SettingsChanges {
    type Error = DashboardError;

    fn try_from(form: RetentionForm) -> Result<Self, DashboardError> {
        let retention_days = match form.retention_days.trim() {
            "" => Patch::Clear,
            days => whole(days, |d| RetentionDays::new(d).ok())
                .map(Patch::Set)
                .ok_or_else(|| {
                    DashboardError::not_saved(
                        "Retention is a whole number of days from 1 to 3650, or empty to keep personal data.",
                    )
                })?,
        };
        Ok(Self {
            retention_days,
            ..Self::default()
        })
    }
}

/// The prefix of a policy field's name: `policy.name_mismatch=decline`.
const POLICY_FIELD: &str = "policy.";

/// `POST /dashboard/settings/verification`: the minimum age, how old a proof of address
/// may be (kept when the form does not send it), automatic decisions, screening, and a
/// `policy.<reason>` choice per failure reason, which no struct's field can name.
#[derive(Deserialize)]
#[serde(transparent)]
pub(super) struct VerificationForm(BTreeMap<String, String>);

impl TryFrom<VerificationForm> for SettingsChanges {
    type Error = DashboardError;

    fn try_from(VerificationForm(form): VerificationForm) -> Result<Self, DashboardError> {
        let refused = || {
            DashboardError::not_saved(
                "The minimum age is a whole number of years from 1 to 120, a proof of address's age a whole number of days from 1 to 365, the screening threshold a score from 80 to 100, list names letters, digits, '.', '_' or '-' separated by commas, and each reason leads to decline or review.",
            )
        };
        let minimum_age = form
            .get("minimum_age")
            .and_then(|years| whole(years, |y| MinimumAge::new(y).ok()))
            .ok_or_else(refused)?;
        let proof_of_address_max_age = form
            .get("proof_of_address_max_age_days")
            .map(|days| whole(days, |d| MaxAge::new(d).ok()).ok_or_else(refused))
            .transpose()?;
        // The screening fields come together: a form without them keeps the settings.
        let screening_threshold = form
            .get("screening_threshold")
            .map(|score| whole(score, Threshold::new).ok_or_else(refused))
            .transpose()?;
        let screening_lists = form
            .get("screening_lists")
            .map(|names| {
                names
                    .split(',')
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .map(ListName::parse)
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(refused)
            })
            .transpose()?;
        // Checkboxes: sent only when ticked, so read only with the rest of their fields.
        let ticked = |name| screening_threshold.map(|_| form.get(name).is_some_and(|on| on == "1"));
        let chosen = form.iter().filter_map(|(name, decision)| {
            Some((name.strip_prefix(POLICY_FIELD)?, decision.as_str()))
        });
        Ok(Self {
            minimum_age: Some(minimum_age),
            proof_of_address_max_age,
            policy: Some(Policy::parse(chosen).map_err(|_| refused())?),
            auto_decision: Some(form.get("auto_decision").is_some_and(|on| on == "1")),
            screening: ticked("screening"),
            screening_lists,
            screening_threshold,
            face_search: ticked("face_search"),
            ..Self::default()
        })
    }
}
