//! The rules a postal address and a date of birth follow wherever they are typed (by the
//! merchant on a profile, by the client on a quiz page), written once.

use time::Date;

use super::{Country, DateOfBirth, LongText, Postal, ShortText, State};
use crate::validation::{Problem, Violations};

/// A state given with a country must be one of its subdivisions (checked for US and CA).
pub(crate) fn check_region(state: Option<&State>, country: Option<&Country>, v: &mut Violations) {
    if let (Some(state), Some(country)) = (state, country)
        && !state.belongs_to(country)
    {
        v.push(
            "state",
            Problem::Invalid,
            format!("is not a subdivision of {}", country.as_str()),
        );
    }
}

/// A date of birth must be in the past.
pub(crate) fn check_date_of_birth(dob: Option<&DateOfBirth>, today: Date, v: &mut Violations) {
    if let Some(dob) = dob
        && !dob.is_before(today)
    {
        v.push("date_of_birth", Problem::Invalid, "must be in the past");
    }
}

/// A whole postal address, as a client types it: line 1, city, postal code and country,
/// and a state that belongs to the country. Once you hold one, it is valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    line_1: LongText,
    line_2: Option<LongText>,
    city: ShortText,
    state: Option<State>,
    postal: Postal,
    country: Country,
}

impl Address {
    /// `state` field errors when the state is not one of the country's.
    ///
    /// ```
    /// use domain::profile::{Address, Country, LongText, Postal, ShortText, State};
    /// let address = |state: &str| {
    ///     Address::new(
    ///         LongText::parse("1 Main St").unwrap(),
    ///         None,
    ///         ShortText::parse("Toronto").unwrap(),
    ///         Some(State::parse(state).unwrap()),
    ///         Postal::parse("M5V 2T6").unwrap(),
    ///         Country::parse("CA").unwrap(),
    ///     )
    /// };
    /// assert_eq!(address("ON").unwrap().one_line(), "1 Main St, Toronto, ON M5V 2T6, CA");
    /// assert!(address("NY").is_err(), "New York is not in Canada");
    /// ```
    pub fn new(
        line_1: LongText,
        line_2: Option<LongText>,
        city: ShortText,
        state: Option<State>,
        postal: Postal,
        country: Country,
    ) -> Result<Self, Violations> {
        let mut violations = Violations::new();
        check_region(state.as_ref(), Some(&country), &mut violations);
        violations.into_result(Self {
            line_1,
            line_2,
            city,
            state,
            postal,
            country,
        })
    }

    /// The one-line form: "1 Main St, Apt 2, Toronto, ON M5V 2T6, CA".
    pub fn one_line(&self) -> String {
        let mut parts = vec![self.line_1.as_str().to_owned()];
        if let Some(line_2) = &self.line_2 {
            parts.push(line_2.as_str().to_owned());
        }
        parts.push(self.city.as_str().to_owned());
        let region = match &self.state {
            Some(state) => format!("{} {}", state.as_str(), self.postal.as_str()),
            None => self.postal.as_str().to_owned(),
        };
        parts.push(region);
        parts.push(self.country.as_str().to_owned());
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(
        line_2: Option<&str>,
        state: Option<&str>,
        country: &str,
    ) -> Result<Address, Violations> {
        Address::new(
            LongText::parse("1 Main St").expect("valid"),
            line_2.map(|l| LongText::parse(l).expect("valid")),
            ShortText::parse("Toronto").expect("valid"),
            state.map(|s| State::parse(s).expect("valid")),
            Postal::parse("M5V 2T6").expect("valid"),
            Country::parse(country).expect("valid"),
        )
    }

    #[test]
    fn an_address_reads_as_one_line() {
        let full = address(Some("Apt 2"), Some("ON"), "CA").expect("valid");
        assert_eq!(full.one_line(), "1 Main St, Apt 2, Toronto, ON M5V 2T6, CA");
        let plain = address(None, None, "CA").expect("valid");
        assert_eq!(plain.one_line(), "1 Main St, Toronto, M5V 2T6, CA");
    }

    #[test]
    fn a_state_must_belong_to_its_country() {
        let err = address(None, Some("NY"), "CA").expect_err("NY is not in Canada");
        assert!(err.iter().any(|v| v.field == "state"));
    }
}
