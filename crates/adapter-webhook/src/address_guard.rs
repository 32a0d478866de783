//! The address check at connection time: names resolve only to public addresses (and
//! internal ones where allowed, never special-purpose ones), so a name that resolved
//! publicly at registration and points elsewhere later is refused then.

use std::net::{IpAddr, SocketAddr};

use domain::webhook::Reach;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// A resolver that drops the addresses a webhook may not reach.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AddressGuard {
    pub(crate) allow_private: bool,
}

impl Resolve for AddressGuard {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        Box::pin(async move {
            let found = tokio::net::lookup_host((name.as_str(), 0)).await?;
            let kept = reachable(name.as_str(), found, allow_private)?;
            let addrs: Addrs = Box::new(kept.into_iter());
            Ok(addrs)
        })
    }
}

/// The addresses `name` resolved to that a webhook may reach; none is an error that,
/// read by the merchant in its delivery log, never says what the name resolved to.
fn reachable(
    name: &str,
    found: impl Iterator<Item = SocketAddr>,
    allow_private: bool,
) -> Result<Vec<SocketAddr>, String> {
    let kept: Vec<SocketAddr> = found
        .filter(|addr| Reach::of(addr.ip()).admits(allow_private))
        .collect();
    if kept.is_empty() {
        return Err(format!(
            "refused: {name} resolves to no address a webhook may reach"
        ));
    }
    Ok(kept)
}

/// Whether `url` names, literally, an address a webhook may not reach (connected to
/// without resolving).
pub(crate) fn refused_literal(url: &reqwest::Url, allow_private: bool) -> bool {
    let host = url.host_str().unwrap_or_default();
    let literal = host.trim_start_matches('[').trim_end_matches(']');
    literal
        .parse::<IpAddr>()
        .is_ok_and(|ip| !Reach::of(ip).admits(allow_private))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> reqwest::Url {
        reqwest::Url::parse(s).expect("url")
    }

    #[test]
    fn literal_private_addresses_are_told_apart() {
        assert!(refused_literal(&url("http://127.0.0.1:8080/"), false));
        assert!(refused_literal(&url("http://[::1]/"), false));
        assert!(refused_literal(&url("https://10.0.0.1/"), false));
        assert!(!refused_literal(&url("https://93.184.216.34/"), false));
        assert!(!refused_literal(&url("https://example.com/"), false));
        assert!(!refused_literal(&url("http://127.0.0.1:8080/"), true));
    }

    #[test]
    fn literal_special_purpose_addresses_are_refused_even_where_private_is_allowed() {
        for special in [
            "https://169.254.169.254/",
            "https://168.63.129.16/",
            "https://192.0.2.1/",
            "https://[2001:db8::1]/",
            "https://[::ffff:198.18.0.1]/",
        ] {
            assert!(refused_literal(&url(special), true), "{special}");
        }
    }

    #[test]
    fn a_name_resolving_only_to_refused_addresses_is_refused_without_telling_them() {
        let addr = |s: &str| SocketAddr::new(s.parse().expect("ip"), 443);
        let found = [addr("192.0.2.7"), addr("169.254.169.254"), addr("10.9.8.7")];
        let refused = reachable("hooks.example.com", found.into_iter(), false)
            .expect_err("nothing reachable");
        assert!(refused.contains("hooks.example.com"), "{refused}");
        for ip in ["192.0.2.7", "169.254.169.254", "10.9.8.7"] {
            assert!(!refused.contains(ip), "{refused}");
        }
        // With private addresses allowed, only the internal one is kept.
        let kept = reachable("hooks.example.com", found.into_iter(), true).expect("one kept");
        assert_eq!(kept, [addr("10.9.8.7")]);
        // A public one among refused ones is the only one connected to.
        let mixed = [addr("198.18.0.1"), addr("93.184.216.34")];
        let kept = reachable("hooks.example.com", mixed.into_iter(), true).expect("kept");
        assert_eq!(kept, [addr("93.184.216.34")]);
    }

    #[tokio::test]
    async fn names_of_this_machine_resolve_to_nothing_unless_allowed() {
        let name: Name = "localhost".parse().expect("name");
        let refused = AddressGuard {
            allow_private: false,
        }
        .resolve(name)
        .await;
        assert!(refused.is_err());
        let name: Name = "localhost".parse().expect("name");
        let allowed = AddressGuard {
            allow_private: true,
        }
        .resolve(name)
        .await
        .expect("resolved");
        assert!(allowed.into_iter().all(|a| a.ip().is_loopback()));
    }
}
