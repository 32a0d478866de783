//! Bounds on open connections: at most so many per client address
//! (`IDV_MAX_CONNECTIONS_PER_ADDRESS`), so that one address cannot hold every connection
//! the server will take, and at most so many in all (`IDV_MAX_CONNECTIONS`, by default
//! what the open-file limit leaves after a reserve for the database, stored files and
//! the analysis's children), so that connections never take the descriptors the server
//! needs to answer the ones it holds. The address is the socket's peer, as the kernel
//! saw it: no header has been read when a connection is accepted. Trusted proxies
//! (`IDV_TRUSTED_PROXIES`) are counted in the total only, since every client behind them
//! shares their address. A connection past either bound is shut at once, before anything
//! of it is read, which gives its descriptor back.

use std::any::Any;
use std::collections::HashMap;
use std::net::{IpAddr, Shutdown};
use std::sync::{Arc, Mutex, PoisonError};

use actix_web::dev::Extensions;
use actix_web::rt::net::TcpStream;
use socket2::SockRef;

use crate::edge::client_addr::TrustedProxies;

/// Open connections, per address and in all.
#[derive(Debug, Default)]
struct Open {
    per_address: HashMap<IpAddr, usize>,
    total: usize,
}

/// Open connections, and the bounds on them.
#[derive(Debug, Clone)]
pub struct ConnectionCap {
    per_address: usize,
    total: usize,
    open: Arc<Mutex<Open>>,
    proxies: TrustedProxies,
}

impl ConnectionCap {
    /// `per_address` connections per address and `total` in all; 0: no such bound.
    pub fn new(per_address: usize, total: usize, proxies: TrustedProxies) -> Self {
        Self {
            per_address,
            total,
            open: Arc::default(),
            proxies,
        }
    }

    /// For `HttpServer::on_connect`: counts a new connection for as long as it stays
    /// open, or shuts it when it would pass a bound.
    pub fn on_connect(&self, io: &dyn Any, connection: &mut Extensions) {
        if self.per_address == 0 && self.total == 0 {
            return;
        }
        let Some(stream) = io.downcast_ref::<TcpStream>() else {
            return;
        };
        let Ok(peer) = stream.peer_addr() else {
            return;
        };
        let ip = peer.ip().to_canonical();
        match self.admit(ip) {
            // Dropped with the connection's data, when the connection closes.
            Some(slot) => {
                connection.insert(slot);
            }
            None => {
                tracing::debug!(client_address = %ip, "connection refused: too many open");
                let _ = SockRef::from(stream).shutdown(Shutdown::Both);
            }
        }
    }

    /// A slot for one more connection from `ip`, if neither bound would be passed.
    fn admit(&self, ip: IpAddr) -> Option<Slot> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if self.total != 0 && open.total >= self.total {
            return None;
        }
        let counted = (self.per_address != 0 && !self.proxies.trusts(ip)).then_some(ip);
        if let Some(ip) = counted {
            let count = open.per_address.entry(ip).or_default();
            if *count >= self.per_address {
                return None;
            }
            *count += 1;
        }
        open.total += 1;
        Some(Slot {
            ip: counted,
            open: self.open.clone(),
        })
    }
}

/// One open connection (of an address, when counted under it); gives its places back
/// when dropped.
#[derive(Debug)]
struct Slot {
    ip: Option<IpAddr>,
    open: Arc<Mutex<Open>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.total -= 1;
        if let Some(ip) = self.ip
            && let Some(count) = open.per_address.get_mut(&ip)
        {
            *count -= 1;
            if *count == 0 {
                open.per_address.remove(&ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_the_cap_and_gets_places_back() {
        let cap = ConnectionCap::new(2, 0, TrustedProxies::default());
        let a = IpAddr::from([127, 0, 0, 1]);
        let b = IpAddr::from([127, 0, 0, 2]);
        let first = cap.admit(a).expect("first");
        let _second = cap.admit(a).expect("second");
        assert!(cap.admit(a).is_none(), "third refused");
        assert!(cap.admit(b).is_some(), "another address has its own");
        drop(first);
        assert!(
            cap.admit(a).is_some(),
            "a closed connection gives its place back"
        );
    }

    #[test]
    fn all_addresses_together_hold_at_most_the_total_and_proxies_count_in_it() {
        let proxy = IpAddr::from([10, 0, 0, 1]);
        let proxies = TrustedProxies::new(vec!["10.0.0.1/32".parse().expect("cidr")]);
        let cap = ConnectionCap::new(2, 3, proxies);
        let a = IpAddr::from([127, 0, 0, 1]);
        let b = IpAddr::from([127, 0, 0, 2]);
        let held = [
            cap.admit(proxy).expect("the proxy"),
            cap.admit(proxy)
                .expect("the proxy, past the per-address cap"),
            cap.admit(a).expect("an address"),
        ];
        assert!(cap.admit(b).is_none(), "the total is reached");
        drop(held);
        let _again: Vec<Slot> = (0..3)
            .filter_map(|_| cap.admit(b).or(cap.admit(a)))
            .collect();
        assert_eq!(cap.open.lock().expect("lock").total, 3, "places came back");
    }
}
