//! Where the client's browser goes after submitting a quiz (contract §14).

use crate::ids::ShortCode;
use crate::validation::Invalid;
use crate::webhook::names_a_host;

/// The longest redirect address accepted.
pub const MAX_REDIRECT_URL_LEN: usize = 2048;

const SCHEME: &str = "https://";

/// An `https` address the merchant gave at quiz/create: after a successful submission the
/// client's browser is sent there (303) with `quiz=<short code>` added to its query.
///
/// Only characters an address may hold as it is (RFC 3986: letters, digits,
/// `-._~:/?#[]@!$&'()*+,;=` and `%`) are accepted, so it goes into a `Location` header
/// unchanged and needs no escaping anywhere; other characters must come percent-encoded.
/// It holds no credentials and names a well-formed host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedirectUrl(String);

impl RedirectUrl {
    /// `raw` (trimmed) if a client may be sent there.
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let raw = raw.trim();
        if raw.len() > MAX_REDIRECT_URL_LEN {
            return Err(Invalid::new(format!(
                "must be at most {MAX_REDIRECT_URL_LEN} characters"
            )));
        }
        if !raw.bytes().all(is_url_byte) {
            return Err(Invalid::new(
                "must hold only the characters of an address (percent-encode others)",
            ));
        }
        let has_scheme = raw
            .get(..SCHEME.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(SCHEME));
        if !has_scheme {
            return Err(Invalid::new("must be an absolute https address"));
        }
        let authority = authority_of(raw);
        if authority.contains('@') {
            return Err(Invalid::new("must not hold credentials"));
        }
        if !names_a_host(authority) {
            return Err(Invalid::new("must name a valid host"));
        }
        Ok(Self(raw.to_owned()))
    }

    /// A stored address, read back as it was accepted.
    pub fn stored(url: impl Into<String>) -> Self {
        Self(url.into())
    }

    /// The address as the merchant gave it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `https://host[:port]`: where the quiz page's forms may send the browser.
    pub fn origin(&self) -> String {
        format!("{SCHEME}{}", authority_of(&self.0).to_ascii_lowercase())
    }

    /// Where the client is sent: the address with `quiz=<code>` added as the last
    /// parameter of its query, before any fragment. The contract hands the merchant the
    /// short code this way, so it can tell which quiz came back.
    pub fn for_quiz(&self, code: &ShortCode) -> String {
        let (base, fragment) = match self.0.split_once('#') {
            Some((base, fragment)) => (base, Some(fragment)),
            None => (self.0.as_str(), None),
        };
        let joint = match base.find('?') {
            None => "?",
            Some(_) if base.ends_with(['?', '&']) => "",
            Some(_) => "&",
        };
        let mut url = format!("{base}{joint}quiz={}", code.as_str());
        if let Some(fragment) = fragment {
            url.push('#');
            url.push_str(fragment);
        }
        url
    }
}

/// `host[:port]` of an address that starts with the scheme.
fn authority_of(url: &str) -> &str {
    let rest = url.get(SCHEME.len()..).unwrap_or_default();
    rest.split(['/', '?', '#']).next().unwrap_or_default()
}

/// A byte RFC 3986 lets an address hold as it is.
fn is_url_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=%".contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(url: &str) -> String {
        RedirectUrl::parse(url)
            .expect("valid")
            .for_quiz(&ShortCode::new("AbC123xyz0"))
    }

    #[test]
    fn https_addresses_are_accepted_as_given() {
        for url in [
            "https://shop.example/done",
            "HTTPS://Shop.Example:8443/a/b?x=1&y=%20#top",
            "https://[2001:db8::1]/back",
            "https://203.0.113.7",
        ] {
            assert_eq!(RedirectUrl::parse(url).map(|u| u.0), Ok(url.to_owned()));
        }
        assert_eq!(
            RedirectUrl::parse("  https://shop.example/  ").map(|u| u.0),
            Ok("https://shop.example/".into())
        );
    }

    #[test]
    fn anything_but_a_plain_https_address_is_refused() {
        for url in [
            "http://shop.example/done",
            "javascript:alert(1)",
            "JAVASCRIPT://shop.example/%0Aalert(1)",
            "data:text/html,hi",
            "//shop.example/done",
            "/relative/path",
            "shop.example",
            "garbage",
            "https://",
            "https:///path",
            "https://user:pass@shop.example/",
            "https://shop.example@evil.example/",
            "https://shop.example\\@evil.example/",
            "https://shop.example/a b",
            "https://shop.example/\u{e9}",
            "https://shop.example/<script>",
            "https://shop.example/\r\nSet-Cookie:x=1",
            "https://shop.example:0/",
            "https://shop.example:99999/",
            "https://0x7f.1/",
            "https://shop_example/",
        ] {
            assert!(RedirectUrl::parse(url).is_err(), "{url:?} accepted");
        }
        let long = format!("https://shop.example/{}", "a".repeat(MAX_REDIRECT_URL_LEN));
        assert!(RedirectUrl::parse(&long).is_err());
        let longest = format!("https://shop.example/{}", "a".repeat(2048 - 21));
        assert!(RedirectUrl::parse(&longest).is_ok());
    }

    #[test]
    fn the_short_code_is_added_to_the_query_before_any_fragment() {
        assert_eq!(
            sent("https://shop.example/done"),
            "https://shop.example/done?quiz=AbC123xyz0"
        );
        assert_eq!(
            sent("https://shop.example/done?order=7"),
            "https://shop.example/done?order=7&quiz=AbC123xyz0"
        );
        assert_eq!(
            sent("https://shop.example/done?"),
            "https://shop.example/done?quiz=AbC123xyz0"
        );
        assert_eq!(
            sent("https://shop.example/done?a=1&"),
            "https://shop.example/done?a=1&quiz=AbC123xyz0"
        );
        assert_eq!(
            sent("https://shop.example/done#step-2"),
            "https://shop.example/done?quiz=AbC123xyz0#step-2"
        );
        assert_eq!(
            sent("https://shop.example/done?a=1#x?y=2"),
            "https://shop.example/done?a=1&quiz=AbC123xyz0#x?y=2"
        );
        assert_eq!(
            sent("https://shop.example"),
            "https://shop.example?quiz=AbC123xyz0"
        );
    }

    #[test]
    fn the_origin_is_scheme_host_and_port() {
        let url = RedirectUrl::parse("HTTPS://Shop.Example:8443/a?b#c").expect("valid");
        assert_eq!(url.origin(), "https://shop.example:8443");
        let url = RedirectUrl::parse("https://shop.example?x").expect("valid");
        assert_eq!(url.origin(), "https://shop.example");
    }
}
