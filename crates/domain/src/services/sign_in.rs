use std::sync::Arc;

use time::OffsetDateTime;

use crate::audit::AuditAction;
use crate::error::DomainError;
use crate::ids::UserId;
use crate::ports::{
    AuditLog, Clock, DeviceMarks, HashLane, IdGenerator, OneTimeCodes, PasswordHasher,
    SecretGenerator, SessionRepository, StoreError, UserRepository,
};
use crate::profile::Email;
use crate::services::{AuditPorts, AuditTrail, Initiator};
use crate::session::{
    KNOWN_DEVICE_FOR, LOCK_WINDOW, Session, SessionToken, TOUCH_EVERY, locked_until,
};
use crate::user::{Password, TotpSecret, User};

/// Random bytes in a session token and in a CSRF token.
const TOKEN_BYTES: usize = 32;

/// What a sign-in came to.
#[derive(Debug)]
pub enum SignIn {
    /// Signed in: the token goes into the browser's session cookie, and the new device
    /// mark into its device cookie.
    Signed(SessionToken, Session, String),
    /// Wrong e-mail, password or code, or a disabled user: the same answer for all.
    Refused,
    /// Too many failures from this address, or for this user from this address:
    /// refused unchecked until then.
    Locked(OffsetDateTime),
}

/// What a person typed into the sign-in form, and where from.
#[derive(Debug, Clone, Copy)]
pub struct Credentials<'a> {
    /// The e-mail, as typed.
    pub email: &'a str,
    /// The password, as typed.
    pub password: &'a str,
    /// The one-time code, as typed (empty when none was asked for).
    pub code: &'a str,
    /// The client address.
    pub address: &'a str,
    /// The device mark the browser holds from an earlier sign-in (empty when none).
    pub device: &'a str,
}

/// The ports signing in works over.
#[derive(Clone)]
pub struct SignInPorts {
    /// Who may sign in.
    pub users: Arc<dyn UserRepository>,
    /// Sessions and counted attempts.
    pub sessions: Arc<dyn SessionRepository>,
    /// Password hashing.
    pub hasher: Arc<dyn PasswordHasher>,
    /// Second factors.
    pub codes: Arc<dyn OneTimeCodes>,
    /// Where sign-ins are recorded.
    pub audit: Arc<dyn AuditLog>,
    /// The time.
    pub clock: Arc<dyn Clock>,
    /// Ids of attempts and audit entries.
    pub ids: Arc<dyn IdGenerator>,
    /// Session and CSRF tokens.
    pub secrets: Arc<dyn SecretGenerator>,
    /// The marks of browsers users signed in from.
    pub devices: Arc<dyn DeviceMarks>,
}

/// Signing in to the dashboard, the sessions it opens, signing out.
#[derive(Clone)]
pub struct SignInService {
    ports: SignInPorts,
    audit: AuditTrail,
}

debug_as_name!(SignInPorts);

debug_as_name!(SignInService);

/// The counters an attempt is counted under: its address, and the user it names at that
/// address, so that failures from one place never lock the user out of another.
fn attempt_keys(address: &str, email: Option<&Email>) -> Vec<String> {
    std::iter::once(format!("address:{address}"))
        .chain(email.map(|e| format!("user:{}@{address}", e.key())))
        .collect()
}

/// A device mark as a sign-in presents it: who signed in from the browser, and the
/// counter its failures are counted under.
struct KnownDevice {
    user: UserId,
    key: String,
}

impl KnownDevice {
    /// The mark's device when it is ours and recent enough to count.
    fn of(marks: &dyn DeviceMarks, mark: &str, now: OffsetDateTime) -> Option<Self> {
        let (user, at) = marks.read(mark)?;
        (now - at < KNOWN_DEVICE_FOR).then(|| Self {
            key: format!("device:{user}:{}", at.unix_timestamp()),
            user,
        })
    }
}

