//! The quiz: the verification link a merchant sends a client.

mod redirect;

use time::{Duration, OffsetDateTime};

use crate::error::{DomainError, Resource};
use crate::ids::{QuizId, QuizToken, ShortCode, TemplateId};
use crate::merchant::{MerchantId, QuizExpiryDays};
use crate::profile::{Profile, ProfileId};
use crate::template::{Feature, FeatureList, FeatureSet, Requirement, StepKind};
use crate::validation::Invalid;

pub use redirect::{MAX_REDIRECT_URL_LEN, RedirectUrl};

/// The template a quiz was built from, as it was then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateSnapshot {
    /// `Some` when a stored template was used; `None` for a temporary one.
    pub template_id: Option<TemplateId>,
    /// The template's name then (`Custom` for a list sent with the quiz).
    pub name: String,
    /// The steps asked for, as they were when the quiz was made.
    pub list: FeatureList,
    /// When that template was created.
    pub created_at: OffsetDateTime,
}

impl TemplateSnapshot {
    /// Whether the list was sent with the quiz rather than taken from a stored template.
    pub fn is_custom(&self) -> bool {
        self.template_id.is_none()
    }
}

/// Where a quiz stands at a given moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuizState {
    /// The client can still hand in steps.
    Active,
    /// By time (`expires_at` reached) or by the merchant (quiz/expire).
    Expired,
    /// The client completed it.
    Submitted,
    /// Withdrawn by the merchant; the link is gone.
    Deleted,
}

/// A verification link sent to one client, and where the client stands with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quiz {
    /// Its id (a ULID).
    pub id: QuizId,
    /// The merchant that sent it.
    pub merchant_id: MerchantId,
    /// The client it was sent to.
    pub profile_id: ProfileId,
    /// The secret of the long address; unguessable (32 random bytes).
    pub token: QuizToken,
    /// The secret of the short address (10 base62 characters).
    pub code: ShortCode,
    /// The steps it asks for, fixed when it was sent.
    pub template: TemplateSnapshot,
    /// How many days it stays valid, counted from when it was sent or last extended.
    pub expiry_days: QuizExpiryDays,
    /// When it was sent.
    pub created_at: OffsetDateTime,
    /// When it expires by time.
    pub expires_at: OffsetDateTime,
    /// Set when the merchant ended the quiz early.
    pub expired_at: Option<OffsetDateTime>,
    /// When the client completed it.
    pub submitted_at: Option<OffsetDateTime>,
    /// When the merchant withdrew it.
    pub deleted_at: Option<OffsetDateTime>,
    /// When the client first opened the link.
    pub opened_at: Option<OffsetDateTime>,
    /// The steps the client has done.
    pub completed: FeatureSet,
    /// Where the client's browser goes after submitting it, if the merchant said.
    pub redirect_url: Option<RedirectUrl>,
}

