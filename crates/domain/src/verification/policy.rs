//! The merchant's policy (contract §13): what each failure reason leads to, and the
//! outcome of a verification from its checks.

use std::collections::BTreeMap;
use strum::{EnumString, IntoStaticStr, VariantArray};

use super::check::{Check, CheckStatus, Reason};
use crate::validation::Invalid;

/// What a failure leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, VariantArray, IntoStaticStr, EnumString)]
#[strum(serialize_all = "snake_case")]
pub enum Decision {
    /// The verification is declined.
    Decline,
    /// A person looks at it.
    Review,
}

impl Decision {
    /// Its name in the API.
    pub fn as_str(&self) -> &'static str {
        self.into()
    }

    /// The decision of this name.
    pub fn parse(name: &str) -> Option<Self> {
        name.parse().ok()
    }
}

/// Where a verification stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, VariantArray, IntoStaticStr, EnumString)]
#[strum(serialize_all = "snake_case")]
pub enum VerificationStatus {
    /// Queued or running.
    Pending,
    /// No check failed.
    Passed,
    /// A check failed that the policy sends to a person.
    Review,
    /// A check failed that the policy declines.
    Declined,
}

impl VerificationStatus {
    /// Its name in the API.
    pub fn as_str(&self) -> &'static str {
        self.into()
    }

    /// The status of this name.
    pub fn parse(name: &str) -> Option<Self> {
        name.parse().ok()
    }
}

/// The reasons a merchant's policy declines unless it says otherwise: the ones no person
/// could overrule by looking (contract §13).
const DECLINED_BY_DEFAULT: [Reason; 3] = [
    Reason::DocumentExpired,
    Reason::MinimumAgeNotMet,
    Reason::SsnInvalid,
];

/// What `reason` leads to when the merchant has not chosen.
fn default_decision(reason: Reason) -> Decision {
    if DECLINED_BY_DEFAULT.contains(&reason) {
        Decision::Decline
    } else {
        Decision::Review
    }
}

/// A merchant's choices, over the default: each failure reason it names leads to the
/// decision it gives; every other reason keeps its default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy(BTreeMap<Reason, Decision>);

impl Policy {
    /// The merchant's choices, as sent (`{"name_mismatch": "decline", ...}`): each key a
    /// failure reason, each value `decline` or `review`. Its normal form keeps only the
    /// choices that differ from the default, so the API (which sends a few) and the
    /// dashboard (whose form sends every reason) store the same policy for the same
    /// choice, and a reason left at its default follows the default.
    pub fn parse<'a>(
        choices: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, Invalid> {
        let mut chosen = BTreeMap::new();
        for (code, decision) in choices {
            let reason = Reason::parse(code)
                .filter(Reason::is_failure)
                .ok_or_else(|| Invalid::new(format!("names no failure reason: {code:?}")))?;
            let decision = Decision::parse(decision)
                .ok_or_else(|| Invalid::new(format!("{code} must be \"decline\" or \"review\"")))?;
            if decision == default_decision(reason) {
                chosen.remove(&reason);
            } else {
                chosen.insert(reason, decision);
            }
        }
        Ok(Self(chosen))
    }

    /// What `reason` leads to under this policy.
    pub fn decision(&self, reason: Reason) -> Decision {
        self.0
            .get(&reason)
            .copied()
            .unwrap_or_else(|| default_decision(reason))
    }

    /// Every failure reason with what it leads to, in a stable order: what a merchant
    /// reads back.
    pub fn effective(&self) -> Vec<(Reason, Decision)> {
        Reason::ALL
            .iter()
            .copied()
            .filter(Reason::is_failure)
            .map(|r| (r, self.decision(r)))
            .collect()
    }

    /// The merchant's own choices only, those that differ from the default (what is
    /// stored).
    pub fn choices(&self) -> impl Iterator<Item = (Reason, Decision)> + '_ {
        self.0.iter().map(|(r, d)| (*r, *d))
    }

    /// The outcome of a verification with these checks: declined when a failure reason
    /// declines, review when a check failed otherwise, passed when none failed.
    pub fn outcome(&self, checks: &[Check]) -> VerificationStatus {
        let failures = checks
            .iter()
            .filter(|c| c.status == CheckStatus::Failed)
            .flat_map(|c| c.reasons.iter().copied());
        let mut outcome = VerificationStatus::Passed;
        for reason in failures {
            match self.decision(reason) {
                Decision::Decline => return VerificationStatus::Declined,
                Decision::Review => outcome = VerificationStatus::Review,
            }
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verification::check::CheckName;

    fn failed(reason: Reason) -> Check {
        Check::failed(CheckName::SsnFormat, vec![reason], Vec::new())
    }

    #[test]
    fn by_default_expiry_age_and_an_impossible_ssn_decline_and_the_rest_go_to_review() {
        let policy = Policy::default();
        assert_eq!(policy.outcome(&[]), VerificationStatus::Passed);
        let na = Check::not_applicable(CheckName::FaceMatch, Reason::FaceMatcherUnavailable);
        assert_eq!(
            policy.outcome(std::slice::from_ref(&na)),
            VerificationStatus::Passed
        );
        for reason in DECLINED_BY_DEFAULT {
            assert_eq!(
                policy.outcome(&[failed(reason)]),
                VerificationStatus::Declined
            );
        }
        assert_eq!(
            policy.outcome(&[failed(Reason::NameMismatch), na]),
            VerificationStatus::Review
        );
        assert_eq!(
            policy.outcome(&[failed(Reason::NameMismatch), failed(Reason::SsnInvalid)]),
            VerificationStatus::Declined,
            "one decline is enough"
        );
    }

    #[test]
    fn a_merchants_choices_override_the_default_and_only_failure_reasons_may_be_chosen() {
        let policy =
            Policy::parse([("name_mismatch", "decline"), ("ssn_invalid", "review")]).expect("ok");
        assert_eq!(
            policy.outcome(&[failed(Reason::NameMismatch)]),
            VerificationStatus::Declined
        );
        assert_eq!(
            policy.outcome(&[failed(Reason::SsnInvalid)]),
            VerificationStatus::Review
        );
        assert_eq!(
            policy.decision(Reason::MinimumAgeNotMet),
            Decision::Decline,
            "unnamed reasons keep their default"
        );
        assert_eq!(policy.effective().len(), 37);
        assert_eq!(policy.choices().count(), 2);
        // A choice of the default is no choice: the same policy, however it was sent.
        let with_defaults = Policy::parse([
            ("name_mismatch", "decline"),
            ("ssn_invalid", "review"),
            ("document_expired", "decline"),
            ("address_mismatch", "review"),
        ])
        .expect("ok");
        assert_eq!(with_defaults, policy);
        let changed_back =
            Policy::parse([("name_mismatch", "decline"), ("name_mismatch", "review")]);
        assert_eq!(changed_back.expect("ok"), Policy::default());
        assert!(Policy::parse([("no_ssn", "decline")]).is_err());
        assert!(Policy::parse([("nothing", "decline")]).is_err());
        assert!(Policy::parse([("name_mismatch", "approve")]).is_err());
    }
}
