//! Webhooks: endpoints a merchant registers, and the deliveries every event of its log
//! owes them (contract §9, Standard Webhooks). An event and its deliveries are stored in
//! one transaction, so what was acknowledged always reaches the endpoint, at least once.

mod address;
mod reach;
mod schedule;

use std::hash::{Hash, Hasher};

pub(crate) use address::names_a_host;
pub use address::{MAX_URL_LEN, WebhookUrl};
pub use reach::Reach;
pub use schedule::{
    ANSWER_TIMEOUT, Answer, JITTER, MAX_ATTEMPTS, Outcome, RETRY_DELAYS, judge, retry_delay,
};
use secrecy::{ExposeSecret, SecretString};
use strum::{EnumString, IntoStaticStr};
use time::{Duration, OffsetDateTime};

use crate::event::EventStatus;
use crate::event::{Activity, Event};
use crate::ids::{DeliveryId, DocumentId, EventId, WebhookId};
use crate::merchant::MerchantId;
use crate::validation::Invalid;

/// Endpoints a merchant may hold.
pub const MAX_WEBHOOKS: usize = 16;
/// How long a replaced secret keeps signing, so receivers can switch without a gap.
pub const ROTATION_OVERLAP: Duration = Duration::hours(24);
/// What every webhook secret starts with.
pub const SECRET_PREFIX: &str = "whsec_";
/// Random bytes in a secret.
pub const SECRET_BYTES: usize = 32;
/// The longest description.
pub const MAX_DESCRIPTION: usize = 255;

/// A merchant's endpoint.
#[derive(Debug, Clone)]
pub struct Webhook {
    /// Its id.
    pub id: WebhookId,
    /// The merchant it belongs to.
    pub merchant_id: MerchantId,
    /// Where deliveries go.
    pub url: WebhookUrl,
    /// Which activities it receives.
    pub events: EventFilter,
    /// The merchant's words about it (may be empty).
    pub description: String,
    /// Whether deliveries are attempted (a 410 answer turns this off).
    pub enabled: bool,
    /// Signs every delivery.
    pub secret: WebhookSecret,
    /// The secret replaced by the last rotation, signing too until it retires.
    pub previous_secret: Option<RetiringSecret>,
    /// When it was registered.
    pub created_at: OffsetDateTime,
    /// When it was last changed.
    pub updated_at: OffsetDateTime,
}

impl Webhook {
    /// The secrets a delivery made at `now` is signed with: the current one, and the
    /// previous one while it has not retired.
    pub fn signing_secrets(&self, now: OffsetDateTime) -> Vec<&WebhookSecret> {
        let retiring = self
            .previous_secret
            .as_ref()
            .filter(|p| p.until > now)
            .map(|p| &p.secret);
        std::iter::once(&self.secret).chain(retiring).collect()
    }

    /// Whether an event of this activity is sent here (enabled or not).
    pub fn wants(&self, activity: Activity) -> bool {
        self.events.matches(activity)
    }
}

/// A replaced secret and when it stops signing.
#[derive(Debug, Clone)]
pub struct RetiringSecret {
    /// The secret.
    pub secret: WebhookSecret,
    /// When it stops signing.
    pub until: OffsetDateTime,
}

/// The activities an endpoint receives; empty means all, including those added later.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventFilter(Vec<Activity>);

impl EventFilter {
    /// Activity names as a caller sends them: each must be known; repeats count once.
    pub fn parse<S: AsRef<str>>(names: &[S]) -> Result<Self, Invalid> {
        let mut chosen = Vec::new();
        for name in names {
            let name = name.as_ref();
            let activity = Activity::parse(name)
                .ok_or_else(|| Invalid::new(format!("holds an unknown activity: {name:?}")))?;
            if !chosen.contains(&activity) {
                chosen.push(activity);
            }
        }
        Ok(Self(chosen))
    }

    /// Whether `activity` is received.
    pub fn matches(&self, activity: Activity) -> bool {
        self.0.is_empty() || self.0.contains(&activity)
    }

    /// The chosen activities (empty for all).
    pub fn activities(&self) -> &[Activity] {
        &self.0
    }
}

/// A signing secret: `whsec_` and the standard base64 of 32 random bytes. Its `Debug`
/// never shows it.
#[derive(Clone)]
pub struct WebhookSecret(SecretString);