impl Quiz {
    /// The steps the template asks for (required or optional), in order.
    pub fn steps(&self) -> impl Iterator<Item = (Feature, Requirement)> + '_ {
        self.template
            .list
            .iter()
            .filter(|(_, r)| *r != Requirement::NotRequired)
    }

    /// Whether the quiz asks for `feature` (required or optional).
    pub fn asks_for(&self, feature: Feature) -> bool {
        self.template.list.get(feature) != Requirement::NotRequired
    }

    /// Required steps not done yet. Provider steps count: without a provider they cannot
    /// be done, and the quiz says so rather than pretending.
    pub fn missing_steps(&self) -> Vec<Feature> {
        self.steps()
            .filter(|(f, r)| *r == Requirement::Required && !self.completed.contains(*f))
            .map(|(f, _)| f)
            .collect()
    }

    /// Whether any required step needs a provider this service does not have.
    pub fn needs_provider(&self) -> Vec<Feature> {
        self.steps()
            .filter(|(f, r)| *r == Requirement::Required && f.kind() == StepKind::Provider)
            .map(|(f, _)| f)
            .collect()
    }

    /// Valid for exactly `days` × 24 hours from `now`.
    pub fn expires_at(now: OffsetDateTime, days: QuizExpiryDays) -> OffsetDateTime {
        now + Duration::days(i64::from(days.days()))
    }

    /// Whether it has ended by time or by the merchant at `now`.
    pub fn is_expired(&self, now: OffsetDateTime) -> bool {
        self.expired_at.is_some() || now >= self.expires_at
    }

    /// Makes it valid for `days` from `now` (quiz/extend), which may also shorten it; an
    /// end by time or by the merchant is undone, so an expired quiz opens again. A
    /// submitted quiz stays closed (`QuizSubmitted`); a deleted one is gone (`NotFound`).
    pub fn extend(&mut self, days: QuizExpiryDays, now: OffsetDateTime) -> Result<(), DomainError> {
        match self.state(now) {
            QuizState::Deleted => return Err(DomainError::NotFound(Resource::Quiz)),
            QuizState::Submitted => return Err(DomainError::QuizSubmitted),
            QuizState::Active | QuizState::Expired => {}
        }
        self.expiry_days = days;
        self.expires_at = Self::expires_at(now, days);
        self.expired_at = None;
        Ok(())
    }

    /// Where the quiz stands at `now`: deleted, submitted and expired win over active, in that order.
    pub fn state(&self, now: OffsetDateTime) -> QuizState {
        if self.deleted_at.is_some() {
            QuizState::Deleted
        } else if self.submitted_at.is_some() {
            QuizState::Submitted
        } else if self.is_expired(now) {
            QuizState::Expired
        } else {
            QuizState::Active
        }
    }
}

/// A quiz with the client it was sent to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuizWithClient {
    /// The quiz.
    pub quiz: Quiz,
    /// Its client's profile.
    pub client: Profile,
}

/// What one quiz link has added so far: every document, those another upload of the same
/// step and side replaced included (a link is a public credential: re-uploading one side
/// must not make the service store and analyse without end).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QuizUsage {
    /// Documents the link added.
    pub documents: u64,
    /// The sizes of their files, added up.
    pub bytes: u64,
}

/// How much one quiz link may add: a link is a public credential, so what it can make the
/// service store is bounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UploadLimits {
    /// Documents one link may add.
    pub max_documents: u64,
    /// Bytes of files one link may add.
    pub max_bytes: u64,
}

impl Default for UploadLimits {
    /// 20 documents and 100 MiB of files per quiz.
    fn default() -> Self {
        Self {
            max_documents: 20,
            max_bytes: 100 * 1024 * 1024,
        }
    }
}

impl UploadLimits {
    /// Whether `usage` plus one more document of `bytes` stays within the limits.
    pub fn admits(&self, usage: QuizUsage, bytes: u64) -> bool {
        usage.documents < self.max_documents && usage.bytes.saturating_add(bytes) <= self.max_bytes
    }

    /// The file bytes one more document may still carry (`None`: no more documents).
    pub fn room(&self, usage: QuizUsage) -> Option<u64> {
        (usage.documents < self.max_documents && usage.bytes < self.max_bytes)
            .then(|| self.max_bytes - usage.bytes)
    }
}

/// The days a new quiz stays valid: the requested number when it is a whole number from
/// 1 to 30, otherwise (absent, null, 0, 31, not a number) the merchant's default.
pub fn expiry_days(requested: Option<i64>, merchant_default: QuizExpiryDays) -> QuizExpiryDays {
    requested
        .and_then(|days| QuizExpiryDays::new(days).ok())
        .unwrap_or(merchant_default)
}

/// How a merchant names a quiz: by its long or its short address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QuizLink {
    /// By the long address's token.
    Token(QuizToken),
    /// By the short address's code.
    Code(ShortCode),
}

impl QuizLink {
    /// Reads `{public_url}/quiz/{token}` or `{public_url}/q/{code}`, with or without a
    /// trailing slash, query or fragment. The host is not compared: the same quiz may be
    /// reached through several names.
    pub fn parse(url: &str) -> Result<Self, Invalid> {
        let invalid = || Invalid::new("must be a quiz address: .../quiz/{token} or .../q/{code}");
        let url = url.trim();
        let url = url.split(['?', '#']).next().unwrap_or_default();
        let mut segments = url.trim_end_matches('/').rsplit('/');
        let (secret, kind) = (
            segments.next().ok_or_else(invalid)?,
            segments.next().ok_or_else(invalid)?,
        );
        let valid = !secret.is_empty()
            && secret.len() <= 64
            && secret
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        match kind {
            "quiz" if valid => Ok(Self::Token(QuizToken::new(secret))),
            "q" if valid => Ok(Self::Code(ShortCode::new(secret))),
            _ => Err(invalid()),
        }
    }
}

