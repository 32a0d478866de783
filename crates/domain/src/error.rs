use crate::validation::Violations;

/// The kinds of object a lookup can miss.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "stable-api", non_exhaustive)]
pub enum Resource {
    /// A client profile.
    Profile,
    /// A merchant.
    Merchant,
    /// An API key.
    ApiKey,
    /// A stored template.
    Template,
    /// A quiz.
    Quiz,
    /// A document.
    Document,
    /// A file of a document.
    File,
    /// A webhook endpoint.
    Webhook,
    /// A webhook delivery.
    Delivery,
    /// A dashboard user.
    User,
    /// A verification (none exists before a quiz is submitted).
    Verification,
    /// A profile's screening (none before it is screened).
    Screening,
    /// A match of a profile's latest screening.
    ScreeningMatch,
}

/// Why a use case refused or failed.
#[derive(Debug, thiserror::Error)]
#[cfg_attr(feature = "stable-api", non_exhaustive)]
pub enum DomainError {
    /// The input broke field rules; each violation names its field.
    #[error("invalid input: {0}")]
    Invalid(Violations),
    /// Nothing of that kind matches, for this merchant.
    #[error("{0:?} not found")]
    NotFound(Resource),
    /// A profile with this e-mail address or mobile number already exists.
    #[error("profile already exists")]
    ProfileExists,
    /// A template list with no step required or optional.
    #[error("the template asks for nothing")]
    FeatureRequired,
    /// A quiz needs a stored template or a list.
    #[error("no template given")]
    TemplateRequired,
    /// The client already completed this quiz; it takes no more submissions.
    #[error("quiz already submitted")]
    QuizSubmitted,
    /// The quiz link already holds as many documents or bytes as one link may add.
    #[error("upload limit reached")]
    UploadLimitReached,
    /// A dashboard user with this e-mail address already exists.
    #[error("user already exists")]
    UserExists,
    /// The merchant already holds as many webhook endpoints as it may.
    #[error("webhook limit reached")]
    WebhookLimitReached,
    /// The merchant already holds as many enabled API keys as it may.
    #[error("API key limit reached")]
    KeyLimitReached,
    /// quiz/expire on a quiz already expired.
    #[error("quiz already expired")]
    QuizExpired,
    /// Too much of this work is already running (password checks); the same call may
    /// succeed in a moment.
    #[error("at capacity")]
    Busy,
    /// Storage cannot be reached now; the same call may succeed later.
    #[error("unavailable")]
    Unavailable(#[source] Cause),
    /// A fault on our side; the cause is for the log, never for the caller.
    #[error("internal failure")]
    Internal(#[source] Cause),
}

/// Why a fault happened: the lower layer's own error, kept whole with the causes under it
/// (its `source()` chain) for the log, where [`Report`] writes them out. A cause never
/// reaches a caller. A bare message converts too: `"the writer stopped".into()`.
pub type Cause = Box<dyn std::error::Error + Send + Sync + 'static>;

/// An error and every cause under it on one line, outermost first (`storage fault: file
/// store: No such file or directory`): how a fault is logged, once, where it is answered.
#[derive(Debug, Clone, Copy)]
pub struct Report<'a>(pub &'a (dyn std::error::Error + 'static));

impl std::fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)?;
        let mut cause = self.0.source();
        while let Some(e) = cause {
            write!(f, ": {e}")?;
            cause = e.source();
        }
        Ok(())
    }
}

impl From<Violations> for DomainError {
    fn from(v: Violations) -> Self {
        Self::Invalid(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::StoreError;

    #[test]
    fn a_report_writes_every_cause_outermost_first() {
        let disk = std::io::Error::other("disk full");
        let fault = DomainError::from(StoreError::Internal(Box::new(disk)));
        assert_eq!(
            Report(&fault).to_string(),
            "internal failure: storage fault: disk full"
        );
        let unavailable = DomainError::from(StoreError::Unavailable("connection refused".into()));
        assert!(matches!(unavailable, DomainError::Unavailable(_)));
        assert_eq!(
            Report(&unavailable).to_string(),
            "unavailable: storage unavailable: connection refused"
        );
    }
}
