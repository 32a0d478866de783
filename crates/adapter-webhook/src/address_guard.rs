//! The address check at connection time: names resolve only to public addresses unless
//! private ones are allowed, so a name that resolved publicly at registration and points
//! inside later is refused then.

use std::net::{IpAddr, SocketAddr};

use domain::webhook::is_private_ip;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// A resolver that drops private addresses (all of them unless `allow_private`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct AddressGuard {
    pub(crate) allow_private: bool,
}

impl Resolve for AddressGuard {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        Box::pin(async move {
            let found = tokio::net::lookup_host((name.as_str(), 0)).await?;
            let kept: Vec<SocketAddr> = found
                .filter(|addr| allow_private || !is_private_ip(addr.ip()))
                .collect();
            if kept.is_empty() {
                let refused = format!("refused: {} resolves to private addresses", name.as_str());
                return Err(refused.into());
            }
            let addrs: Addrs = Box::new(kept.into_iter());
            Ok(addrs)
        })
    }
}

/// Whether `url` names a private address literally (connected to without resolving).
pub(crate) fn refused_literal(url: &reqwest::Url) -> bool {
    let host = url.host_str().unwrap_or_default();
    let literal = host.trim_start_matches('[').trim_end_matches(']');
    literal.parse::<IpAddr>().is_ok_and(is_private_ip)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> reqwest::Url {
        reqwest::Url::parse(s).expect("url")
    }

    #[test]
    fn literal_private_addresses_are_told_apart() {
        assert!(refused_literal(&url("http://127.0.0.1:8080/")));
        assert!(refused_literal(&url("http://[::1]/")));
        assert!(refused_literal(&url("https://10.0.0.1/")));
        assert!(!refused_literal(&url("https://93.184.216.34/")));
        assert!(!refused_literal(&url("https://example.com/")));
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