impl SignInService {
    /// The service over its ports.
    pub fn new(ports: SignInPorts) -> Self {
        Self {
            audit: AuditTrail::new(AuditPorts {
                log: ports.audit.clone(),
                clock: ports.clock.clone(),
                ids: ports.ids.clone(),
            }),
            ports,
        }
    }

    /// Checks what was typed. The attempt is counted before any password is hashed, in
    /// the same step that reads the earlier ones, so parallel tries cannot slip past the
    /// lock; a successful one is uncounted. A browser the user signed in from before
    /// (its device mark names the user typed) has its check done in a room of its own,
    /// until five failures under that mark in the lock window make it a stranger's again:
    /// a stolen mark buys no more guesses than the address allows.
    pub async fn sign_in(&self, typed: Credentials<'_>) -> Result<SignIn, DomainError> {
        let p = &self.ports;
        let now = p.clock.now();
        let email = Email::parse(typed.email).ok();
        let device = KnownDevice::of(p.devices.as_ref(), typed.device, now);
        let mut keys = attempt_keys(typed.address, email.as_ref());
        let locking = keys.len();
        keys.extend(device.as_ref().map(|d| d.key.clone()));
        let attempt = p.ids.next_id();
        let earlier = p
            .sessions
            .begin_attempt(&attempt, &keys, now, now - LOCK_WINDOW)
            .await?;
        let (locks, device_failures) = earlier.split_at(locking.min(earlier.len()));
        let user = match &email {
            Some(email) => p.users.find_by_email(email).await?,
            None => None,
        };
        let by = |user: &User| Initiator {
            auditor: crate::audit::Auditor::User(user.id.clone(), user.email.clone()),
            address: typed.address.to_owned(),
        };
        if let Some(until) = locks.iter().filter_map(|at| locked_until(at, now)).max() {
            p.sessions.withdraw_attempt(&attempt).await?;
            if let Some(user) = &user {
                self.audit
                    .record(&user.merchant_id, &by(user), AuditAction::SignInLocked, "")
                    .await?;
            }
            return Ok(SignIn::Locked(until));
        }
        let known = device.is_some_and(|d| user.as_ref().is_some_and(|u| u.id == d.user))
            && !device_failures
                .iter()
                .any(|at| locked_until(at, now).is_some());
        let lane = if known {
            HashLane::KnownDevice
        } else {
            HashLane::Shared
        };
        let accepted = match self.accepts(user.as_ref(), &typed, lane, now).await {
            Ok(accepted) => accepted,
            Err(busy) => {
                // Nothing was checked: the attempt tells nothing and must not count.
                p.sessions.withdraw_attempt(&attempt).await?;
                return Err(busy.into());
            }
        };
        let user = match user {
            Some(user) if accepted => user,
            refused => {
                if let Some(user) = &refused {
                    self.audit
                        .record(&user.merchant_id, &by(user), AuditAction::SignInFailed, "")
                        .await?;
                }
                return Ok(SignIn::Refused);
            }
        };
        p.sessions.withdraw_attempt(&attempt).await?;
        let token = SessionToken::new(p.secrets.url_token(TOKEN_BYTES));
        let session = Session {
            user_id: user.id.clone(),
            merchant_id: user.merchant_id.clone(),
            email: user.email.clone(),
            role: user.role,
            csrf_token: p.secrets.url_token(TOKEN_BYTES),
            created_at: now,
            last_seen_at: now,
        };
        p.sessions.insert(&token, &session).await?;
        self.audit
            .record(&user.merchant_id, &by(&user), AuditAction::SignedIn, "")
            .await?;
        let device = p.devices.mark(&user.id, now);
        Ok(SignIn::Signed(token, session, device))
    }

