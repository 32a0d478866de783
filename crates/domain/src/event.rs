//! The activity log of a profile. Events are written with the change they record and
//! never edited.

use time::OffsetDateTime;

use crate::ids::EventId;
use crate::merchant::MerchantId;
use crate::profile::{Profile, ProfileId, ProfileStatus};

/// What happened. The set is closed: merchants filter and count on these names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Activity {
    ProfileCreated,
    ProfileUpdated,
    ProfileStatusChanged,
    ProfileDeleted,
    QuizCreated,
    QuizOpened,
    FormFieldsSubmitted,
    DocumentUploaded,
    QuizSubmitted,
    QuizExpired,
    QuizDeleted,
    DocumentStatusChanged,
    DocumentDeleted,
    NoteCreated,
}

impl Activity {
    pub const ALL: [Activity; 14] = [
        Self::ProfileCreated,
        Self::ProfileUpdated,
        Self::ProfileStatusChanged,
        Self::ProfileDeleted,
        Self::QuizCreated,
        Self::QuizOpened,
        Self::FormFieldsSubmitted,
        Self::DocumentUploaded,
        Self::QuizSubmitted,
        Self::QuizExpired,
        Self::QuizDeleted,
        Self::DocumentStatusChanged,
        Self::DocumentDeleted,
        Self::NoteCreated,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            Self::ProfileCreated => "profile_created",
            Self::ProfileUpdated => "profile_updated",
            Self::ProfileStatusChanged => "profile_status_changed",
            Self::ProfileDeleted => "profile_deleted",
            Self::QuizCreated => "quiz_created",
            Self::QuizOpened => "quiz_opened",
            Self::FormFieldsSubmitted => "form_fields_submitted",
            Self::DocumentUploaded => "document_uploaded",
            Self::QuizSubmitted => "quiz_submitted",
            Self::QuizExpired => "quiz_expired",
            Self::QuizDeleted => "quiz_deleted",
            Self::DocumentStatusChanged => "document_status_changed",
            Self::DocumentDeleted => "document_deleted",
            Self::NoteCreated => "note_created",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.as_str() == name)
    }
}

/// One record of the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub id: EventId,
    pub merchant_id: MerchantId,
    /// `None` only for the tombstone left when a profile is erased.
    pub profile_id: Option<ProfileId>,
    pub activity: Activity,
    /// A short human sentence.
    pub details: String,
    /// The template's name, for quiz events; empty otherwise.
    pub template_used: String,
    /// The quiz's short address, for quiz events; empty otherwise.
    pub url: String,
    /// The profile's status after the event.
    pub status: ProfileStatus,
    pub created_at: OffsetDateTime,
}

impl Event {
    /// An event about a profile that is not tied to a quiz.
    pub fn about(
        id: EventId,
        profile: &Profile,
        activity: Activity,
        details: impl Into<String>,
        now: OffsetDateTime,
    ) -> Self {
        Self {
            id,
            merchant_id: profile.merchant_id.clone(),
            profile_id: Some(profile.id.clone()),
            activity,
            details: details.into(),
            template_used: String::new(),
            url: String::new(),
            status: profile.status,
            created_at: now,
        }
    }
}

impl Event {
    /// An event about a quiz: names the template used and the quiz's short address.
    pub fn about_quiz(
        id: EventId,
        profile: &Profile,
        activity: Activity,
        details: impl Into<String>,
        template_used: &str,
        tiny_url: &str,
        now: OffsetDateTime,
    ) -> Self {
        Self {
            template_used: template_used.to_owned(),
            url: tiny_url.to_owned(),
            ..Self::about(id, profile, activity, details, now)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_activity_name_parses_back() {
        for activity in Activity::ALL {
            assert_eq!(Activity::parse(activity.as_str()), Some(activity));
        }
        assert_eq!(Activity::parse("unknown"), None);
    }
}
