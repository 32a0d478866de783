//! profile/create, profile/update, profile/get, profile/delete, profile/update-status, and
//! the profile-scoped pages (document/read, note/read, event/read, verification/read).

use domain::paging::Page;
use domain::profile::{
    Amount, AttributesPatch, Country, DateOfBirth, Email, IpAddress, LongText, PhoneNumber, Postal,
    ProfileChanges, ProfileKey, ProfileStatus, ShortText, Ssn, State,
};
use serde::Deserialize;
use utoipa::ToSchema;

use super::{OptionalPageRequest, rules};
use crate::error::ApiError;
use crate::fields::{Check, Sent};

/// The pair that identifies a profile.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ProfileKeyRequest {
    /// E-mail, at most 45 characters; compared case-insensitively.
    #[serde(default)]
    #[schema(value_type = String, format = Email, max_length = 45, min_length = 3, required)]
    pub email_address: Sent,
    /// 10 digits, NANP (first and fourth digit 2-9).
    #[serde(default)]
    #[schema(schema_with = rules::mobile, required)]
    pub mobile_number: Sent,
}

impl ProfileKeyRequest {
    /// `email_address` and `mobile_number`, both required.
    pub(super) fn read(&self, c: &mut Check) -> Option<ProfileKey> {
        let email = c.required("email_address", &self.email_address, Email::parse);
        let mobile = c.required("mobile_number", &self.mobile_number, PhoneNumber::parse);
        Some(ProfileKey {
            email: email?,
            mobile: mobile?,
        })
    }
}

impl TryFrom<ProfileKeyRequest> for ProfileKey {
    type Error = ApiError;

    fn try_from(r: ProfileKeyRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let key = r.read(&mut c);
        c.finish(|| key)
    }
}

/// profile/create and profile/update: absent leaves a field as it is (update), `null`
/// or `""` clears it.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ProfileRequest {
    #[serde(flatten)]
    pub key: ProfileKeyRequest,
    /// 1 to 45 characters, no control characters.
    #[serde(default)]
    #[schema(schema_with = rules::short_text, required)]
    pub first_name: Sent,
    /// 1 to 45 characters, no control characters.
    #[serde(default)]
    #[schema(schema_with = rules::short_text, required)]
    pub last_name: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::clearable_long_text)]
    pub merchant_reference: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::clearable_long_text)]
    pub customer_id: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::clearable_short_text)]
    pub middle_name: Sent,
    /// `YYYY-MM-DD`, in the past.
    #[serde(default)]
    #[schema(schema_with = rules::clearable_date_of_birth)]
    pub date_of_birth: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::clearable_phone)]
    pub home_phone_number: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::clearable_ip)]
    pub ip_address: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::clearable_long_text)]
    pub address_line_1: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::clearable_long_text)]
    pub address_line_2: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::clearable_short_text)]
    pub city: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::clearable_state)]
    pub state: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::clearable_postal)]
    pub postal: Sent,
    /// ISO 3166-1 alpha-2.
    #[serde(default)]
    #[schema(schema_with = rules::clearable_country)]
    pub country: Sent,
    #[serde(default)]
    #[schema(schema_with = rules::clearable_long_text)]
    pub driver_licence_id: Sent,
    /// 9 digits.
    #[serde(default)]
    #[schema(schema_with = rules::clearable_ssn)]
    pub ssn: Sent,
    /// Non-negative, at most two decimals.
    #[serde(default)]
    #[schema(schema_with = rules::clearable_amount)]
    pub amount: Sent,
}

