//! The `webhook-signature` header of Standard Webhooks.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use domain::webhook::{SECRET_PREFIX, WebhookSecret};
use ring::hmac;

/// `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under each secret (its base64
/// after `whsec_`, decoded), space-separated: two during a rotation.
pub fn signature_header(
    id: &str,
    timestamp: i64,
    body: &str,
    secrets: &[&WebhookSecret],
) -> String {
    let signed = format!("{id}.{timestamp}.{body}");
    let signatures: Vec<String> = secrets
        .iter()
        .filter_map(|secret| {
            let encoded = secret.expose().strip_prefix(SECRET_PREFIX)?;
            // A secret this service made always decodes; one that does not is skipped
            // rather than signed with garbage.
            let key = STANDARD.decode(encoded).ok()?;
            let tag = hmac::sign(&hmac::Key::new(hmac::HMAC_SHA256, &key), signed.as_bytes());
            Some(format!("v1,{}", STANDARD.encode(tag.as_ref())))
        })
        .collect();
    signatures.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_as_the_standard_webhooks_reference_does() {
        // The example of the Standard Webhooks specification.
        let secret = WebhookSecret::stored("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
        let header = signature_header(
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            r#"{"test": 2432232314}"#,
            &[&secret],
        );
        assert_eq!(header, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    #[test]
    fn a_rotation_gives_one_signature_per_secret() {
        let a = WebhookSecret::stored("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
        let b = WebhookSecret::stored("whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=");
        let header = signature_header("id", 1, "{}", &[&a, &b]);
        let parts: Vec<&str> = header.split(' ').collect();
        assert_eq!(parts.len(), 2);
        assert!(parts.iter().all(|p| p.starts_with("v1,")));
        assert_ne!(parts[0], parts[1]);
    }
}
