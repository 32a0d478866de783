//! Dashboard sessions and counted sign-in attempts, in memory.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use time::OffsetDateTime;

use super::MemoryUsers;
use crate::ports::{SessionRepository, StoreResult, UserRepository};
use crate::session::{Session, SessionToken};

/// Dashboard sessions and counted sign-in attempts, in memory.
#[derive(Debug, Default)]
pub struct MemorySessions {
    sessions: Mutex<Vec<(String, Session)>>,
    attempts: Mutex<Vec<(String, String, OffsetDateTime)>>,
    /// Users, for a session's user to be enabled.
    pub users: Arc<MemoryUsers>,
}

impl MemorySessions {
    /// Sessions of these users.
    pub fn new(users: Arc<MemoryUsers>) -> Self {
        Self {
            sessions: Mutex::default(),
            attempts: Mutex::default(),
            users,
        }
    }
}

#[async_trait]
impl SessionRepository for MemorySessions {
    async fn insert(&self, token: &SessionToken, session: &Session) -> StoreResult<()> {
        let mut sessions = self.sessions.lock().expect("lock");
        sessions.push((token.expose().to_owned(), session.clone()));
        Ok(())
    }

    async fn find(&self, token: &SessionToken) -> StoreResult<Option<Session>> {
        let found = {
            let sessions = self.sessions.lock().expect("lock");
            sessions
                .iter()
                .find(|(t, _)| t == token.expose())
                .map(|(_, s)| s.clone())
        };
        let Some(session) = found else {
            return Ok(None);
        };
        let user = self.users.find_by_email(&session.email).await?;
        Ok(user.filter(|u| u.enabled).map(|u| Session {
            role: u.role,
            ..session
        }))
    }

    async fn touch(&self, token: &SessionToken, at: OffsetDateTime) -> StoreResult<()> {
        let mut sessions = self.sessions.lock().expect("lock");
        for (_, s) in sessions.iter_mut().filter(|(t, _)| t == token.expose()) {
            s.last_seen_at = at;
        }
        Ok(())
    }

    async fn delete(&self, token: &SessionToken) -> StoreResult<()> {
        let mut sessions = self.sessions.lock().expect("lock");
        sessions.retain(|(t, _)| t != token.expose());
        Ok(())
    }

    async fn begin_attempt(
        &self,
        attempt: &str,
        keys: &[String],
        at: OffsetDateTime,
        since: OffsetDateTime,
    ) -> StoreResult<Vec<Vec<OffsetDateTime>>> {
        let mut attempts = self.attempts.lock().expect("lock");
        let earlier = keys
            .iter()
            .map(|key| {
                attempts
                    .iter()
                    .filter(|(_, k, when)| k == key && *when >= since)
                    .map(|(_, _, when)| *when)
                    .collect()
            })
            .collect();
        for key in keys {
            attempts.push((attempt.to_owned(), key.clone(), at));
        }
        Ok(earlier)
    }

    async fn withdraw_attempt(&self, attempt: &str) -> StoreResult<()> {
        let mut attempts = self.attempts.lock().expect("lock");
        attempts.retain(|(a, _, _)| a != attempt);
        Ok(())
    }
}
