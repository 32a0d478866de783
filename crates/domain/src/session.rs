//! Signing in to the dashboard (contract §10): sessions kept server-side, and the lock that
//! follows too many failed tries.

use secrecy::{ExposeSecret, SecretString};
use time::{Duration, OffsetDateTime};

use crate::audit::Auditor;
use crate::ids::UserId;
use crate::merchant::MerchantId;
use crate::profile::Email;
use crate::user::Role;

/// A session unused this long has ended.
pub const IDLE_EXPIRY: Duration = Duration::hours(12);
/// A session ends this long after sign-in, however much it is used (contract §16).
pub const ABSOLUTE_EXPIRY: Duration = Duration::days(7);
/// Failed sign-ins of one address, or of one user from one address, that lock further
/// tries from there...
pub const MAX_FAILURES: usize = 5;
/// ...when they fall within this window, for this long after the last of them.
pub const LOCK_WINDOW: Duration = Duration::minutes(15);
/// A browser's device mark keeps its user's sign-ins out of a flood this long after the
/// sign-in that made it; each sign-in makes a new one.
pub const KNOWN_DEVICE_FOR: Duration = Duration::days(90);
/// A session's last use is written at most this often (each page view would be a write).
pub const TOUCH_EVERY: Duration = Duration::minutes(1);

/// The secret a browser holds in its session cookie. Its `Debug` never shows it.
#[derive(Clone)]
pub struct SessionToken(SecretString);

impl SessionToken {
    /// A token as made, or as a browser sent it.
    pub fn new(token: impl Into<String>) -> Self {
        Self(SecretString::from(token.into()))
    }

    /// The token's text: for the cookie, and for the store to hash.
    pub fn expose(&self) -> &str {
        self.0.expose_secret()
    }
}

impl std::fmt::Debug for SessionToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionToken(…)")
    }
}

/// A signed-in user's session.
#[derive(Debug, Clone)]
pub struct Session {
    /// Who.
    pub user_id: UserId,
    /// Whose data they see.
    pub merchant_id: MerchantId,
    /// Their e-mail (shown, and named in the events their actions write).
    pub email: Email,
    /// What they may do.
    pub role: Role,
    /// Every state-changing form carries it; a post without it is refused.
    pub csrf_token: String,
    /// When it began.
    pub created_at: OffsetDateTime,
    /// When it was last used.
    pub last_seen_at: OffsetDateTime,
}

impl Session {
    /// Whether it is still alive at `now`: used within 12 h, begun within 7 days.
    pub fn is_live(&self, now: OffsetDateTime) -> bool {
        now - self.last_seen_at < IDLE_EXPIRY && now - self.created_at < ABSOLUTE_EXPIRY
    }

    /// Who acts through it, as the audit trail names them.
    pub fn auditor(&self) -> Auditor {
        Auditor::User(self.user_id.clone(), self.email.clone())
    }
}

/// Until when sign-ins are refused, given the times of recent failures (any order), or
/// `None` when they are not.
pub fn locked_until(failures: &[OffsetDateTime], now: OffsetDateTime) -> Option<OffsetDateTime> {
    let recent: Vec<OffsetDateTime> = failures
        .iter()
        .copied()
        .filter(|at| now - *at < LOCK_WINDOW)
        .collect();
    if recent.len() < MAX_FAILURES {
        return None;
    }
    recent.into_iter().max().map(|last| last + LOCK_WINDOW)
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-11-22 10:00 UTC);

    #[test]
    fn five_failures_in_15_minutes_lock_for_15_minutes_after_the_last() {
        let minutes = |m: i64| NOW - Duration::minutes(m);
        let four = [minutes(1), minutes(2), minutes(3), minutes(4)];
        assert_eq!(locked_until(&four, NOW), None);
        let five = [minutes(1), minutes(2), minutes(3), minutes(4), minutes(5)];
        assert_eq!(locked_until(&five, NOW), Some(minutes(1) + LOCK_WINDOW));
        let old = [minutes(1), minutes(2), minutes(3), minutes(4), minutes(20)];
        assert_eq!(
            locked_until(&old, NOW),
            None,
            "a failure past the window does not count"
        );
    }

    #[test]
    fn sessions_end_after_12_idle_hours_or_7_days_and_never_show_their_token() {
        let session = |begun: OffsetDateTime, last: OffsetDateTime| Session {
            user_id: "u1".into(),
            merchant_id: MerchantId::new("m1"),
            email: Email::parse("rev@example.com").expect("valid"),
            role: Role::Reviewer,
            csrf_token: "c".into(),
            created_at: begun,
            last_seen_at: last,
        };
        let at = |hours: i64| NOW - Duration::hours(hours);
        assert!(session(at(11), at(11)).is_live(NOW));
        assert!(!session(at(12), at(12)).is_live(NOW));
        assert!(
            session(at(7 * 24 - 1), at(0)).is_live(NOW),
            "in use, begun under 7 days ago"
        );
        assert!(
            !session(at(7 * 24), at(0)).is_live(NOW),
            "7 days after sign-in, however recently used"
        );
        assert_eq!(
            format!("{:?}", SessionToken::new("abcdef")),
            "SessionToken(…)"
        );
    }
}