    /// Whether the password (and, for a user with a second factor, the code) is right
    /// for an enabled user, checked in a room of `lane`; `Busy` when the hasher has no
    /// room for this check now.
    async fn accepts(
        &self,
        user: Option<&User>,
        typed: &Credentials<'_>,
        lane: HashLane,
        now: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        let p = &self.ports;
        let Ok(password) = Password::parse(typed.password) else {
            return Ok(false);
        };
        let Some(user) = user else {
            // As slow as a real check, so the answer's timing does not tell whether the
            // e-mail belongs to a user.
            return match p.hasher.hash(&password).await {
                Err(StoreError::Busy) => Err(StoreError::Busy),
                _ => Ok(false),
            };
        };
        if !(p
            .hasher
            .verify(&password, &user.password_hash, lane)
            .await?
            && user.enabled)
        {
            return Ok(false);
        }
        match &user.totp {
            None => Ok(true),
            Some(secret) => {
                self.code_accepted(user, secret, typed.code.trim(), now)
                    .await
            }
        }
    }

    /// Whether `code` is a fresh one-time code of `user`, whose password was right. Wrong
    /// codes are counted for the user wherever they come from (five in 15 minutes lock the
    /// second factor), so that a stranger who has the password cannot spread guesses over
    /// many addresses; a right code is spent, so that it signs in once.
    async fn code_accepted(
        &self,
        user: &User,
        secret: &TotpSecret,
        code: &str,
        now: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        let p = &self.ports;
        let guess = p.ids.next_id();
        let keys = [format!("code:{}", user.id)];
        let earlier = p
            .sessions
            .begin_attempt(&guess, &keys, now, now - LOCK_WINDOW)
            .await?;
        if earlier.iter().any(|at| locked_until(at, now).is_some()) {
            p.sessions.withdraw_attempt(&guess).await?;
            return Ok(false);
        }
        let fresh = match p.codes.verify(secret, code, now) {
            Some(step) => p.users.spend_code(&user.id, step).await?,
            None => false,
        };
        if fresh {
            p.sessions.withdraw_attempt(&guess).await?;
        }
        Ok(fresh)
    }

    /// The live session of `token` (its user still enabled, used within 12 h, begun
    /// within 7 days), noting this use; `None` otherwise.
    pub async fn session(&self, token: &SessionToken) -> Result<Option<Session>, DomainError> {
        let p = &self.ports;
        let Some(session) = p.sessions.find(token).await? else {
            return Ok(None);
        };
        let now = p.clock.now();
        if !session.is_live(now) {
            p.sessions.delete(token).await?;
            return Ok(None);
        }
        if now - session.last_seen_at >= TOUCH_EVERY {
            p.sessions.touch(token, now).await?;
        }
        Ok(Some(session))
    }

