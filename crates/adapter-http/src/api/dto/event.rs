use domain::event::Event;
use serde::Serialize;
use utoipa::ToSchema;

use super::paging::Paging;
use crate::timefmt::rfc3339;

/// An event record of interface §2.7.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventView {
    /// `profile_created`, `quiz_submitted`, `document_status_changed`...
    pub activity: String,
    pub details: String,
    /// Filled for quiz events, else empty.
    pub template_used: String,
    /// The quiz's tiny address for quiz events, else empty.
    pub url: String,
    /// The profile's status after the event.
    pub status: String,
    pub created_at: String,
}

impl EventView {
    pub fn of(e: &Event) -> Self {
        Self {
            activity: e.activity.as_str().to_owned(),
            details: e.details.clone(),
            template_used: e.template_used.clone(),
            url: e.url.clone(),
            status: e.status.as_str().to_owned(),
            created_at: rfc3339(e.created_at),
        }
    }
}

/// event/read: the profile's history, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventList {
    #[serde(flatten)]
    pub paging: Paging,
    pub email_address: String,
    pub mobile_number: String,
    pub events: Vec<EventView>,
}