impl WebhookSecret {
    /// A new secret from a random base64url token of [`SECRET_BYTES`] bytes (what the
    /// secret generator makes), written in the standard alphabet receivers decode.
    pub fn from_url_token(token: &str) -> Self {
        let mut standard: String = token
            .chars()
            .map(|c| match c {
                '-' => '+',
                '_' => '/',
                c => c,
            })
            .collect();
        while !standard.len().is_multiple_of(4) {
            standard.push('=');
        }
        Self::stored(format!("{SECRET_PREFIX}{standard}"))
    }

    /// A secret read back from storage.
    pub fn stored(secret: impl Into<String>) -> Self {
        Self(SecretString::from(secret.into()))
    }

    /// The whole secret, `whsec_...`: shown to the merchant once, and used to sign.
    pub fn expose(&self) -> &str {
        self.0.expose_secret()
    }
}

impl std::fmt::Debug for WebhookSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WebhookSecret(…)")
    }
}

/// A description: at most 255 characters, trimmed.
pub fn parse_description(raw: &str) -> Result<String, Invalid> {
    let text = raw.trim();
    if text.chars().count() > MAX_DESCRIPTION {
        return Err(Invalid::new(format!(
            "must be at most {MAX_DESCRIPTION} characters"
        )));
    }
    Ok(text.to_owned())
}

/// Where a delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, IntoStaticStr, EnumString)]
#[strum(serialize_all = "snake_case")]
pub enum DeliveryStatus {
    /// Waiting for its next attempt.
    Pending,
    /// Answered 2xx.
    Succeeded,
    /// Given up (or its endpoint answered 410).
    Failed,
}

impl DeliveryStatus {
    /// The interface's name.
    pub fn as_str(&self) -> &'static str {
        self.into()
    }

    /// The status with this name, if any.
    pub fn parse(name: &str) -> Option<Self> {
        name.parse().ok()
    }
}

/// One event owed to one endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    /// Its id.
    pub id: DeliveryId,
    /// The endpoint.
    pub webhook_id: WebhookId,
    /// The merchant of both.
    pub merchant_id: MerchantId,
    /// The event delivered (also the `webhook-id` header: the same on every attempt).
    pub event_id: EventId,
    /// The event's activity (the payload's `type`).
    pub activity: Activity,
    /// Where it stands.
    pub status: DeliveryStatus,
    /// Attempts made so far.
    pub attempts: u32,
    /// The status of the last answer (`None` if there was none).
    pub last_status_code: Option<u16>,
    /// Why the last attempt failed, if it did.
    pub last_error: Option<String>,
    /// When it is tried next (`None` once it succeeded or failed).
    pub next_attempt_at: Option<OffsetDateTime>,
    /// When the event was made.
    pub created_at: OffsetDateTime,
    /// When it succeeded.
    pub delivered_at: Option<OffsetDateTime>,
}

impl Delivery {
    /// The first delivery of `event` to `webhook`, due at once.
    pub fn owed(id: DeliveryId, webhook: &WebhookId, event: &Event) -> Self {
        Self {
            id,
            webhook_id: webhook.clone(),
            merchant_id: event.merchant_id.clone(),
            event_id: event.id.clone(),
            activity: event.activity,
            status: DeliveryStatus::Pending,
            attempts: 0,
            last_status_code: None,
            last_error: None,
            next_attempt_at: Some(event.created_at),
            created_at: event.created_at,
            delivered_at: None,
        }
    }

    /// Due again at `now`, whatever it came to before (the merchant's retry).
    pub fn retry_now(&mut self, now: OffsetDateTime) {
        self.status = DeliveryStatus::Pending;
        self.next_attempt_at = Some(now);
    }

