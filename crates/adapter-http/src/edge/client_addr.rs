//! Who is asking: the client address that rate limits and key allowlists see. It is the
//! peer's address, unless the peer is a trusted proxy (`IDV_TRUSTED_PROXIES`): then it is
//! the right-most address of `X-Forwarded-For` that is not itself a trusted proxy. Never
//! the left-most: that one is whatever the client wrote.

use std::net::{IpAddr, Ipv4Addr};

use actix_web::HttpRequest;
use actix_web::web;
use ipnet::IpNet;

#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    pub fn new(networks: Vec<IpNet>) -> Self {
        Self(networks)
    }

    pub(crate) fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|n| n.contains(&ip))
    }

    /// The client address of a request from `peer` with these `X-Forwarded-For` values.
    pub fn client_ip<'a>(&self, peer: IpAddr, forwarded: impl Iterator<Item = &'a str>) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let hops: Vec<&str> = forwarded.flat_map(|v| v.split(',')).collect();
        for hop in hops.iter().rev() {
            match hop.trim().parse::<IpAddr>() {
                Ok(ip) if self.trusts(ip) => continue,
                Ok(ip) => return ip,
                // A value that is no address was not written by a proxy we trust.
                Err(_) => return peer,
            }
        }
        peer
    }
}

/// The request's client address (see the module's text).
pub fn client_ip(req: &HttpRequest) -> IpAddr {
    let peer = req
        .peer_addr()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |a| a.ip());
    match req.app_data::<web::Data<TrustedProxies>>() {
        Some(proxies) => proxies.client_ip(
            peer,
            req.headers()
                .get_all("X-Forwarded-For")
                .filter_map(|v| v.to_str().ok()),
        ),
        None => peer,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("ip")
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_forwards() {
        let none = TrustedProxies::default();
        assert_eq!(
            none.client_ip(ip("198.51.100.7"), ["1.2.3.4"].into_iter()),
            ip("198.51.100.7")
        );
    }

    #[test]
    fn behind_trusted_proxies_the_right_most_untrusted_hop_is_the_client() {
        let proxies = TrustedProxies::new(vec!["10.0.0.0/8".parse().expect("cidr")]);
        let peer = ip("10.0.0.2");
        assert_eq!(
            proxies.client_ip(peer, ["203.0.113.5"].into_iter()),
            ip("203.0.113.5")
        );
        // A client that writes its own X-Forwarded-For cannot choose its address.
        assert_eq!(
            proxies.client_ip(peer, ["6.6.6.6, 203.0.113.5, 10.0.0.9"].into_iter()),
            ip("203.0.113.5")
        );
        assert_eq!(
            proxies.client_ip(peer, ["6.6.6.6", "203.0.113.5"].into_iter()),
            ip("203.0.113.5"),
            "several headers read as one list"
        );
        assert_eq!(proxies.client_ip(peer, std::iter::empty()), peer);
        assert_eq!(proxies.client_ip(peer, ["garbage"].into_iter()), peer);
    }
}
