//! Signature scheme `v1`:
//! `Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<path>.<raw body>")>`.

use ring::hmac;
use time::OffsetDateTime;

use super::invalid_signature;
use crate::error::ApiError;

/// How far `t` may be from the server's clock, either way.
pub const SIGNATURE_TOLERANCE_SECONDS: i64 = 300;
/// Most `v1=` values one header may carry (one per secret during a rotation is plenty);
/// past that no MAC is computed, so a long header costs the server nothing.
pub const MAX_V1_VALUES: usize = 5;

pub(super) fn looks_like_v1(header: &str) -> bool {
    header.starts_with("t=")
}

fn message(timestamp: &str, path: &str, body: &[u8]) -> Vec<u8> {
    let mut msg = Vec::with_capacity(timestamp.len() + path.len() + body.len() + 2);
    msg.extend_from_slice(timestamp.as_bytes());
    msg.push(b'.');
    msg.extend_from_slice(path.as_bytes());
    msg.push(b'.');
    msg.extend_from_slice(body);
    msg
}

/// The `Signature` header value a client sends; used by tests and the docs' example.
pub fn sign_v1(secret: &[u8], timestamp: i64, path: &str, body: &[u8]) -> String {
    let key = hmac::Key::new(hmac::HMAC_SHA256, secret);
    let tag = hmac::sign(&key, &message(&timestamp.to_string(), path, body));
    format!("t={timestamp},v1={}", hex::encode(tag.as_ref()))
}

pub(super) fn verify_v1(
    secret: &[u8],
    header: &str,
    path: &str,
    body: &[u8],
    now: OffsetDateTime,
) -> Result<(), ApiError> {
    let mut timestamp = None;
    let mut candidates = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", t)) if timestamp.is_none() => timestamp = Some(t),
            Some(("v1", sig)) => {
                if candidates.len() == MAX_V1_VALUES {
                    return Err(invalid_signature());
                }
                candidates.push(sig);
            }
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or_else(invalid_signature)?;
    let seconds: i64 = timestamp.parse().map_err(|_| invalid_signature())?;
    // The timestamp first: a stale or replayed request costs no MAC.
    if (now.unix_timestamp() - seconds).abs() > SIGNATURE_TOLERANCE_SECONDS {
        return Err(ApiError::unauthorized(
            "SIGNATURE_EXPIRED",
            "The signature's timestamp is more than 300 seconds from the server's clock.",
        ));
    }
    let key = hmac::Key::new(hmac::HMAC_SHA256, secret);
    let msg = message(timestamp, path, body);
    // Constant-time comparison, per candidate; any match passes (key rotation).
    let matches = candidates
        .iter()
        .filter_map(|c| hex::decode(c).ok())
        .any(|c| hmac::verify(&key, &msg, &c).is_ok());
    if !matches {
        return Err(invalid_signature());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_795_000_000;

    fn at(seconds: i64) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(seconds).expect("valid")
    }

    fn codes(r: Result<(), ApiError>) -> Vec<String> {
        r.err()
            .map(|e| e.errors.into_iter().map(|i| i.code).collect())
            .unwrap_or_default()
    }

    #[test]
    fn a_signature_made_for_the_path_and_body_verifies() {
        let header = sign_v1(b"sec-x", NOW, "/api/v1/profile/get", b"{}");
        assert!(verify_v1(b"sec-x", &header, "/api/v1/profile/get", b"{}", at(NOW)).is_ok());
    }

    #[test]
    fn another_path_body_or_secret_fails() {
        let header = sign_v1(b"sec-x", NOW, "/api/v1/document/get", b"{}");
        let check = |secret: &[u8], path, body: &[u8]| {
            codes(verify_v1(secret, &header, path, body, at(NOW)))
        };
        assert_eq!(
            check(b"sec-x", "/api/v1/document/delete", b"{}"),
            ["SIGNATURE_INVALID"]
        );
        assert_eq!(
            check(b"sec-x", "/api/v1/document/get", b"{ }"),
            ["SIGNATURE_INVALID"]
        );
        assert_eq!(
            check(b"sec-y", "/api/v1/document/get", b"{}"),
            ["SIGNATURE_INVALID"]
        );
    }

    #[test]
    fn an_old_or_future_timestamp_is_expired_past_300_seconds() {
        let path = "/api/v1/profile/get";
        let old = sign_v1(b"s", NOW - 301, path, b"");
        assert_eq!(
            codes(verify_v1(b"s", &old, path, b"", at(NOW))),
            ["SIGNATURE_EXPIRED"]
        );
        let edge = sign_v1(b"s", NOW - 300, path, b"");
        assert!(verify_v1(b"s", &edge, path, b"", at(NOW)).is_ok());
        let future = sign_v1(b"s", NOW + 301, path, b"");
        assert_eq!(
            codes(verify_v1(b"s", &future, path, b"", at(NOW))),
            ["SIGNATURE_EXPIRED"]
        );
    }

    #[test]
    fn the_worked_example_of_docs_api_md_holds() {
        let body = br#"{"email_address":"ada@example.com","mobile_number":"4165550123"}"#;
        let header = sign_v1(
            b"sec-0123456789abcdefghijklmnopqrstuv",
            1_795_000_000,
            "/api/v1/profile/get",
            body,
        );
        assert_eq!(
            header,
            "t=1795000000,v1=55567cd89d3c52918cea9241ffc923f37dd8baf8632d00d845badeb884bd0780"
        );
    }

    #[test]
    fn any_of_several_v1_values_may_match() {
        let good = sign_v1(b"s", NOW, "/p", b"x");
        let v1 = good.split_once(",v1=").map(|(_, v)| v).expect("has v1");
        let header = format!("t={NOW},v1={},v1={v1}", "00".repeat(32));
        assert!(verify_v1(b"s", &header, "/p", b"x", at(NOW)).is_ok());
    }

    #[test]
    fn more_than_five_v1_values_are_refused_even_with_a_good_one() {
        let good = sign_v1(b"s", NOW, "/p", b"x");
        let v1 = good.split_once(",v1=").map(|(_, v)| v).expect("has v1");
        let five = format!("t={NOW}{},v1={v1}", ",v1=00".repeat(4));
        assert!(verify_v1(b"s", &five, "/p", b"x", at(NOW)).is_ok());
        let six = format!("t={NOW}{},v1={v1}", ",v1=00".repeat(5));
        assert_eq!(
            codes(verify_v1(b"s", &six, "/p", b"x", at(NOW))),
            ["SIGNATURE_INVALID"]
        );
        let empties = format!("t={NOW}{}", ",v1=".repeat(20_000));
        assert_eq!(
            codes(verify_v1(b"s", &empties, "/p", b"x", at(NOW))),
            ["SIGNATURE_INVALID"]
        );
    }

    #[test]
    fn an_expired_timestamp_is_reported_before_the_mac_is_checked() {
        let header = format!("t={},v1={}", NOW - 1000, "00".repeat(32));
        assert_eq!(
            codes(verify_v1(b"s", &header, "/p", b"x", at(NOW))),
            ["SIGNATURE_EXPIRED"]
        );
    }

    #[test]
    fn malformed_headers_are_invalid() {
        let now = NOW.to_string();
        for header in [
            "t=abc,v1=00".to_owned(),
            format!("t={now}"),
            "v1=00".to_owned(),
            format!("t={now},v1=zz"),
        ] {
            assert_eq!(
                codes(verify_v1(b"s", &header, "/p", b"", at(NOW))),
                ["SIGNATURE_INVALID"],
                "{header}"
            );
        }
    }
}
