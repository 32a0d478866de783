//! The client profile: who the merchant is verifying.

mod address;
mod fields;
mod regions;
mod status;

pub use address::Address;
pub(crate) use address::{check_date_of_birth, check_region};
pub use fields::{
    Amount, BoundedText, Country, DateOfBirth, Email, IpAddress, LongText, PhoneNumber, Postal,
    ShortText, Ssn, State, invisible_ranges, is_invisible,
};
pub use regions::countries;
pub use status::ProfileStatus;

use time::{Date, OffsetDateTime};

pub use crate::ids::ProfileId;
use crate::merchant::{MerchantId, RetentionDays};
use crate::validation::Violations;

/// The e-mail address and mobile number that together identify a client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileKey {
    /// The e-mail address (unique per merchant, case-insensitively).
    pub email: Email,
    /// The mobile number (unique per merchant).
    pub mobile: PhoneNumber,
}

/// A field a change may leave alone, clear or set.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Patch<T> {
    /// Leave the stored value as it is (the field was absent).
    #[default]
    Keep,
    /// Clear it (`null` or `""`).
    Clear,
    /// Set it.
    Set(T),
}

impl<T> Patch<T> {
    fn apply_to(self, field: &mut Option<T>) {
        *field = self.applied_to(field.take());
    }

    /// What `value` becomes with this change.
    pub fn applied_to(self, value: Option<T>) -> Option<T> {
        match self {
            Patch::Keep => value,
            Patch::Clear => None,
            Patch::Set(new) => Some(new),
        }
    }
}

