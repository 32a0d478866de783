//! Where a webhook may point: an `https` address (or `http` where private addresses are
//! allowed, for a receiver on the same machine or network), without credentials, and not
//! at this service's own network unless the operator allows it.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::Reach;
use crate::validation::Invalid;

/// The longest address accepted.
pub const MAX_URL_LEN: usize = 2048;

/// A webhook's address, checked. Host names are checked again, resolved, at each
/// connection: what a name resolves to can change after registration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookUrl(String);

impl WebhookUrl {
    /// `raw` if a webhook may point there. `allow_private` admits `http` and addresses in
    /// loopback, private, link-local and unique-local ranges (`IDV_WEBHOOK_ALLOW_PRIVATE`).
    pub fn parse(raw: &str, allow_private: bool) -> Result<Self, Invalid> {
        let raw = raw.trim();
        if raw.len() > MAX_URL_LEN {
            return Err(Invalid::new(format!(
                "must be at most {MAX_URL_LEN} characters"
            )));
        }
        let (scheme, rest) = raw
            .split_once("://")
            .ok_or_else(|| Invalid::new("must be an absolute https address"))?;
        match scheme.to_ascii_lowercase().as_str() {
            "https" => {}
            "http" if allow_private => {}
            "http" => return Err(Invalid::new("must use https")),
            _ => return Err(Invalid::new("must be an https address")),
        }
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        if authority.contains('@') {
            return Err(Invalid::new("must not hold credentials"));
        }
        if raw.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(Invalid::new("must not hold spaces or control characters"));
        }
        let host = host_of(authority).ok_or_else(|| Invalid::new("must name a valid host"))?;
        match reach_of(&host) {
            Reach::Special => {
                return Err(Invalid::new(
                    "must not point at a special-purpose address (documentation, \
                     benchmarking, reserved, shared, multicast, cloud metadata, or a relay \
                     of one)",
                ));
            }
            Reach::Internal if !allow_private => {
                return Err(Invalid::new(
                    "must not point at a loopback, private, link-local or unique-local address",
                ));
            }
            Reach::Internal | Reach::Public => {}
        }
        Ok(Self(raw.to_owned()))
    }

    /// A stored address, read back as it was accepted.
    pub fn stored(url: impl Into<String>) -> Self {
        Self(url.into())
    }

    /// The address's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Whether `authority` (`host[:port]`) names a well-formed host, by the rules of
/// [`WebhookUrl`]: other addresses the service keeps (a quiz's redirect) follow them too.
pub(crate) fn names_a_host(authority: &str) -> bool {
    host_of(authority).is_some()
}

/// A host as written in an address: a name, an IPv4 address or a bracketed IPv6 one.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Host {
    Name(String),
    Ip(IpAddr),
}

/// The host of `authority` (`host[:port]`), if it is well formed.
fn host_of(authority: &str) -> Option<Host> {
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        let ip: Ipv6Addr = inside.parse().ok()?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':')?),
        };
        (Host::Ip(IpAddr::V6(ip)), port)
    } else {
        let (name, port) = match authority.rsplit_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (authority, None),
        };
        let host = match name.parse::<Ipv4Addr>() {
            Ok(ip) => Host::Ip(IpAddr::V4(ip)),
            Err(_) => Host::Name(name.trim_end_matches('.').to_ascii_lowercase()),
        };
        (host, port)
    };
    if let Some(port) = port
        && port.parse::<u16>().ok().is_none_or(|p| p == 0)
    {
        return None;
    }
    match &host {
        Host::Name(name) if !is_host_name(name) || looks_numeric(name) => None,
        _ => Some(host),
    }
}