    /// Records one attempt made at `now` and its answer; says what it meant.
    pub fn record(&mut self, answer: &Answer, now: OffsetDateTime) -> Outcome {
        self.attempts += 1;
        let outcome = judge(answer, self.attempts, now, self.jitter());
        (self.last_status_code, self.last_error) = match answer {
            Answer::Status { code, .. } if (200..300).contains(code) => (Some(*code), None),
            Answer::Status { code, .. } => (Some(*code), Some(format!("answered {code}"))),
            Answer::NoAnswer(why) => (None, Some(why.clone())),
        };
        (self.status, self.next_attempt_at, self.delivered_at) = match outcome {
            Outcome::Succeeded => (DeliveryStatus::Succeeded, None, Some(now)),
            Outcome::Retry(at) => (DeliveryStatus::Pending, Some(at), None),
            Outcome::Failed | Outcome::EndpointGone => (DeliveryStatus::Failed, None, None),
        };
        outcome
    }

    /// A number in `[-1, 1]` that differs between deliveries and attempts, so that
    /// deliveries that failed together spread out; derived, not drawn, so the rules stay
    /// free of a random source.
    fn jitter(&self) -> f64 {
        let mut hasher = std::hash::DefaultHasher::new();
        (self.id.as_str(), self.attempts).hash(&mut hasher);
        (hasher.finish() % 2001) as f64 / 1000.0 - 1.0
    }
}

/// What a delivery tells the endpoint: the event, and whom it is about by e-mail and
/// mobile only. Taken from the event when it is made, so every attempt sends the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    /// The event's id.
    pub event_id: EventId,
    /// What happened.
    pub activity: Activity,
    /// The event's sentence.
    pub details: String,
    /// The template's name, for quiz events.
    pub template_used: String,
    /// The quiz's short address, for quiz events.
    pub url: String,
    /// The profile's status after the event.
    pub status: EventStatus,
    /// When it happened.
    pub created_at: OffsetDateTime,
    /// The profile's e-mail address.
    pub email_address: String,
    /// The profile's mobile number.
    pub mobile_number: String,
    /// The document, for document events.
    pub document_id: Option<DocumentId>,
    /// The quiz's long address, for quiz events.
    pub quiz_url: Option<String>,
}

impl Notification {
    /// What `event` tells its endpoints.
    pub fn of(event: &Event) -> Self {
        let subject = event.subject.clone();
        let (email_address, mobile_number, document_id, quiz_url) = match subject {
            Some(s) => (s.email_address, s.mobile_number, s.document_id, s.quiz_url),
            None => Default::default(),
        };
        Self {
            event_id: event.id.clone(),
            activity: event.activity,
            details: event.details.clone(),
            template_used: event.template_used.clone(),
            url: event.url.clone(),
            status: event.status,
            created_at: event.created_at,
            email_address,
            mobile_number,
            document_id,
            quiz_url,
        }
    }
}

