use domain::profile::{
    Country, LongText, PhoneNumber, Postal, Profile, ShortText, Ssn, State, SubmittedFormFields,
};
use serde::Serialize;
use utoipa::ToSchema;

use super::paging::Paging;
use crate::timefmt::rfc3339;

fn text<T>(value: &Option<T>, as_str: impl Fn(&T) -> &str) -> Option<String> {
    value.as_ref().map(|v| as_str(v).to_owned())
}

/// The profile's fields of interface §2.2 (`null` when unset).
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileFields {
    pub merchant_reference: Option<String>,
    pub customer_id: Option<String>,
    pub email_address: String,
    pub mobile_number: String,
    pub first_name: String,
    pub middle_name: Option<String>,
    pub last_name: String,
    /// `YYYY-MM-DD`.
    pub date_of_birth: Option<String>,
    pub home_phone_number: Option<String>,
    pub ip_address: Option<String>,
    pub address_line_1: Option<String>,
    pub address_line_2: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub postal: Option<String>,
    pub country: Option<String>,
    pub driver_licence_id: Option<String>,
    pub ssn: Option<String>,
    /// Two decimals, as a string (`"125.50"`).
    pub amount: Option<String>,
}

impl ProfileFields {
    fn of(p: &Profile) -> Self {
        let a = &p.attributes;
        Self {
            merchant_reference: text(&a.merchant_reference, LongText::as_str),
            customer_id: text(&a.customer_id, LongText::as_str),
            email_address: p.key.email.as_str().to_owned(),
            mobile_number: p.key.mobile.as_str().to_owned(),
            first_name: p.first_name.as_str().to_owned(),
            middle_name: text(&a.middle_name, ShortText::as_str),
            last_name: p.last_name.as_str().to_owned(),
            date_of_birth: a.date_of_birth.map(|d| d.to_string()),
            home_phone_number: text(&a.home_phone_number, PhoneNumber::as_str),
            ip_address: a.ip_address.as_ref().map(ToString::to_string),
            address_line_1: text(&a.address_line_1, LongText::as_str),
            address_line_2: text(&a.address_line_2, LongText::as_str),
            city: text(&a.city, ShortText::as_str),
            state: text(&a.state, State::as_str),
            postal: text(&a.postal, Postal::as_str),
            country: text(&a.country, Country::as_str),
            driver_licence_id: text(&a.driver_licence_id, LongText::as_str),
            ssn: text(&a.ssn, Ssn::as_str),
            amount: a.amount.map(|a| a.to_string()),
        }
    }
}

/// The profile as profile create and update show it (no status).
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileView {
    #[serde(flatten)]
    pub fields: ProfileFields,
    pub created_at: String,
    pub updated_at: String,
}

impl ProfileView {
    pub fn of(p: &Profile) -> Self {
        Self {
            fields: ProfileFields::of(p),
            created_at: rfc3339(p.created_at),
            updated_at: rfc3339(p.updated_at),
        }
    }
}

/// What the client typed through a quiz (`null` members before anything was submitted).
#[derive(Debug, Serialize, ToSchema)]
pub struct SubmittedFields {
    pub email_address: Option<String>,
    pub mobile_number: Option<String>,
    /// One line: `1 Main St, Apt 2, Toronto, ON M5V 2T6, CA`.
    pub address: Option<String>,
    pub date_of_birth: Option<String>,
    pub ssn: Option<String>,
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
}

impl SubmittedFields {
    pub fn of(s: Option<&SubmittedFormFields>) -> Self {
        Self {
            email_address: s.and_then(|s| s.email_address.as_ref().map(|e| e.as_str().to_owned())),
            mobile_number: s.and_then(|s| s.mobile_number.as_ref().map(|m| m.as_str().to_owned())),
            address: s.and_then(|s| s.address.clone()),
            date_of_birth: s.and_then(|s| s.date_of_birth.map(|d| d.to_string())),
            ssn: s.and_then(|s| s.ssn.as_ref().map(|n| n.as_str().to_owned())),
            created_at: s.map(|s| rfc3339(s.created_at)),
            updated_at: s.map(|s| rfc3339(s.updated_at)),
        }
    }
}

/// The profile as profile get and read show it: with `status` and what the client
/// submitted through the quiz.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReviewedProfile {
    #[serde(flatten)]
    pub fields: ProfileFields,
    pub status: String,
    pub created_at: String,
    pub updated_at: String,
    pub customer_submitted_form_fields: SubmittedFields,
}

impl ReviewedProfile {
    pub fn of(p: &Profile) -> Self {
        Self {
            fields: ProfileFields::of(p),
            status: p.status.as_str().to_owned(),
            created_at: rfc3339(p.created_at),
            updated_at: rfc3339(p.updated_at),
            customer_submitted_form_fields: SubmittedFields::of(p.submitted.as_ref()),
        }
    }
}

/// profile/create, profile/update.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileAnswer {
    pub profile: ProfileView,
}

/// profile/get.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReviewedProfileAnswer {
    pub profile: ReviewedProfile,
}

/// profile/read: the merchant's profiles, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileList {
    #[serde(flatten)]
    pub paging: Paging,
    pub profiles: Vec<ReviewedProfile>,
}

/// profile/update-status.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileStatusAnswer {
    pub email_address: String,
    pub mobile_number: String,
    pub status: String,
    pub updated_at: String,
}

/// profile/delete.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileDeleted {
    pub email_address: String,
    pub mobile_number: String,
    /// Always 1.
    pub deleted: u8,
    pub deleted_at: String,
}
