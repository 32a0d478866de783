//! The activity log of a profile. Events are written with the change they record and
//! never edited.

use strum::{EnumString, IntoStaticStr, VariantArray};
use time::OffsetDateTime;

use crate::ids::{DocumentId, EventId};
use crate::merchant::MerchantId;
use crate::profile::{Email, Profile, ProfileId, ProfileStatus};
use crate::quiz::QuizLinks;
use crate::verification::VerificationStatus;

/// What an event's `status` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventStatus {
    /// The profile's status after the event (every activity but one).
    Profile(ProfileStatus),
    /// A verification's outcome (`verification_completed`, contract §13).
    Verification(VerificationStatus),
}

impl EventStatus {
    /// Its name in the API (`Pending`, `Approved`... or `passed`, `review`, `declined`).
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Profile(status) => status.as_str(),
            Self::Verification(status) => status.as_str(),
        }
    }

    /// The status of exactly this name: a profile's (`Approved`), else a verification's
    /// (`passed`).
    pub fn parse(name: &str) -> Option<Self> {
        name.parse::<ProfileStatus>()
            .ok()
            .filter(|status| status.as_str() == name)
            .map(Self::Profile)
            .or_else(|| VerificationStatus::parse(name).map(Self::Verification))
    }
}

/// What happened. The set is closed: merchants filter and count on these names, the
/// variants' in snake case (`profile_created`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, VariantArray, IntoStaticStr, EnumString)]
#[strum(serialize_all = "snake_case")]
#[cfg_attr(feature = "stable-api", non_exhaustive)]
pub enum Activity {
    /// A profile was created.
    ProfileCreated,
    /// A profile's fields were changed.
    ProfileUpdated,
    /// A profile's status was set.
    ProfileStatusChanged,
    /// A profile was erased (kept as an anonymous tombstone).
    ProfileDeleted,
    /// A quiz was sent.
    QuizCreated,
    /// The client opened the quiz for the first time.
    QuizOpened,
    /// The client typed form fields.
    FormFieldsSubmitted,
    /// The client handed in a document (files, agreement, fingerprint).
    DocumentUploaded,
    /// The client completed the quiz.
    QuizSubmitted,
    /// The merchant ended a quiz early.
    QuizExpired,
    /// The merchant withdrew a quiz.
    QuizDeleted,
    /// The merchant gave a quiz more time (opening it again if it had expired).
    QuizExtended,
    /// A document's status was set.
    DocumentStatusChanged,
    /// A document was deleted.
    DocumentDeleted,
    /// A note was written.
    NoteCreated,
    /// A verification of a submitted quiz completed (its `status` is the profile's; the
    /// outcome is in `details`).
    VerificationCompleted,
    /// Retention erased a decided profile's personal data (contract §15); the profile,
    /// its statuses and its log stay.
    PersonalDataErased,
    /// Screening found a new potential match of the profile on a list (contract §19).
    ScreeningMatch,
}

impl Activity {
    /// Every activity.
    pub const ALL: &'static [Activity] = <Self as VariantArray>::VARIANTS;

    /// The interface's name (`profile_created`...).
    pub fn as_str(&self) -> &'static str {
        self.into()
    }

    /// The activity with this name, if any.
    pub fn parse(name: &str) -> Option<Self> {
        name.parse().ok()
    }
}

/// Who made a change, as the log's `details` name them: the merchant's API, or a
/// reviewer in the dashboard (by the reviewer's e-mail, contract §10).
#[derive(Debug, Clone, Copy)]
pub enum Actor<'a> {
    /// A signed API request.
    Api,
    /// A dashboard user.
    Reviewer(&'a Email),
    /// The verification engine, deciding by the merchant's policy (`auto_decision`).
    Verification,
}

impl Actor<'_> {
    /// `details` with who did it appended, when that was a reviewer.
    pub fn sign(&self, details: impl Into<String>) -> String {
        let details = details.into();
        match self {
            Self::Api => details,
            Self::Reviewer(email) => format!("{details} by {}", email.as_str()),
            Self::Verification => format!("{details} by verification"),
        }
    }
}