/// A delivery claimed for an attempt, with what the attempt needs.
#[derive(Debug, Clone)]
pub struct DueDelivery {
    /// The delivery, as claimed.
    pub delivery: Delivery,
    /// Its endpoint.
    pub webhook: Webhook,
    /// What it sends.
    pub notification: Notification,
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-11-22 10:00 UTC);

    fn delivery() -> Delivery {
        Delivery {
            id: "d1".into(),
            webhook_id: "w1".into(),
            merchant_id: MerchantId::new("m1"),
            event_id: "e1".into(),
            activity: Activity::ProfileCreated,
            status: DeliveryStatus::Pending,
            attempts: 0,
            last_status_code: None,
            last_error: None,
            next_attempt_at: Some(NOW),
            created_at: NOW,
            delivered_at: None,
        }
    }

    fn webhook(previous_until: Option<OffsetDateTime>) -> Webhook {
        Webhook {
            id: "w1".into(),
            merchant_id: MerchantId::new("m1"),
            url: WebhookUrl::stored("https://example.com/"),
            events: EventFilter::default(),
            description: String::new(),
            enabled: true,
            secret: WebhookSecret::stored("whsec_new"),
            previous_secret: previous_until.map(|until| RetiringSecret {
                secret: WebhookSecret::stored("whsec_old"),
                until,
            }),
            created_at: NOW,
            updated_at: NOW,
        }
    }

    #[test]
    fn secrets_are_standard_base64_of_32_bytes() {
        // 32 bytes in base64url without padding: 43 characters.
        let secret = WebhookSecret::from_url_token("-_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO");
        assert_eq!(
            secret.expose(),
            "whsec_+/abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO="
        );
        assert_eq!(format!("{secret:?}"), "WebhookSecret(…)");
    }

    #[test]
    fn a_rotated_secret_signs_until_it_retires() {
        let names = |w: &Webhook, at| -> Vec<String> {
            w.signing_secrets(at)
                .iter()
                .map(|s| s.expose().to_owned())
                .collect()
        };
        let rotated = webhook(Some(NOW + ROTATION_OVERLAP));
        assert_eq!(names(&rotated, NOW), ["whsec_new", "whsec_old"]);
        assert_eq!(names(&rotated, NOW + ROTATION_OVERLAP), ["whsec_new"]);
        assert_eq!(names(&webhook(None), NOW), ["whsec_new"]);
    }

    #[test]
    fn filters_take_known_activities_and_empty_means_all() {
        let all = EventFilter::parse::<&str>(&[]).expect("empty");
        assert!(Activity::ALL.iter().all(|a| all.matches(*a)));
        let some = EventFilter::parse(&["note_created", "note_created"]).expect("known");
        assert_eq!(some.activities(), [Activity::NoteCreated]);
        assert!(!some.matches(Activity::ProfileCreated));
        assert!(EventFilter::parse(&["note_created", "nope"]).is_err());
    }

    #[test]
    fn descriptions_are_at_most_255_characters() {
        assert_eq!(parse_description("  hi "), Ok("hi".to_owned()));
        assert!(parse_description(&"é".repeat(255)).is_ok());
        assert!(parse_description(&"é".repeat(256)).is_err());
    }

    #[test]
    fn an_attempt_records_its_answer_and_what_comes_next() {
        let mut d = delivery();
        let failed = Answer::Status {
            code: 500,
            retry_after: None,
        };
        let Outcome::Retry(at) = d.record(&failed, NOW) else {
            panic!("a 500 is retried");
        };
        assert!(
            at >= NOW + Duration::milliseconds(4500) && at <= NOW + Duration::milliseconds(5500)
        );
        assert_eq!(
            (d.status, d.attempts, d.last_status_code, d.next_attempt_at),
            (DeliveryStatus::Pending, 1, Some(500), Some(at))
        );
        assert_eq!(d.last_error.as_deref(), Some("answered 500"));

        let ok = Answer::Status {
            code: 204,
            retry_after: None,
        };
        assert_eq!(d.record(&ok, at), Outcome::Succeeded);
        assert_eq!(
            (d.status, d.attempts, d.next_attempt_at, d.delivered_at),
            (DeliveryStatus::Succeeded, 2, None, Some(at))
        );
        assert_eq!(d.last_error, None);
    }

    #[test]
    fn no_answer_is_recorded_without_a_status_and_gone_fails_at_once() {
        let mut d = delivery();
        d.record(&Answer::NoAnswer("connection refused".into()), NOW);
        assert_eq!(d.last_status_code, None);
        assert_eq!(d.last_error.as_deref(), Some("connection refused"));
        let gone = Answer::Status {
            code: 410,
            retry_after: None,
        };
        assert_eq!(d.record(&gone, NOW), Outcome::EndpointGone);
        assert_eq!(
            (d.status, d.next_attempt_at),
            (DeliveryStatus::Failed, None)
        );
    }

    #[test]
    fn the_last_attempt_fails_and_a_retry_gives_one_more() {
        let mut d = delivery();
        let failed = Answer::NoAnswer("timed out".into());
        for _ in 1..MAX_ATTEMPTS {
            assert!(matches!(d.record(&failed, NOW), Outcome::Retry(_)));
        }
        assert_eq!(d.record(&failed, NOW), Outcome::Failed);
        assert_eq!(d.status, DeliveryStatus::Failed);
        d.retry_now(NOW);
        assert_eq!(
            (d.status, d.next_attempt_at),
            (DeliveryStatus::Pending, Some(NOW))
        );
        assert_eq!(d.record(&failed, NOW), Outcome::Failed);
    }

    #[test]
    fn jitter_differs_between_deliveries_and_stays_in_bounds() {
        let mut other = delivery();
        other.id = "d2".into();
        let jitters: Vec<f64> = [delivery(), other].iter().map(Delivery::jitter).collect();
        assert!(jitters.iter().all(|j| (-1.0..=1.0).contains(j)));
        assert_ne!(jitters[0], jitters[1]);
    }
}