impl ProfileRequest {
    /// The profile's pair and its other fields (interface §2.2), read into `c`.
    pub(super) fn read(&self, c: &mut Check) -> Option<(ProfileKey, ProfileChanges)> {
        let key = self.key.read(c);
        let first_name = c.required("first_name", &self.first_name, ShortText::parse_typed);
        let last_name = c.required("last_name", &self.last_name, ShortText::parse_typed);
        let attributes = AttributesPatch {
            merchant_reference: c.patch(
                "merchant_reference",
                &self.merchant_reference,
                LongText::parse_typed,
            ),
            customer_id: c.patch("customer_id", &self.customer_id, LongText::parse_typed),
            middle_name: c.patch("middle_name", &self.middle_name, ShortText::parse_typed),
            date_of_birth: c.patch("date_of_birth", &self.date_of_birth, DateOfBirth::parse),
            home_phone_number: c.patch(
                "home_phone_number",
                &self.home_phone_number,
                PhoneNumber::parse,
            ),
            ip_address: c.patch("ip_address", &self.ip_address, IpAddress::parse),
            address_line_1: c.patch(
                "address_line_1",
                &self.address_line_1,
                LongText::parse_typed,
            ),
            address_line_2: c.patch(
                "address_line_2",
                &self.address_line_2,
                LongText::parse_typed,
            ),
            city: c.patch("city", &self.city, ShortText::parse_typed),
            state: c.patch("state", &self.state, State::parse),
            postal: c.patch("postal", &self.postal, Postal::parse),
            country: c.patch("country", &self.country, Country::parse),
            driver_licence_id: c.patch(
                "driver_licence_id",
                &self.driver_licence_id,
                LongText::parse_typed,
            ),
            ssn: c.patch("ssn", &self.ssn, Ssn::parse),
            amount: c.numeric_patch("amount", &self.amount, Amount::parse),
        };
        let changes = ProfileChanges {
            first_name: first_name?,
            last_name: last_name?,
            attributes,
        };
        Some((key?, changes))
    }
}

impl TryFrom<ProfileRequest> for (ProfileKey, ProfileChanges) {
    type Error = ApiError;

    fn try_from(r: ProfileRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let read = r.read(&mut c);
        c.finish(|| read)
    }
}

/// profile/update-status.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ProfileStatusRequest {
    #[serde(flatten)]
    pub key: ProfileKeyRequest,
    #[serde(default)]
    #[schema(schema_with = rules::profile_status, required)]
    pub status: Sent,
}

impl TryFrom<ProfileStatusRequest> for (ProfileKey, ProfileStatus) {
    type Error = ApiError;

    fn try_from(r: ProfileStatusRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let key = r.key.read(&mut c);
        let status = c.required("status", &r.status, str::parse::<ProfileStatus>);
        c.finish(|| Some((key?, status?)))
    }
}

/// document/read, note/read, event/read.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ProfilePageRequest {
    #[serde(flatten)]
    pub key: ProfileKeyRequest,
    #[serde(flatten)]
    pub page: OptionalPageRequest,
}

impl TryFrom<ProfilePageRequest> for (ProfileKey, Page) {
    type Error = ApiError;

    fn try_from(r: ProfilePageRequest) -> Result<Self, ApiError> {
        let mut c = Check::new();
        let key = r.key.read(&mut c);
        let page = r.page.read(&mut c);
        c.finish(|| Some((key?, page?)))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::fields;

    #[test]
    fn wrongly_typed_fields_of_a_flattened_pair_are_each_a_violation_beside_the_others() {
        let body = json!({
            "email_address": 5, "mobile_number": ["4165550101"], "first_name": {},
            "last_name": "Lovelace", "amount": true, "offset": "0", "limit": 1.5
        });
        let body = body.as_object().expect("object");
        let err = fields::parse::<ProfileRequest, (ProfileKey, ProfileChanges)>(body)
            .expect_err("four wrong types");
        assert_eq!(
            err.codes(),
            [
                "EMAIL_ADDRESS_INVALID",
                "MOBILE_NUMBER_INVALID",
                "FIRST_NAME_INVALID",
                "AMOUNT_INVALID"
            ]
        );
        let err = fields::parse::<ProfilePageRequest, (ProfileKey, Page)>(body)
            .expect_err("two pairs and two pages wrong");
        assert_eq!(
            err.codes(),
            [
                "EMAIL_ADDRESS_INVALID",
                "MOBILE_NUMBER_INVALID",
                "OFFSET_INVALID",
                "LIMIT_INVALID"
            ]
        );
    }
}