/// A name whose last label is a number: clients (browsers, HTTP libraries) read it as an
/// IPv4 address in another notation (`2130706433`, `0x7f.1`, `0177.0.0.1` are all
/// 127.0.0.1), which would slip past the address rules. Only the dotted decimal form is
/// an address here, and it was parsed as one already.
fn looks_numeric(name: &str) -> bool {
    let last = name.rsplit('.').next().unwrap_or_default();
    last.bytes().all(|b| b.is_ascii_digit())
        || last
            .strip_prefix("0x")
            .is_some_and(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Letters, digits, hyphens and dots, in labels of 1 to 63 characters.
fn is_host_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

/// Where a connection to `host` would go, as far as its address tells before any name is
/// resolved.
fn reach_of(host: &Host) -> Reach {
    match host {
        Host::Ip(ip) => Reach::of(*ip),
        // Names that always mean this machine (RFC 6761).
        Host::Name(name) if name == "localhost" || name.ends_with(".localhost") => Reach::Internal,
        Host::Name(_) => Reach::Public,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(raw: &str) -> bool {
        WebhookUrl::parse(raw, false).is_err()
    }

    #[test]
    fn public_https_addresses_are_accepted() {
        for ok in [
            "https://hooks.example.com/idv",
            "https://hooks.example.com:8443/idv?x=1",
            "https://93.184.216.34/hook",
            "https://[2606:2800:220:1::248]/hook",
            "HTTPS://Example.COM.",
        ] {
            assert_eq!(
                WebhookUrl::parse(ok, false).map(|u| u.as_str().to_owned()),
                Ok(ok.to_owned()),
                "{ok}"
            );
        }
    }

    #[test]
    fn other_schemes_and_plain_http_are_refused_unless_private_is_allowed() {
        assert!(refused("ftp://example.com/"));
        assert!(refused("example.com/hook"));
        assert!(refused("http://example.com/hook"));
        assert!(WebhookUrl::parse("http://example.com/hook", true).is_ok());
        assert!(WebhookUrl::parse("ftp://example.com/", true).is_err());
    }

    #[test]
    fn credentials_are_refused_even_where_private_is_allowed() {
        assert!(refused("https://user:pass@example.com/"));
        assert!(refused("https://user@example.com/"));
        assert!(WebhookUrl::parse("http://u:p@127.0.0.1/", true).is_err());
        // An `@` after the host is part of the path, not credentials.
        assert!(WebhookUrl::parse("https://example.com/a@b", false).is_ok());
    }

    #[test]
    fn this_machine_and_private_networks_are_refused_unless_allowed() {
        for private in [
            "https://localhost/",
            "https://api.localhost:8443/",
            "https://127.0.0.1/",
            "https://10.0.0.1/",
            "https://172.16.5.4/",
            "https://192.168.1.1/",
            "https://169.254.1.1/",
            "https://[::1]/",
            "https://[fd00::1]/",
            "https://[fe80::1]/",
            "https://[::ffff:127.0.0.1]/",
            "https://[::127.0.0.1]/",
            "https://[64:ff9b::10.0.0.1]/",
        ] {
            assert!(refused(private), "{private}");
            assert!(WebhookUrl::parse(private, true).is_ok(), "{private}");
        }
    }

    #[test]
    fn special_purpose_addresses_are_refused_even_where_private_is_allowed() {
        for special in [
            "https://0.0.0.0/",
            "https://100.64.0.1/",
            "https://169.254.169.254/latest/meta-data",
            "https://168.63.129.16/",
            "https://192.0.2.1/",
            "https://198.18.0.1/",
            "https://240.0.0.1/",
            "https://255.255.255.255/",
            "https://[::]/",
            "https://[2001:db8::1]/",
            "https://[2002:c000:201::1]/",
            "https://[ff02::1]/",
        ] {
            let refused = WebhookUrl::parse(special, true).expect_err(special);
            assert!(
                refused.0.contains("special-purpose"),
                "{special}: {}",
                refused.0
            );
        }
    }

    #[test]
    fn malformed_hosts_and_ports_are_refused() {
        for bad in [
            "https:///path",
            "https://exa mple.com/",
            "https://example.com:0/",
            "https://example.com:99999/",
            "https://[::1/",
            "https://ex_ample.com/",
            // Other notations of 127.0.0.1, which clients would connect to.
            "https://2130706433/",
            "https://0x7f000001/",
            "https://0177.0.0.1/",
            "https://127.1/",
        ] {
            assert!(WebhookUrl::parse(bad, true).is_err(), "{bad}");
        }
        assert!(refused(&format!(
            "https://example.com/{}",
            "a".repeat(2048)
        )));
    }
}