/// One record of the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Its id (a ULID: ids sort by time).
    pub id: EventId,
    /// The merchant whose log it is in.
    pub merchant_id: MerchantId,
    /// `None` only for the tombstone left when a profile is erased.
    pub profile_id: Option<ProfileId>,
    /// What happened.
    pub activity: Activity,
    /// A short human sentence.
    pub details: String,
    /// The template's name, for quiz events; empty otherwise.
    pub template_used: String,
    /// The quiz's short address, for quiz events; empty otherwise.
    pub url: String,
    /// The profile's status after the event; for `verification_completed`, the
    /// verification's outcome.
    pub status: EventStatus,
    /// When it happened.
    pub created_at: OffsetDateTime,
    /// Whom and what it is about, as the merchant's webhooks name them. Taken when the
    /// event is made and handed to the deliveries it owes; the log itself does not keep
    /// it, so an event read back from the log has `None`.
    pub subject: Option<Subject>,
}

/// Whom and what an event is about: the identifiers a merchant needs to act on a webhook,
/// and never a personal value beyond the profile's e-mail and mobile (the merchant fetches
/// the rest through the signed API).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    /// The profile's e-mail address when the event was made.
    pub email_address: String,
    /// The profile's mobile number when the event was made.
    pub mobile_number: String,
    /// The document, for document events.
    pub document_id: Option<DocumentId>,
    /// The quiz's long address, for quiz events.
    pub quiz_url: Option<String>,
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
            status: EventStatus::Profile(profile.status),
            created_at: now,
            subject: Some(Subject {
                email_address: profile.key.email.as_str().to_owned(),
                mobile_number: profile.key.mobile.as_str().to_owned(),
                document_id: None,
                quiz_url: None,
            }),
        }
    }

    /// The same event, naming the document it is about.
    pub fn with_document(mut self, document: &DocumentId) -> Self {
        if let Some(subject) = &mut self.subject {
            subject.document_id = Some(document.clone());
        }
        self
    }
}

impl Event {
    /// An event about a quiz: names the template used and the quiz's short address (and,
    /// for webhooks, its long one).
    pub fn about_quiz(
        id: EventId,
        profile: &Profile,
        activity: Activity,
        details: impl Into<String>,
        template_used: &str,
        links: QuizLinks,
        now: OffsetDateTime,
    ) -> Self {
        let mut event = Self::about(id, profile, activity, details, now);
        event.template_used = template_used.to_owned();
        event.url = links.tiny_url;
        if let Some(subject) = &mut event.subject {
            subject.quiz_url = Some(links.long_url);
        }
        event
    }
}

#[cfg(test)]
mod status_tests {
    use super::*;

    #[test]
    fn a_profiles_and_a_verifications_statuses_parse_back_as_written() {
        for status in [
            EventStatus::Profile(ProfileStatus::Declined),
            EventStatus::Profile(ProfileStatus::Pending),
            EventStatus::Verification(VerificationStatus::Declined),
            EventStatus::Verification(VerificationStatus::Pending),
        ] {
            assert_eq!(EventStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(EventStatus::parse("DECLINED"), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_activity_name_parses_back() {
        for &activity in Activity::ALL {
            assert_eq!(Activity::parse(activity.as_str()), Some(activity));
        }
        assert_eq!(Activity::parse("unknown"), None);
        assert_eq!(Activity::parse("Quiz_Opened"), None, "names are exact");
        assert_eq!(
            Activity::ALL
                .iter()
                .map(Activity::as_str)
                .collect::<Vec<_>>(),
            [
                "profile_created",
                "profile_updated",
                "profile_status_changed",
                "profile_deleted",
                "quiz_created",
                "quiz_opened",
                "form_fields_submitted",
                "document_uploaded",
                "quiz_submitted",
                "quiz_expired",
                "quiz_deleted",
                "quiz_extended",
                "document_status_changed",
                "document_deleted",
                "note_created",
                "verification_completed",
                "personal_data_erased",
                "screening_match",
            ]
        );
    }
}
