//! The dashboard's second factor: time-based one-time passwords (RFC 6238: SHA-1, six
//! digits, 30-second steps, what every authenticator app reads), with `totp-rs`.

use domain::OffsetDateTime;
use domain::ports::OneTimeCodes;
use domain::user::TotpSecret;
use ring::rand::{SecureRandom, SystemRandom};
use totp_rs::{Algorithm, Builder, Secret};

/// The name authenticator apps show beside the account.
const ISSUER: &str = "idv";
/// 160 bits, the size RFC 4226 recommends.
const SECRET_BYTES: usize = 20;

#[derive(Debug, Default)]
pub struct Totp;

impl Totp {
    fn of(secret: &TotpSecret, account: &str) -> Option<totp_rs::Totp> {
        let secret = Secret::try_from_base32(secret.expose()).ok()?;
        // One step either side: a phone whose clock is up to 30 s off still signs in.
        Builder::new()
            .with_algorithm(Algorithm::SHA1)
            .with_digits(6)
            .with_skew(1)
            .with_step_duration(30)
            .with_secret(secret)
            .with_issuer(Some(ISSUER))
            .with_account_name(account)
            .build()
            .ok()
    }
}

impl OneTimeCodes for Totp {
    fn new_secret(&self) -> TotpSecret {
        let mut bytes = [0u8; SECRET_BYTES];
        // The system's random source failing is not something to sign in through.
        #[allow(clippy::expect_used)]
        SystemRandom::new()
            .fill(&mut bytes)
            .expect("the system's random source works");
        TotpSecret::new(Secret::from(bytes).to_base32())
    }

    fn verify(&self, secret: &TotpSecret, code: &str, now: OffsetDateTime) -> Option<u64> {
        let at = u64::try_from(now.unix_timestamp()).ok()?;
        Self::of(secret, "user")?.check(code, at)
    }

    fn uri(&self, secret: &TotpSecret, account: &str) -> String {
        Self::of(secret, account)
            .and_then(|totp| totp.to_url().ok())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_current_code_and_its_neighbours_pass_and_others_do_not() {
        let codes = Totp;
        let secret = codes.new_secret();
        let now = OffsetDateTime::from_unix_timestamp(1_795_000_000).expect("time");
        let totp = Totp::of(&secret, "a@example.com").expect("valid secret");
        let at = |t: OffsetDateTime| {
            let seconds = u64::try_from(t.unix_timestamp()).expect("after 1970");
            totp.generate(seconds).to_string()
        };
        let step = 1_795_000_000 / 30;
        assert_eq!(codes.verify(&secret, &at(now), now), Some(step));
        let earlier = now - time::Duration::seconds(30);
        assert_eq!(codes.verify(&secret, &at(earlier), now), Some(step - 1));
        let stale = now - time::Duration::minutes(5);
        assert_eq!(codes.verify(&secret, &at(stale), now), None);
        assert_eq!(codes.verify(&secret, "not a code", now), None);
        let uri = codes.uri(&secret, "a@example.com");
        assert!(
            uri.starts_with("otpauth://totp/idv:a%40example.com?"),
            "{uri}"
        );
        assert!(
            uri.contains(&format!("secret={}", secret.expose())),
            "{uri}"
        );
    }
}
