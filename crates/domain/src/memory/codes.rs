//! One-time codes in memory, that tests can compute.

use time::OffsetDateTime;

use crate::ports::OneTimeCodes;
use crate::user::TotpSecret;

/// One-time codes that are the secret's text reversed, whatever the time (of the 30 s
/// step `now` is in); every new secret is `654321`.
#[derive(Debug, Default)]
pub struct ReversedCodes;

impl OneTimeCodes for ReversedCodes {
    fn new_secret(&self) -> TotpSecret {
        TotpSecret::new("654321")
    }
    fn verify(&self, secret: &TotpSecret, code: &str, now: OffsetDateTime) -> Option<u64> {
        let reversed: String = secret.expose().chars().rev().collect();
        (code == reversed)
            .then(|| u64::try_from(now.unix_timestamp() / 30).ok())
            .flatten()
    }
    fn uri(&self, _: &TotpSecret, account: &str) -> String {
        format!("otpauth://totp/{account}")
    }
}
