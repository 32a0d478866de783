use std::sync::Arc;

use time::OffsetDateTime;

use crate::error::DomainError;
use crate::ports::{Clock, PasswordHasher, SecretGenerator, SessionRepository, UserRepository};
use crate::profile::Email;
use crate::session::{LOCK_WINDOW, Session, SessionToken, TOUCH_EVERY, locked_until};
use crate::user::Password;

/// Random bytes in a session token and in a CSRF token.
const TOKEN_BYTES: usize = 32;

/// What a sign-in came to.
#[derive(Debug)]
pub enum SignIn {
    /// Signed in: the token goes into the browser's cookie.
    Signed(SessionToken, Session),
    /// Wrong e-mail or password, or a disabled user: the same answer for all three.
    Refused,
    /// Too many failures from this address or for this user: refused until then.
    Locked(OffsetDateTime),
}

/// Signing in to the dashboard, the sessions it opens, signing out.
#[derive(Clone)]
pub struct SignInService {
    users: Arc<dyn UserRepository>,
    sessions: Arc<dyn SessionRepository>,
    hasher: Arc<dyn PasswordHasher>,
    clock: Arc<dyn Clock>,
    secrets: Arc<dyn SecretGenerator>,
}

impl std::fmt::Debug for SignInService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SignInService")
    }
}

impl SignInService {
    /// The service over its ports.
    pub fn new(
        users: Arc<dyn UserRepository>,
        sessions: Arc<dyn SessionRepository>,
        hasher: Arc<dyn PasswordHasher>,
        clock: Arc<dyn Clock>,
        secrets: Arc<dyn SecretGenerator>,
    ) -> Self {
        Self {
            users,
            sessions,
            hasher,
            clock,
            secrets,
        }
    }

    /// Checks `email` and `password` as typed, from the browser at `address`.
    pub async fn sign_in(
        &self,
        email: &str,
        password: &str,
        address: &str,
    ) -> Result<SignIn, DomainError> {
        let now = self.clock.now();
        let email = Email::parse(email).ok();
        let keys: Vec<String> = std::iter::once(format!("address:{address}"))
            .chain(email.as_ref().map(|e| format!("user:{}", e.key())))
            .collect();
        let mut until = None;
        for key in &keys {
            let failures = self.sessions.failures(key, now - LOCK_WINDOW).await?;
            until = until.max(locked_until(&failures, now));
        }
        if let Some(until) = until {
            return Ok(SignIn::Locked(until));
        }
        let user = match &email {
            Some(email) => self.users.find_by_email(email).await?,
            None => None,
        };
        let password = Password::parse(password).ok();
        let accepted = match (&user, &password) {
            (Some(user), Some(password)) => {
                self.hasher.verify(password, &user.password_hash).await && user.enabled
            }
            // As slow as a real check, so the answer's timing does not tell whether the
            // e-mail belongs to a user.
            (None, Some(password)) => {
                let _ = self.hasher.hash(password).await;
                false
            }
            (_, None) => false,
        };
        let Some(user) = user.filter(|_| accepted) else {
            self.sessions.record_failure(&keys, now).await?;
            return Ok(SignIn::Refused);
        };
        let token = SessionToken::new(self.secrets.url_token(TOKEN_BYTES));
        let session = Session {
            user_id: user.id,
            merchant_id: user.merchant_id,
            email: user.email,
            csrf_token: self.secrets.url_token(TOKEN_BYTES),
            created_at: now,
            last_seen_at: now,
        };
        self.sessions.insert(&token, &session).await?;
        Ok(SignIn::Signed(token, session))
    }

    /// The live session of `token` (its user still enabled, used within 12 h), noting
    /// this use; `None` otherwise.
    pub async fn session(&self, token: &SessionToken) -> Result<Option<Session>, DomainError> {
        let Some(session) = self.sessions.find(token).await? else {
            return Ok(None);
        };
        let now = self.clock.now();
        if !session.is_live(now) {
            self.sessions.delete(token).await?;
            return Ok(None);
        }
        if now - session.last_seen_at >= TOUCH_EVERY {
            self.sessions.touch(token, now).await?;
        }
        Ok(Some(session))
    }

    /// Ends the session at once.
    pub async fn sign_out(&self, token: &SessionToken) -> Result<(), DomainError> {
        Ok(self.sessions.delete(token).await?)
    }
}
