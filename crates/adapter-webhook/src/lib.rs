//! Sends webhook deliveries: the payload of contract §9, signed as Standard Webhooks says,
//! posted with a timeout and no redirects, and never to a private address unless allowed.

mod address_guard;
pub mod openapi;
mod payload;
mod signature;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use domain::ports::WebhookSender;
use domain::webhook::{ANSWER_TIMEOUT, Answer, Notification, Webhook};
use time::OffsetDateTime;

use address_guard::{AddressGuard, refused_literal};
pub use payload::body;
pub use signature::signature_header;

/// How long connecting may take, within the whole answer's timeout.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Posts deliveries over HTTP(S).
#[derive(Debug, Clone)]
pub struct HttpSender {
    client: reqwest::Client,
    allow_private: bool,
}

impl HttpSender {
    /// A sender; `allow_private` lets it reach loopback, private, link-local and
    /// unique-local addresses (`IDV_WEBHOOK_ALLOW_PRIVATE=1`), never special-purpose ones.
    pub fn new(allow_private: bool) -> Result<Self, reqwest::Error> {
        // reqwest does TLS with the process's rustls provider, and this build carries only
        // ring's (see the workspace's Cargo.toml); a second install is refused, harmlessly.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(ANSWER_TIMEOUT)
            .connect_timeout(CONNECT_TIMEOUT)
            // Names are resolved by the guard, which drops private addresses: the check
            // holds at each connection, whatever the name resolved to at registration.
            .dns_resolver(Arc::new(AddressGuard { allow_private }))
            .no_proxy()
            // A fresh connection per attempt: a kept-alive one the receiver has closed
            // meanwhile fails the attempt for nothing (and deliveries to one endpoint are
            // rarely close enough together for reuse to pay).
            .pool_max_idle_per_host(0)
            .user_agent(concat!("idv-webhooks/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(Self {
            client,
            allow_private,
        })
    }
}

#[async_trait]
impl WebhookSender for HttpSender {
    async fn send(
        &self,
        webhook: &Webhook,
        notification: &Notification,
        now: OffsetDateTime,
    ) -> Answer {
        let url = match reqwest::Url::parse(webhook.url.as_str()) {
            Ok(url) => url,
            Err(e) => return Answer::NoAnswer(format!("invalid address: {e}")),
        };
        // A literal address is connected to without resolving: checked here instead.
        if refused_literal(&url, self.allow_private) {
            return Answer::NoAnswer("refused: no address a webhook may reach".to_owned());
        }
        let body = body(notification);
        let timestamp = now.unix_timestamp();
        let secrets = webhook.signing_secrets(now);
        let signature =
            signature_header(notification.event_id.as_str(), timestamp, &body, &secrets);
        let sent = self
            .client
            .post(url)
            .header("content-type", "application/json")
            .header("webhook-id", notification.event_id.as_str())
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signature)
            .body(body)
            .send()
            .await;
        match sent {
            Ok(response) => Answer::Status {
                code: response.status().as_u16(),
                retry_after: retry_after(response.headers(), now),
            },
            Err(e) => Answer::NoAnswer(describe(&e)),
        }
    }
}

/// `Retry-After` as a wait from `now`: delay-seconds or an HTTP date.
fn retry_after(
    headers: &reqwest::header::HeaderMap,
    now: OffsetDateTime,
) -> Option<time::Duration> {
    let value = headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim();
    if let Ok(seconds) = value.parse::<u32>() {
        return Some(time::Duration::seconds(i64::from(seconds)));
    }
    let at = OffsetDateTime::parse(value, &time::format_description::well_known::Rfc2822).ok()?;
    Some(at - now).filter(|wait| wait.is_positive())
}

/// Why an attempt got no answer, in words for the merchant's delivery log. The address
/// is left out: it is the merchant's own, and shown beside the delivery already.
fn describe(e: &reqwest::Error) -> String {
    let what = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "could not connect"
    } else if e.is_redirect() {
        "redirects are not followed"
    } else {
        "request failed"
    };
    let mut cause: &dyn std::error::Error = e;
    while let Some(source) = cause.source() {
        cause = source;
    }
    format!("{what}: {cause}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{HeaderMap, HeaderValue, RETRY_AFTER};
    use time::macros::datetime;

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        let now = datetime!(2026-11-22 10:00 UTC);
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(RETRY_AFTER, HeaderValue::from_str(value).expect("header"));
            retry_after(&headers, now)
        };
        assert_eq!(with("120"), Some(time::Duration::seconds(120)));
        assert_eq!(
            with("Sun, 22 Nov 2026 10:05:00 GMT"),
            Some(time::Duration::minutes(5))
        );
        assert_eq!(with("Sun, 22 Nov 2026 09:00:00 GMT"), None);
        assert_eq!(with("soon"), None);
        assert_eq!(retry_after(&HeaderMap::new(), now), None);
    }
}