/// Declares the optional profile attributes once, and derives from that list both the
/// stored form ([`Attributes`], every field an `Option`) and the change form
/// ([`AttributesPatch`], every field a [`Patch`]), so the two cannot drift apart.
macro_rules! optional_attributes {
    ($($(#[$doc:meta])* $name:ident: $ty:ty,)*) => {
        /// The optional attributes a merchant keeps on a profile.
        #[derive(Debug, Clone, PartialEq, Eq, Default)]
        pub struct Attributes {
            $($(#[$doc])* pub $name: Option<$ty>,)*
        }

        /// A change to [`Attributes`]: each field kept, cleared or set.
        #[derive(Debug, Clone, PartialEq, Eq, Default)]
        pub struct AttributesPatch {
            $($(#[$doc])* pub $name: Patch<$ty>,)*
        }

        impl AttributesPatch {
            fn apply_to(self, attributes: &mut Attributes) {
                $(self.$name.apply_to(&mut attributes.$name);)*
            }
        }
    };
}

optional_attributes! {
    /// The merchant's own reference for the client.
    merchant_reference: LongText,
    /// The merchant's customer id.
    customer_id: LongText,
    /// The client's middle name.
    middle_name: ShortText,
    /// The client's date of birth (sealed at rest).
    date_of_birth: DateOfBirth,
    /// The client's home phone.
    home_phone_number: PhoneNumber,
    /// The address the client was seen from.
    ip_address: IpAddress,
    /// Street address.
    address_line_1: LongText,
    /// Apartment, suite...
    address_line_2: LongText,
    /// City.
    city: ShortText,
    /// State or province.
    state: State,
    /// Postal or zip code.
    postal: Postal,
    /// Country (ISO 3166-1 alpha-2).
    country: Country,
    /// Driver's licence number (sealed at rest).
    driver_licence_id: LongText,
    /// SSN / SIN (sealed at rest).
    ssn: Ssn,
    /// An amount at stake (two decimals).
    amount: Amount,
}

/// What a merchant sends to create or update a profile. The names are required by the
/// interface on both operations; everything else may be kept, cleared or set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileChanges {
    /// Required on create and update.
    pub first_name: ShortText,
    /// Required on create and update.
    pub last_name: ShortText,
    /// The optional attributes: each kept, cleared or set.
    pub attributes: AttributesPatch,
}

impl ProfileChanges {
    /// Changes that leave `profile` as it is (a new quiz for a client as they stand).
    pub fn none_to(profile: &Profile) -> Self {
        Self {
            first_name: profile.first_name.clone(),
            last_name: profile.last_name.clone(),
            attributes: AttributesPatch::default(),
        }
    }
}

/// What the client typed into the quiz's form steps, kept apart from the merchant's data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmittedFormFields {
    /// The e-mail the client typed.
    pub email_address: Option<Email>,
    /// The mobile number the client typed.
    pub mobile_number: Option<PhoneNumber>,
    /// The address as one line: "1 Main St, Apt 2, Toronto, ON M5V 2T6, CA" (an
    /// [`Address`]'s `one_line`).
    pub address: Option<String>,
    /// The date of birth the client typed.
    pub date_of_birth: Option<DateOfBirth>,
    /// The SSN the client typed.
    pub ssn: Option<Ssn>,
    /// When the client first submitted a field.
    pub created_at: OffsetDateTime,
    /// When the client last submitted a field.
    pub updated_at: OffsetDateTime,
}

impl Default for SubmittedFormFields {
    fn default() -> Self {
        Self {
            email_address: None,
            mobile_number: None,
            address: None,
            date_of_birth: None,
            ssn: None,
            created_at: OffsetDateTime::UNIX_EPOCH,
            updated_at: OffsetDateTime::UNIX_EPOCH,
        }
    }
}

/// A merchant's client: who they are and what was verified about them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// Its id (a ULID).
    pub id: ProfileId,
    /// The merchant that keeps it.
    pub merchant_id: MerchantId,
    /// The pair that identifies it.
    pub key: ProfileKey,
    /// The client's first name.
    pub first_name: ShortText,
    /// The client's last name.
    pub last_name: ShortText,
    /// The optional attributes the merchant keeps.
    pub attributes: Attributes,
    /// The merchant's verdict.
    pub status: ProfileStatus,
    /// What the client typed through quizzes, if anything.
    pub submitted: Option<SubmittedFormFields>,
    /// When it was created.
    pub created_at: OffsetDateTime,
    /// When it last changed.
    pub updated_at: OffsetDateTime,
    /// Bumped by every stored change; a write naming an older revision is refused, so
    /// two concurrent partial updates cannot silently overwrite each other.
    pub revision: i64,
    /// When the status became what it is (setting the same status again does not move
    /// it): retention counts from here.
    pub status_changed_at: OffsetDateTime,
    /// When retention last erased its personal data, if ever.
    pub erased_at: Option<OffsetDateTime>,
}

impl Profile {
    /// A new `Pending` profile, checked as [`Profile::apply`] checks changes.
    pub fn create(
        id: ProfileId,
        merchant_id: MerchantId,
        key: ProfileKey,
        changes: ProfileChanges,
        now: OffsetDateTime,
    ) -> Result<Self, Violations> {
        let mut profile = Self {
            id,
            merchant_id,
            key,
            first_name: changes.first_name.clone(),
            last_name: changes.last_name.clone(),
            attributes: Attributes::default(),
            status: ProfileStatus::Pending,
            submitted: None,
            created_at: now,
            updated_at: now,
            revision: 0,
            status_changed_at: now,
            erased_at: None,
        };
        profile.apply(changes, now)?;
        Ok(profile)
    }

    /// Applies the changes, then checks the rules that span fields or need the date.
    /// On error the profile is left as it was.
    pub fn apply(
        &mut self,
        changes: ProfileChanges,
        now: OffsetDateTime,
    ) -> Result<(), Violations> {
        let mut attributes = self.attributes.clone();
        changes.attributes.apply_to(&mut attributes);
        check_attributes(&attributes, now.date())?;
        self.first_name = changes.first_name;
        self.last_name = changes.last_name;
        self.attributes = attributes;
        self.updated_at = now;
        Ok(())
    }

    /// Sets the status (any may follow any other).
    pub fn set_status(&mut self, status: ProfileStatus, now: OffsetDateTime) {
        if status != self.status {
            self.status_changed_at = now;
        }
        self.status = status;
        self.updated_at = now;
    }

    /// Whether retention (contract §15) erases this profile's personal data at `now`: it
    /// was decided (`Approved` or `Declined`) at least `retention` ago, and not erased
    /// since that decision. A profile erased once is not erased again unless it is
    /// decided anew (its status changed) after the erasure.
    pub fn due_for_erasure(&self, retention: RetentionDays, now: OffsetDateTime) -> bool {
        let decided = matches!(
            self.status,
            ProfileStatus::Approved | ProfileStatus::Declined
        );
        let erased_since = self
            .erased_at
            .is_some_and(|at| at >= self.status_changed_at);
        decided && !erased_since && self.status_changed_at + retention.duration() <= now
    }

    /// Forgets the personal values the profile keeps sealed (date of birth, licence
    /// number, SSN, and everything the client typed into quizzes). The names, the e-mail
    /// and mobile (the pair that names the profile), the merchant's own attributes, the
    /// status and the log stay.
    pub fn erase_personal_data(&mut self, now: OffsetDateTime) {
        self.attributes.date_of_birth = None;
        self.attributes.driver_licence_id = None;
        self.attributes.ssn = None;
        self.submitted = None;
        self.erased_at = Some(now);
        self.updated_at = now;
    }

    /// First and last name.
    pub fn full_name(&self) -> String {
        let mut parts = vec![self.first_name.as_str()];
        if let Some(middle) = &self.attributes.middle_name {
            parts.push(middle.as_str());
        }
        parts.push(self.last_name.as_str());
        parts.join(" ")
    }
}

fn check_attributes(attributes: &Attributes, today: Date) -> Result<(), Violations> {
    let mut violations = Violations::new();
    check_date_of_birth(attributes.date_of_birth.as_ref(), today, &mut violations);
    check_region(
        attributes.state.as_ref(),
        attributes.country.as_ref(),
        &mut violations,
    );
    violations.into_result(())
}

/// Which of a merchant's profiles a reviewer is looking for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfileFilter {
    /// Part of the name (first and last), the e-mail or the mobile, in any case.
    pub text: Option<String>,
    /// Only profiles with this status.
    pub status: Option<ProfileStatus>,
}

impl ProfileFilter {
    /// The text to look for, trimmed and in lower case, without control characters (no
    /// stored name, e-mail or mobile holds one, and PostgreSQL refuses a NUL in text);
    /// `None` when there is none.
    pub fn needle(&self) -> Option<String> {
        self.text
            .as_deref()
            .map(|text| text.chars().filter(|c| !c.is_control()).collect::<String>())
            .map(|text| text.trim().to_lowercase())
            .filter(|t| !t.is_empty())
    }

    /// Whether `profile` is one of those looked for.
    pub fn matches(&self, profile: &Profile) -> bool {
        let text_matches = self.needle().is_none_or(|needle| {
            let name = format!(
                "{} {}",
                profile.first_name.as_str(),
                profile.last_name.as_str()
            );
            [
                name.as_str(),
                profile.key.email.as_str(),
                profile.key.mobile.as_str(),
            ]
            .iter()
            .any(|field| field.to_lowercase().contains(&needle))
        });
        text_matches && self.status.is_none_or(|status| profile.status == status)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn a_needle_is_trimmed_lower_case_and_without_controls() {
        let needle = |text: &str| {
            ProfileFilter {
                text: Some(text.to_owned()),
                status: None,
            }
            .needle()
        };
        assert_eq!(needle("  HOP\0per\u{7f} ").as_deref(), Some("hopper"));
        assert_eq!(needle(" \0\t "), None);
    }

    const NOW: OffsetDateTime = datetime!(2026-11-22 10:00 UTC);

    fn changes() -> ProfileChanges {
        ProfileChanges {
            first_name: ShortText::parse("Ada").expect("valid"),
            last_name: ShortText::parse("Lovelace").expect("valid"),
            attributes: AttributesPatch::default(),
        }
    }

    fn profile() -> Profile {
        let key = ProfileKey {
            email: Email::parse("ada@example.com").expect("valid"),
            mobile: PhoneNumber::parse("4165550123").expect("valid"),
        };
        Profile::create(
            ProfileId::new("p1"),
            MerchantId::new("m1"),
            key,
            changes(),
            NOW,
        )
        .expect("valid")
    }

    #[test]
    fn a_new_profile_is_pending() {
        let p = profile();
        assert_eq!(p.status, ProfileStatus::Pending);
        assert_eq!(p.created_at, NOW);
        assert_eq!(p.updated_at, NOW);
    }

    #[test]
    fn a_patch_keeps_clears_or_sets_each_field() {
        let mut p = profile();
        let mut c = changes();
        c.attributes.city = Patch::Set(ShortText::parse("Toronto").expect("valid"));
        c.attributes.ssn = Patch::Set(Ssn::parse("123456789").expect("valid"));
        p.apply(c, NOW).expect("valid");

        let mut c = changes();
        c.attributes.ssn = Patch::Clear;
        let later = datetime!(2026-11-22 11:00 UTC);
        p.apply(c, later).expect("valid");
        assert_eq!(
            p.attributes.city.as_ref().map(|c| c.as_str()),
            Some("Toronto")
        );
        assert_eq!(p.attributes.ssn, None);
        assert_eq!(p.updated_at, later);
        assert_eq!(p.created_at, NOW);
    }

    #[test]
    fn a_state_outside_the_country_is_refused_and_nothing_changes() {
        let mut p = profile();
        let mut c = changes();
        c.attributes.country = Patch::Set(Country::parse("US").expect("valid"));
        c.attributes.state = Patch::Set(State::parse("ON").expect("valid"));
        c.attributes.city = Patch::Set(ShortText::parse("Toronto").expect("valid"));
        let err = p.apply(c, NOW).expect_err("ON is not a US state");
        assert_eq!(
            err.iter().map(|v| v.field.as_str()).collect::<Vec<_>>(),
            ["state"]
        );
        assert_eq!(p.attributes.city, None, "left as it was");
    }

    #[test]
    fn a_state_is_checked_against_a_country_already_stored() {
        let mut p = profile();
        let mut c = changes();
        c.attributes.country = Patch::Set(Country::parse("CA").expect("valid"));
        p.apply(c, NOW).expect("valid");
        let mut c = changes();
        c.attributes.state = Patch::Set(State::parse("TX").expect("valid"));
        assert!(p.apply(c, NOW).is_err());
    }

    #[test]
    fn a_date_of_birth_today_or_later_is_refused() {
        let mut p = profile();
        let mut c = changes();
        c.attributes.date_of_birth = Patch::Set(DateOfBirth::parse("2026-11-22").expect("date"));
        let err = p.apply(c, NOW).expect_err("today is not in the past");
        assert_eq!(
            err.iter().next().map(|v| v.field.as_str()),
            Some("date_of_birth")
        );
    }

    #[test]
    fn retention_counts_from_the_decision_and_erases_once_per_decision() {
        let thirty = RetentionDays::new(30).expect("valid");
        let day = time::Duration::days(1);
        let mut p = profile();
        assert!(
            !p.due_for_erasure(thirty, NOW + day * 400),
            "Pending is kept"
        );
        p.set_status(ProfileStatus::Approved, NOW);
        assert!(!p.due_for_erasure(thirty, NOW + day * 29));
        assert!(p.due_for_erasure(thirty, NOW + day * 30));
        p.set_status(ProfileStatus::Approved, NOW + day * 10);
        assert_eq!(
            p.status_changed_at, NOW,
            "the same status again moves nothing"
        );

        p.erase_personal_data(NOW + day * 30);
        assert!(!p.due_for_erasure(thirty, NOW + day * 90), "erased once");
        p.set_status(ProfileStatus::Declined, NOW + day * 40);
        assert!(!p.due_for_erasure(thirty, NOW + day * 69));
        assert!(p.due_for_erasure(thirty, NOW + day * 70), "decided anew");
        p.set_status(ProfileStatus::Pending, NOW + day * 71);
        assert!(!p.due_for_erasure(thirty, NOW + day * 400));
    }

    #[test]
    fn erasure_forgets_the_sealed_values_and_keeps_the_rest() {
        let mut p = profile();
        let mut c = changes();
        c.attributes.ssn = Patch::Set(Ssn::parse("123456789").expect("valid"));
        c.attributes.date_of_birth = Patch::Set(DateOfBirth::parse("1990-01-02").expect("date"));
        c.attributes.driver_licence_id = Patch::Set(LongText::parse("D123").expect("valid"));
        c.attributes.city = Patch::Set(ShortText::parse("Toronto").expect("valid"));
        p.apply(c, NOW).expect("valid");
        p.submitted = Some(SubmittedFormFields {
            ssn: Some(Ssn::parse("123456789").expect("valid")),
            ..SubmittedFormFields::default()
        });
        let later = datetime!(2026-12-22 10:00 UTC);
        p.erase_personal_data(later);
        let a = &p.attributes;
        assert_eq!(
            (&a.ssn, &a.date_of_birth, &a.driver_licence_id),
            (&None, &None, &None)
        );
        assert_eq!(p.submitted, None);
        assert_eq!(a.city.as_ref().map(|c| c.as_str()), Some("Toronto"));
        assert_eq!(p.full_name(), "Ada Lovelace");
        assert_eq!((p.erased_at, p.updated_at), (Some(later), later));
    }

    #[test]
    fn the_full_name_includes_the_middle_name_when_known() {
        let mut p = profile();
        assert_eq!(p.full_name(), "Ada Lovelace");
        let mut c = changes();
        c.attributes.middle_name = Patch::Set(ShortText::parse("King").expect("valid"));
        p.apply(c, NOW).expect("valid");
        assert_eq!(p.full_name(), "Ada King Lovelace");
    }
}