/// The two addresses of a quiz under the service's public URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuizLinks {
    /// `{public_url}/quiz/{token}`.
    pub long_url: String,
    /// `{public_url}/q/{code}`.
    pub tiny_url: String,
}

impl QuizLinks {
    /// The addresses of `quiz` under `public_url`.
    pub fn of(public_url: &str, quiz: &Quiz) -> Self {
        let base = public_url.trim_end_matches('/');
        Self {
            long_url: format!("{base}/quiz/{}", quiz.token.as_str()),
            tiny_url: format!("{base}/q/{}", quiz.code.as_str()),
        }
    }

    /// The same addresses without their token and code ([`redacted_address`]).
    pub fn redacted(&self) -> Self {
        Self {
            long_url: redacted_address(&self.long_url),
            tiny_url: redacted_address(&self.tiny_url),
        }
    }
}

/// What stands in a redacted quiz address for its token or code.
pub const REDACTED: &str = "redacted";

/// A quiz address without its secret: the token of `.../quiz/{token}` or the code of
/// `.../q/{code}` replaced by [`REDACTED`]; any other text as it is. A link is the
/// client's credential: whoever holds it acts as the client.
pub fn redacted_address(url: &str) -> String {
    ["/quiz/", "/q/"]
        .iter()
        .find_map(|marker| {
            let at = url.rfind(marker)?;
            Some(format!("{}{marker}{REDACTED}", &url[..at]))
        })
        .unwrap_or_else(|| url.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-11-22 10:00 UTC);

    #[test]
    fn a_redacted_address_keeps_no_token_nor_code() {
        assert_eq!(
            redacted_address("https://idv.example/quiz/tok123abc"),
            "https://idv.example/quiz/redacted"
        );
        assert_eq!(
            redacted_address("https://idv.example/base/q/AbC12"),
            "https://idv.example/base/q/redacted"
        );
        assert_eq!(redacted_address(""), "");
    }

    fn days(n: i64) -> QuizExpiryDays {
        QuizExpiryDays::new(n).expect("valid")
    }

    fn quiz(days_valid: i64) -> Quiz {
        let d = days(days_valid);
        Quiz {
            id: "q1".into(),
            merchant_id: MerchantId::new("m1"),
            profile_id: ProfileId::new("p1"),
            token: "t".into(),
            code: "c".into(),
            template: TemplateSnapshot {
                template_id: None,
                name: "Custom".into(),
                list: FeatureList::default(),
                created_at: NOW,
            },
            expiry_days: d,
            created_at: NOW,
            expires_at: Quiz::expires_at(NOW, d),
            expired_at: None,
            submitted_at: None,
            deleted_at: None,
            opened_at: None,
            completed: FeatureSet::default(),
            redirect_url: None,
        }
    }

    #[test]
    fn missing_steps_are_the_required_ones_not_done() {
        let mut q = quiz(5);
        q.template
            .list
            .set(Feature::SelfieUpload, Requirement::Required);
        q.template
            .list
            .set(Feature::SsnSubmit, Requirement::Optional);
        q.template
            .list
            .set(Feature::GoogleLogin, Requirement::Required);
        assert_eq!(
            q.missing_steps(),
            [Feature::SelfieUpload, Feature::GoogleLogin]
        );
        assert_eq!(q.needs_provider(), [Feature::GoogleLogin]);
        q.completed.insert(Feature::SelfieUpload);
        assert_eq!(q.missing_steps(), [Feature::GoogleLogin]);
        assert!(q.asks_for(Feature::SsnSubmit));
        assert!(!q.asks_for(Feature::PassportUpload));
    }

    #[test]
    fn a_quiz_expires_at_the_end_of_its_last_day() {
        for n in [1, 5, 30] {
            let q = quiz(n);
            let end = NOW + Duration::days(n);
            assert!(
                !q.is_expired(end - Duration::seconds(1)),
                "{n} days: still valid"
            );
            assert!(q.is_expired(end), "{n} days: expired");
            assert_eq!(q.state(end), QuizState::Expired);
        }
    }

    #[test]
    fn requested_days_from_1_to_30_win_otherwise_the_merchant_default() {
        let default = days(5);
        assert_eq!(expiry_days(Some(1), default), days(1));
        assert_eq!(expiry_days(Some(30), default), days(30));
        assert_eq!(expiry_days(Some(0), default), default);
        assert_eq!(expiry_days(Some(31), default), default);
        assert_eq!(expiry_days(Some(-2), default), default);
        assert_eq!(
            expiry_days(None, default),
            default,
            "absent, null or not a number"
        );
        assert_eq!(
            expiry_days(None, days(12)),
            days(12),
            "the merchant's own default"
        );
        assert_eq!(expiry_days(Some(45), days(12)), days(12));
    }

    #[test]
    fn states_follow_the_merchant_the_client_and_the_clock() {
        let mut q = quiz(5);
        assert_eq!(q.state(NOW), QuizState::Active);
        q.expired_at = Some(NOW);
        assert_eq!(q.state(NOW), QuizState::Expired);
        q.submitted_at = Some(NOW);
        assert_eq!(q.state(NOW), QuizState::Submitted);
        q.deleted_at = Some(NOW);
        assert_eq!(q.state(NOW), QuizState::Deleted);
    }

    #[test]
    fn extending_reopens_an_expired_quiz_from_now_but_never_a_closed_one() {
        let later = NOW + Duration::days(9);
        let mut by_time = quiz(5);
        assert_eq!(by_time.state(later), QuizState::Expired);
        by_time.extend(days(2), later).expect("extended");
        assert_eq!(by_time.state(later), QuizState::Active);
        assert_eq!(by_time.expires_at, later + Duration::days(2));
        assert_eq!(by_time.expiry_days, days(2));

        let mut by_merchant = quiz(30);
        by_merchant.expired_at = Some(NOW);
        by_merchant.extend(days(1), NOW).expect("extended");
        assert_eq!(by_merchant.expired_at, None);
        assert_eq!(by_merchant.state(NOW), QuizState::Active);
        assert_eq!(by_merchant.expires_at, NOW + Duration::days(1), "shortened");

        let mut submitted = quiz(5);
        submitted.submitted_at = Some(NOW);
        let before = submitted.clone();
        assert!(matches!(
            submitted.extend(days(3), NOW),
            Err(DomainError::QuizSubmitted)
        ));
        let mut deleted = quiz(5);
        deleted.deleted_at = Some(NOW);
        assert!(matches!(
            deleted.extend(days(3), NOW),
            Err(DomainError::NotFound(Resource::Quiz))
        ));
        assert_eq!(submitted, before, "a refused extension changes nothing");
    }

    #[test]
    fn links_parse_from_either_address() {
        assert_eq!(
            QuizLink::parse("https://idv.example/quiz/AbC-_9"),
            Ok(QuizLink::Token("AbC-_9".into()))
        );
        assert_eq!(
            QuizLink::parse("http://h:8080/q/0123456789/"),
            Ok(QuizLink::Code("0123456789".into()))
        );
        assert_eq!(
            QuizLink::parse("/q/abc?x=1"),
            Ok(QuizLink::Code("abc".into()))
        );
        assert!(QuizLink::parse("https://idv.example/other/abc").is_err());
        assert!(QuizLink::parse("abc").is_err());
        assert!(QuizLink::parse("https://idv.example/quiz/").is_err());
        assert!(QuizLink::parse("https://idv.example/quiz/a%2Fb").is_err());
    }

    #[test]
    fn links_are_built_under_the_public_url() {
        let links = QuizLinks::of("https://idv.example/", &quiz(5));
        assert_eq!(links.long_url, "https://idv.example/quiz/t");
        assert_eq!(links.tiny_url, "https://idv.example/q/c");
    }
}
