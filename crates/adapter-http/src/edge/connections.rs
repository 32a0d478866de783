//! At most so many open connections per client address (`IDV_MAX_CONNECTIONS_PER_ADDRESS`),
//! so that one address cannot hold every connection the server will take. The address is
//! the socket's peer, as the kernel saw it: no header has been read when a connection is
//! accepted. Trusted proxies (`IDV_TRUSTED_PROXIES`) are not counted, since every client
//! behind them shares their address. A connection past the cap is shut at once, before
//! anything of it is read.

use std::any::Any;
use std::collections::HashMap;
use std::net::{IpAddr, Shutdown};
use std::sync::{Arc, Mutex, PoisonError};

use actix_web::dev::Extensions;
use actix_web::rt::net::TcpStream;
use socket2::SockRef;

use crate::edge::client_addr::TrustedProxies;

/// Open connections per address, and the cap on them.
#[derive(Debug, Clone)]
pub struct ConnectionCap {
    limit: usize,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
    proxies: TrustedProxies,
}

impl ConnectionCap {
    /// `limit` connections per address; 0: no cap.
    pub fn new(limit: usize, proxies: TrustedProxies) -> Self {
        Self {
            limit,
            open: Arc::default(),
            proxies,
        }
    }

    /// For `HttpServer::on_connect`: counts a new connection under its peer's address for
    /// as long as it stays open, or shuts it when that address holds the cap already.
    pub fn on_connect(&self, io: &dyn Any, connection: &mut Extensions) {
        if self.limit == 0 {
            return;
        }
        let Some(stream) = io.downcast_ref::<TcpStream>() else {
            return;
        };
        let Ok(peer) = stream.peer_addr() else {
            return;
        };
        let ip = peer.ip().to_canonical();
        if self.proxies.trusts(ip) {
            return;
        }
        match self.admit(ip) {
            // Dropped with the connection's data, when the connection closes.
            Some(slot) => {
                connection.insert(slot);
            }
            None => {
                tracing::debug!(client_address = %ip, "connection refused: too many from this address");
                let _ = SockRef::from(stream).shutdown(Shutdown::Both);
            }
        }
    }

    /// A slot for one more connection from `ip`, if it holds fewer than the cap.
    fn admit(&self, ip: IpAddr) -> Option<Slot> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(ip).or_default();
        if *count >= self.limit {
            return None;
        }
        *count += 1;
        Some(Slot {
            ip,
            open: self.open.clone(),
        })
    }
}

/// One open connection of an address; gives its place back when dropped.
#[derive(Debug)]
struct Slot {
    ip: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_the_cap_and_gets_places_back() {
        let cap = ConnectionCap::new(2, TrustedProxies::default());
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
}
