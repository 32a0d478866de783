//! When a delivery is tried again, and what an answer means for it and its endpoint.

use time::{Duration, OffsetDateTime};

/// The waits after each failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h,
/// 24 h. After the attempt that follows the last wait fails, the delivery is `failed`.
pub const RETRY_DELAYS: [Duration; 9] = [
    Duration::seconds(5),
    Duration::minutes(5),
    Duration::minutes(30),
    Duration::hours(2),
    Duration::hours(5),
    Duration::hours(10),
    Duration::hours(14),
    Duration::hours(20),
    Duration::hours(24),
];

/// Attempts made at most: the first and one after each wait.
pub const MAX_ATTEMPTS: u32 = RETRY_DELAYS.len() as u32 + 1;

/// How far each wait may stray either way, so that endpoints that failed together are not
/// all tried again at the same instant.
pub const JITTER: f64 = 0.10;

/// How long an answer may take before the attempt counts as failed.
pub const ANSWER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(15);

/// The wait before the attempt after `attempts_made`, or `None` when none is left.
/// `jitter` is a number in `[-1, 1]` (random in production), scaled to ±10 %.
pub fn retry_delay(attempts_made: u32, jitter: f64) -> Option<Duration> {
    let index = usize::try_from(attempts_made.checked_sub(1)?).ok()?;
    let base = *RETRY_DELAYS.get(index)?;
    Some(base * (1.0 + JITTER * jitter.clamp(-1.0, 1.0)))
}

/// What came back from one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The receiver answered with this status, and maybe a `Retry-After` (as a wait).
    Status {
        /// The HTTP status code.
        code: u16,
        /// The `Retry-After` header, when it held a delay or a date, as a wait from now.
        retry_after: Option<Duration>,
    },
    /// No answer: refused address, connection failure, timeout. The text is for the
    /// merchant's delivery log, and names no personal value.
    NoAnswer(String),
}

/// What to do after an attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Delivered: done.
    Succeeded,
    /// Try again at this time.
    Retry(OffsetDateTime),
    /// Given up: no attempt left.
    Failed,
    /// The receiver said the endpoint is gone (410): the delivery fails and the endpoint
    /// is disabled, so nothing more is sent until the merchant enables it again.
    EndpointGone,
}

/// What `answer` to attempt number `attempt` (1 for the first) means, at `now`.
pub fn judge(answer: &Answer, attempt: u32, now: OffsetDateTime, jitter: f64) -> Outcome {
    let asked_wait = match answer {
        Answer::Status { code, .. } if (200..300).contains(code) => return Outcome::Succeeded,
        Answer::Status { code: 410, .. } => return Outcome::EndpointGone,
        Answer::Status {
            code: 429 | 503,
            retry_after,
        } => *retry_after,
        _ => None,
    };
    match retry_delay(attempt, jitter) {
        // A receiver that asks for more time than our own schedule gets it.
        Some(ours) => Outcome::Retry(now + asked_wait.map_or(ours, |asked| asked.max(ours))),
        None => Outcome::Failed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-11-22 10:00 UTC);

    fn status(code: u16) -> Answer {
        Answer::Status {
            code,
            retry_after: None,
        }
    }

    #[test]
    fn the_schedule_waits_as_the_contract_says_then_gives_up() {
        let waits: Vec<_> = (1..=MAX_ATTEMPTS).map(|n| retry_delay(n, 0.0)).collect();
        assert_eq!(waits[0], Some(Duration::seconds(5)));
        assert_eq!(waits[1], Some(Duration::minutes(5)));
        assert_eq!(waits[8], Some(Duration::hours(24)));
        assert_eq!(waits[9], None, "the tenth attempt is the last");
        assert_eq!(retry_delay(0, 0.0), None);
    }

    #[test]
    fn jitter_stays_within_ten_percent_either_way() {
        for n in 1..MAX_ATTEMPTS {
            let base = retry_delay(n, 0.0).expect("scheduled");
            for j in [-5.0, -1.0, -0.3, 0.0, 0.7, 1.0, 5.0] {
                let wait = retry_delay(n, j).expect("scheduled");
                assert!(wait >= base * 0.9 && wait <= base * 1.1, "{n} {j}: {wait}");
            }
            assert_eq!(retry_delay(n, 1.0), Some(base * 1.1));
            assert_eq!(retry_delay(n, -1.0), Some(base * 0.9));
        }
    }

    #[test]
    fn any_2xx_is_success() {
        for code in [200, 201, 202, 204, 299] {
            assert_eq!(judge(&status(code), 1, NOW, 0.0), Outcome::Succeeded);
        }
    }

    #[test]
    fn gone_disables_the_endpoint_whatever_the_attempt() {
        assert_eq!(judge(&status(410), 1, NOW, 0.0), Outcome::EndpointGone);
        assert_eq!(judge(&status(410), 10, NOW, 0.0), Outcome::EndpointGone);
    }

    #[test]
    fn other_answers_and_silence_are_retried_on_schedule() {
        for answer in [
            status(500),
            status(404),
            status(301),
            status(100),
            Answer::NoAnswer("timed out".into()),
        ] {
            assert_eq!(
                judge(&answer, 1, NOW, 0.0),
                Outcome::Retry(NOW + Duration::seconds(5))
            );
            assert_eq!(
                judge(&answer, 2, NOW, 1.0),
                Outcome::Retry(NOW + Duration::seconds(330))
            );
            assert_eq!(judge(&answer, MAX_ATTEMPTS, NOW, 0.0), Outcome::Failed);
        }
    }

    #[test]
    fn retry_after_on_429_and_503_is_honoured_only_when_later() {
        for code in [429, 503] {
            let later = Answer::Status {
                code,
                retry_after: Some(Duration::minutes(2)),
            };
            assert_eq!(
                judge(&later, 1, NOW, 0.0),
                Outcome::Retry(NOW + Duration::minutes(2))
            );
            let sooner = Answer::Status {
                code,
                retry_after: Some(Duration::seconds(1)),
            };
            assert_eq!(
                judge(&sooner, 1, NOW, 0.0),
                Outcome::Retry(NOW + Duration::seconds(5))
            );
            assert_eq!(judge(&later, MAX_ATTEMPTS, NOW, 0.0), Outcome::Failed);
        }
        let ignored = Answer::Status {
            code: 500,
            retry_after: Some(Duration::hours(1)),
        };
        assert_eq!(
            judge(&ignored, 1, NOW, 0.0),
            Outcome::Retry(NOW + Duration::seconds(5))
        );
    }
}