    /// Ends the session at once.
    pub async fn sign_out(
        &self,
        token: &SessionToken,
        session: &Session,
        address: &str,
    ) -> Result<(), DomainError> {
        self.ports.sessions.delete(token).await?;
        let by = Initiator {
            auditor: session.auditor(),
            address: address.to_owned(),
        };
        self.audit
            .record(&session.merchant_id, &by, AuditAction::SignedOut, "")
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::AuditEntry;
    use crate::memory::{
        FixedClock, MemoryAudit, MemoryDeviceMarks, MemoryMerchants, MemorySessions, MemoryUsers,
        PlainHasher, ReversedCodes, SequentialIds,
    };
    use crate::merchant::MerchantId;
    use crate::ports::StoreResult;
    use crate::user::{PasswordHash, Role, TotpSecret};
    use futures_executor::block_on;

    /// A hasher that always has more checks running than it allows.
    struct SaturatedHasher;

    #[async_trait::async_trait]
    impl PasswordHasher for SaturatedHasher {
        async fn hash(&self, _: &Password) -> StoreResult<PasswordHash> {
            Err(StoreError::Busy)
        }
        async fn verify(&self, _: &Password, _: &PasswordHash, _: HashLane) -> StoreResult<bool> {
            Err(StoreError::Busy)
        }
    }

    /// A hasher whose shared rooms a flood has taken: only the known devices' room checks.
    struct FloodedHasher;

    #[async_trait::async_trait]
    impl PasswordHasher for FloodedHasher {
        async fn hash(&self, _: &Password) -> StoreResult<PasswordHash> {
            Err(StoreError::Busy)
        }
        async fn verify(
            &self,
            password: &Password,
            hash: &PasswordHash,
            lane: HashLane,
        ) -> StoreResult<bool> {
            match lane {
                HashLane::Shared => Err(StoreError::Busy),
                HashLane::KnownDevice => PlainHasher.verify(password, hash, lane).await,
            }
        }
    }

    const PASSWORD: &str = "a long enough passphrase";

    struct Fixture {
        service: SignInService,
        users: Arc<MemoryUsers>,
        audit: Arc<MemoryAudit>,
        devices: Arc<MemoryDeviceMarks>,
    }

    fn fixture() -> Fixture {
        fixture_with(Arc::new(PlainHasher))
    }

    fn fixture_with(hasher: Arc<dyn PasswordHasher>) -> Fixture {
        let users = Arc::new(MemoryUsers::new(Arc::new(MemoryMerchants::default())));
        let audit = Arc::new(MemoryAudit::default());
        let ids = Arc::new(SequentialIds::default());
        let devices = Arc::new(MemoryDeviceMarks::default());
        let service = SignInService::new(SignInPorts {
            users: users.clone(),
            sessions: Arc::new(MemorySessions::new(users.clone())),
            hasher,
            codes: Arc::new(ReversedCodes),
            audit: audit.clone(),
            clock: Arc::new(FixedClock::default()),
            ids: ids.clone(),
            secrets: ids,
            devices: devices.clone(),
        });
        let user = User {
            id: "u1".into(),
            merchant_id: MerchantId::new("m1"),
            email: Email::parse("rev@example.com").expect("valid"),
            password_hash: PasswordHash::new(PASSWORD),
            role: Role::Reviewer,
            enabled: true,
            totp: None,
            created_at: OffsetDateTime::UNIX_EPOCH,
        };
        block_on(users.insert(&user)).expect("stored");
        Fixture {
            service,
            users,
            audit,
            devices,
        }
    }

    fn typed<'a>(password: &'a str, code: &'a str, address: &'a str) -> Credentials<'a> {
        Credentials {
            email: "rev@example.com",
            password,
            code,
            address,
            device: "",
        }
    }

    fn actions(audit: &MemoryAudit) -> Vec<AuditAction> {
        let all: Vec<AuditEntry> = block_on(audit.since(
            &MerchantId::new("m1"),
            OffsetDateTime::UNIX_EPOCH,
            None,
            100,
        ))
        .expect("read");
        all.into_iter().map(|e| e.action).collect()
    }

    #[test]
    fn five_failures_lock_the_user_at_that_address_only() {
        let f = fixture();
        for _ in 0..5 {
            let out = block_on(
                f.service
                    .sign_in(typed("wrong password!", "", "198.51.100.1")),
            );
            assert!(matches!(out, Ok(SignIn::Refused)), "{out:?}");
        }
        let out = block_on(f.service.sign_in(typed(PASSWORD, "", "198.51.100.1")));
        assert!(matches!(out, Ok(SignIn::Locked(_))), "{out:?}");
        let elsewhere = block_on(f.service.sign_in(typed(PASSWORD, "", "198.51.100.2")));
        assert!(
            matches!(elsewhere, Ok(SignIn::Signed(_, ref s, _)) if s.role == Role::Reviewer),
            "a stranger cannot lock the user out from elsewhere: {elsewhere:?}"
        );
        let mut expected = vec![AuditAction::SignInFailed; 5];
        expected.extend([AuditAction::SignInLocked, AuditAction::SignedIn]);
        assert_eq!(actions(&f.audit), expected);
    }

    #[test]
    fn a_busy_hasher_refuses_with_busy_and_counts_nothing() {
        let f = fixture_with(Arc::new(SaturatedHasher));
        for email in ["rev@example.com", "nobody@example.com"] {
            for _ in 0..6 {
                let out = block_on(f.service.sign_in(Credentials {
                    email,
                    password: PASSWORD,
                    code: "",
                    address: "198.51.100.1",
                    device: "",
                }));
                assert!(matches!(out, Err(DomainError::Busy)), "{out:?}");
            }
        }
        assert!(
            actions(&f.audit).is_empty(),
            "nothing was checked, so nothing failed: {:?}",
            actions(&f.audit)
        );
        // Six unchecked tries locked nothing: with room again, the right password signs in.
        let f = Fixture {
            service: SignInService::new(SignInPorts {
                hasher: Arc::new(PlainHasher),
                ..f.service.ports.clone()
            }),
            ..f
        };
        let out = block_on(f.service.sign_in(typed(PASSWORD, "", "198.51.100.1")));
        assert!(matches!(out, Ok(SignIn::Signed(..))), "{out:?}");
    }

    #[test]
    fn a_successful_sign_in_is_not_counted_as_a_failure() {
        let f = fixture();
        for _ in 0..10 {
            let out = block_on(f.service.sign_in(typed(PASSWORD, "", "198.51.100.1")));
            assert!(matches!(out, Ok(SignIn::Signed(..))), "{out:?}");
        }
    }

    #[test]
    fn a_user_with_a_second_factor_needs_the_current_code() {
        let f = fixture();
        let email = Email::parse("rev@example.com").expect("valid");
        block_on(f.users.set_totp(&email, Some(&TotpSecret::new("654321")))).expect("set");
        let without = block_on(f.service.sign_in(typed(PASSWORD, "", "198.51.100.1")));
        assert!(matches!(without, Ok(SignIn::Refused)), "{without:?}");
        let wrong = block_on(f.service.sign_in(typed(PASSWORD, "000000", "198.51.100.1")));
        assert!(matches!(wrong, Ok(SignIn::Refused)), "{wrong:?}");
        let right = block_on(
            f.service
                .sign_in(typed(PASSWORD, " 123456 ", "198.51.100.1")),
        );
        assert!(matches!(right, Ok(SignIn::Signed(..))), "{right:?}");
        let again = block_on(f.service.sign_in(typed(PASSWORD, "123456", "198.51.100.2")));
        assert!(
            matches!(again, Ok(SignIn::Refused)),
            "a code signs in once, wherever it comes from: {again:?}"
        );
    }

    #[test]
    fn wrong_codes_are_counted_for_the_user_whatever_their_address() {
        let f = fixture();
        let email = Email::parse("rev@example.com").expect("valid");
        block_on(f.users.set_totp(&email, Some(&TotpSecret::new("654321")))).expect("set");
        // Five addresses, one wrong code each: no address reaches its own limit.
        for n in 1..=5 {
            let address = format!("198.51.100.{n}");
            let wrong = block_on(f.service.sign_in(typed(PASSWORD, "000000", &address)));
            assert!(matches!(wrong, Ok(SignIn::Refused)), "{wrong:?}");
        }
        // The second factor is locked for the user: the right code from a sixth address
        // is not even looked at.
        let right = block_on(f.service.sign_in(typed(PASSWORD, "123456", "198.51.100.6")));
        assert!(matches!(right, Ok(SignIn::Refused)), "{right:?}");
        // Wrong passwords never reach the code, so they do not lock it.
        let g = fixture();
        block_on(g.users.set_totp(&email, Some(&TotpSecret::new("654321")))).expect("set");
        for n in 1..=5 {
            let address = format!("198.51.100.{n}");
            let out = block_on(
                g.service
                    .sign_in(typed("wrong password!", "000000", &address)),
            );
            assert!(matches!(out, Ok(SignIn::Refused)), "{out:?}");
        }
        let right = block_on(g.service.sign_in(typed(PASSWORD, "123456", "198.51.100.6")));
        assert!(matches!(right, Ok(SignIn::Signed(..))), "{right:?}");
    }

    /// A sign-in from `address` with `device`'s mark, on the flooded hasher's fixture.
    fn from_device<'a>(password: &'a str, address: &'a str, device: &'a str) -> Credentials<'a> {
        Credentials {
            device,
            ..typed(password, "", address)
        }
    }

    #[test]
    fn a_browser_the_user_signed_in_from_checks_in_its_own_room_during_a_flood() {
        let f = fixture_with(Arc::new(FloodedHasher));
        let out = block_on(f.service.sign_in(typed(PASSWORD, "", "198.51.100.1")));
        assert!(matches!(out, Err(DomainError::Busy)), "{out:?}");
        // The mark an earlier sign-in left (made on a quiet day).
        let mark = f.devices.mark(&"u1".into(), FixedClock::default().0);
        let out = block_on(
            f.service
                .sign_in(from_device(PASSWORD, "198.51.100.1", &mark)),
        );
        let Ok(SignIn::Signed(_, _, new_mark)) = out else {
            panic!("signed in through the known devices' room: {out:?}");
        };
        assert_ne!(new_mark, mark, "each sign-in leaves a new mark");
        assert_eq!(
            f.devices.read(&new_mark).map(|(user, _)| user),
            Some("u1".into())
        );
        // A wrong password from the known browser is checked, and refused.
        let wrong = block_on(f.service.sign_in(from_device(
            "wrong password!",
            "198.51.100.1",
            &mark,
        )));
        assert!(matches!(wrong, Ok(SignIn::Refused)), "{wrong:?}");
    }

    #[test]
    fn a_mark_of_another_user_an_old_one_or_a_forged_one_waits_with_the_flood() {
        let f = fixture_with(Arc::new(FloodedHasher));
        let now = FixedClock::default().0;
        let others = f.devices.mark(&"u2".into(), now);
        let old = f.devices.mark(&"u1".into(), now - KNOWN_DEVICE_FOR);
        for mark in [others.as_str(), old.as_str(), "mark-99", "forged"] {
            let out = block_on(
                f.service
                    .sign_in(from_device(PASSWORD, "198.51.100.1", mark)),
            );
            assert!(matches!(out, Err(DomainError::Busy)), "{mark}: {out:?}");
        }
    }

    #[test]
    fn five_failures_under_a_mark_make_its_browser_a_strangers_again() {
        let f = fixture_with(Arc::new(FloodedHasher));
        let mark = f.devices.mark(&"u1".into(), FixedClock::default().0);
        // Spread over addresses, so that no address nor user at an address is locked.
        for n in 1..=5 {
            let address = format!("198.51.100.{n}");
            let out = block_on(
                f.service
                    .sign_in(from_device("wrong password!", &address, &mark)),
            );
            assert!(matches!(out, Ok(SignIn::Refused)), "{out:?}");
        }
        let out = block_on(
            f.service
                .sign_in(from_device(PASSWORD, "198.51.100.9", &mark)),
        );
        assert!(
            matches!(out, Err(DomainError::Busy)),
            "a mark that guessed five times waits with the flood: {out:?}"
        );
    }

    #[test]
    fn sign_out_ends_the_session_and_is_recorded() {
        let f = fixture();
        let Ok(SignIn::Signed(token, session, _)) =
            block_on(f.service.sign_in(typed(PASSWORD, "", "198.51.100.1")))
        else {
            panic!("signed in");
        };
        assert!(block_on(f.service.session(&token)).expect("read").is_some());
        block_on(f.service.sign_out(&token, &session, "198.51.100.1")).expect("out");
        assert!(block_on(f.service.session(&token)).expect("read").is_none());
        assert_eq!(
            actions(&f.audit),
            [AuditAction::SignedIn, AuditAction::SignedOut]
        );
    }
}
