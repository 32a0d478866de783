//! Where a connection to an address would go, as far as a webhook may: the public
//! internet, this service's own machine and networks (only where the operator allows
//! it), or a special-purpose range of the IANA registries (never).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// What a webhook connection to an address would reach. Ordered from the harmless to
/// the never allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reach {
    /// The public internet.
    Public,
    /// This machine or its own networks: loopback, private (RFC 1918), link-local,
    /// unique-local. Allowed only with `IDV_WEBHOOK_ALLOW_PRIVATE`, for receivers
    /// there.
    Internal,
    /// A special-purpose address: unspecified, `0.0.0.0/8`, shared (`100.64.0.0/10`),
    /// IETF protocol assignments, documentation, benchmarking, reserved, broadcast,
    /// multicast, discard-only, the cloud metadata addresses, and the IPv6 relays (6to4,
    /// Teredo, NAT64) of any address that is not public. Never reached, whatever the
    /// operator allows: nothing a merchant may want is there.
    Special,
}

/// The cloud metadata services: one inside link-local (AWS, GCP, Azure, others), one
/// public-looking (Azure's wire server). Either hands out the machine's credentials.
const METADATA: [Ipv4Addr; 2] = [
    Ipv4Addr::new(169, 254, 169, 254),
    Ipv4Addr::new(168, 63, 129, 16),
];

/// IPv4 special-purpose ranges that are neither this machine nor its networks.
const SPECIAL_V4: [(Ipv4Addr, u8); 11] = [
    (Ipv4Addr::new(0, 0, 0, 0), 8),
    (Ipv4Addr::new(100, 64, 0, 0), 10),
    (Ipv4Addr::new(192, 0, 0, 0), 24),
    (Ipv4Addr::new(192, 0, 2, 0), 24),
    (Ipv4Addr::new(192, 88, 99, 0), 24),
    (Ipv4Addr::new(198, 18, 0, 0), 15),
    (Ipv4Addr::new(198, 51, 100, 0), 24),
    (Ipv4Addr::new(203, 0, 113, 0), 24),
    (Ipv4Addr::new(224, 0, 0, 0), 4),
    (Ipv4Addr::new(240, 0, 0, 0), 4),
    (Ipv4Addr::new(255, 255, 255, 255), 32),
];

/// IPv6 special-purpose ranges that are neither this machine nor its networks (the
/// relays are judged by what they embed, before these).
const SPECIAL_V6: [(Ipv6Addr, u8); 8] = [
    (Ipv6Addr::new(0x64, 0xff9b, 1, 0, 0, 0, 0, 0), 48),
    (Ipv6Addr::new(0x100, 0, 0, 0, 0, 0, 0, 0), 64),
    (Ipv6Addr::new(0x100, 0, 0, 1, 0, 0, 0, 0), 64),
    (Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0), 23),
    (Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0), 32),
    (Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0), 20),
    (Ipv6Addr::new(0x5f00, 0, 0, 0, 0, 0, 0, 0), 16),
    (Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0), 8),
];

fn in_v4(ip: Ipv4Addr, (net, len): (Ipv4Addr, u8)) -> bool {
    let mask = u32::MAX.checked_shl(32 - u32::from(len)).unwrap_or(0);
    u32::from(ip) & mask == u32::from(net) & mask
}

fn in_v6(ip: Ipv6Addr, (net, len): (Ipv6Addr, u8)) -> bool {
    let mask = u128::MAX.checked_shl(128 - u32::from(len)).unwrap_or(0);
    u128::from(ip) & mask == u128::from(net) & mask
}

impl Reach {
    /// What a connection to `ip` reaches.
    pub fn of(ip: IpAddr) -> Self {
        match ip {
            IpAddr::V4(v4) => Self::of_v4(v4),
            IpAddr::V6(v6) => Self::of_v6(v6),
        }
    }

    /// Whether a webhook may connect there; `allow_private`: `IDV_WEBHOOK_ALLOW_PRIVATE`.
    pub fn admits(self, allow_private: bool) -> bool {
        match self {
            Self::Public => true,
            Self::Internal => allow_private,
            Self::Special => false,
        }
    }

    fn of_v4(ip: Ipv4Addr) -> Self {
        if METADATA.contains(&ip) || SPECIAL_V4.iter().any(|&range| in_v4(ip, range)) {
            Self::Special
        } else if ip.is_loopback() || ip.is_private() || ip.is_link_local() {
            Self::Internal
        } else {
            Self::Public
        }
    }

    fn of_v6(ip: Ipv6Addr) -> Self {
        let segments = ip.segments();
        if ip.is_loopback() {
            return Self::Internal;
        }
        if ip.is_unspecified() {
            return Self::Special;
        }
        // Addresses that carry an IPv4 address and reach it: IPv4-mapped and
        // IPv4-compatible (`::ffff:a.b.c.d`, `::a.b.c.d`) are that address.
        if let Some(v4) = ip.to_ipv4() {
            return Self::of_v4(v4);
        }
        // NAT64 (`64:ff9b::a.b.c.d`) and IPv4-translated (`::ffff:0:a.b.c.d`, SIIT) are
        // that address too.
        let translated = Ipv6Addr::new(0, 0, 0, 0, 0xffff, 0, 0, 0);
        if in_v6(ip, (Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, 0, 0), 96))
            || in_v6(ip, (translated, 96))
        {
            return Self::of_v4(embedded(segments[6], segments[7]));
        }
        // The rest of `::/8` is reserved by the IETF: nothing is there.
        if segments[0] & 0xff00 == 0 {
            return Self::Special;
        }
        // Relays: 6to4 (`2002:AABB:CCDD::`) and Teredo (`2001:0:SSSS:SSSS:..:~CCCC:~CCCC`,
        // the server's address, then the client's inverted). A relay of anything but a
        // public address is never allowed.
        if segments[0] == 0x2002 {
            return Self::relay_of(&[embedded(segments[1], segments[2])]);
        }
        if segments[0] == 0x2001 && segments[1] == 0 {
            let server = embedded(segments[2], segments[3]);
            let client = embedded(!segments[6], !segments[7]);
            return Self::relay_of(&[server, client]);
        }
        if SPECIAL_V6.iter().any(|&range| in_v6(ip, range)) {
            Self::Special
        } else if (segments[0] & 0xfe00) == 0xfc00 || (segments[0] & 0xffc0) == 0xfe80 {
            Self::Internal
        } else if (segments[0] & 0xffc0) == 0xfec0 {
            // Site-local: deprecated, never public.
            Self::Special
        } else {
            Self::Public
        }
    }

    /// A relay reaches what it embeds: public if all of that is, else never.
    fn relay_of(embedded: &[Ipv4Addr]) -> Self {
        if embedded.iter().all(|&v4| Self::of_v4(v4) == Self::Public) {
            Self::Public
        } else {
            Self::Special
        }
    }
}

/// The IPv4 address held in two IPv6 segments.
fn embedded(high: u16, low: u16) -> Ipv4Addr {
    Ipv4Addr::from((u32::from(high) << 16) | u32::from(low))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reach(s: &str) -> Reach {
        Reach::of(s.parse().expect("an address"))
    }

    #[test]
    fn special_purpose_addresses_are_never_reached() {
        for special in [
            "0.0.0.0",
            "0.1.2.3",
            "100.64.0.1",
            "100.127.255.254",
            "192.0.0.8",
            "192.0.0.170",
            "192.0.2.1",
            "192.88.99.1",
            "198.18.0.1",
            "198.19.255.255",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "250.1.2.3",
            "255.255.255.255",
            "169.254.169.254",
            "168.63.129.16",
            "::",
            "::ffff:192.0.2.1",
            "::ffff:0:169.254.169.254",
            "::1:a00:1",
            "0:1::1",
            "::ffff:169.254.169.254",
            "64:ff9b::198.18.0.1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b:1::1",
            "100::1",
            "2001:2::1",
            "2001:db8::1",
            "3fff::1",
            "3fff:fff:ffff::1",
            "5f00::1",
            "ff02::1",
            "fec0::1",
            // 6to4 relays of 192.0.2.1, 10.0.0.1, 127.0.0.1 and 169.254.169.254.
            "2002:c000:201::1",
            "2002:a00:1::1",
            "2002:7f00:1::",
            "2002:a9fe:a9fe::",
            // Teredo: server 65.54.227.120, client 192.0.2.45 (inverted: 3fff:fdd2).
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            // ...and a Teredo address whose server is private.
            "2001:0:a00:1::1",
        ] {
            assert_eq!(reach(special), Reach::Special, "{special}");
            assert!(!reach(special).admits(true), "{special}");
        }
    }

    #[test]
    fn this_machine_and_its_networks_are_internal() {
        for internal in [
            "127.0.0.1",
            "127.8.9.10",
            "10.1.2.3",
            "172.16.5.4",
            "192.168.1.1",
            "169.254.1.1",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:10.1.2.3",
            "::127.0.0.1",
            "64:ff9b::10.0.0.1",
            "::ffff:0:a00:1",
            "::ffff:0:127.0.0.1",
            "fd00::1",
            "fe80::1",
        ] {
            assert_eq!(reach(internal), Reach::Internal, "{internal}");
            assert!(reach(internal).admits(true) && !reach(internal).admits(false));
        }
    }

    #[test]
    fn public_addresses_are_public() {
        for public in [
            "8.8.8.8",
            "93.184.216.34",
            "100.128.0.1",
            "100.63.255.255",
            "198.17.255.255",
            "198.20.0.1",
            "168.63.129.17",
            "192.0.3.1",
            "223.255.255.255",
            "2001:4860:4860::8888",
            "2606:2800:220:1::248",
            "64:ff9b::808:808",
            "::ffff:8.8.8.8",
            "::ffff:0:808:808",
            // 6to4 and Teredo relays of public addresses.
            "2002:808:808::1",
            "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
        ] {
            assert_eq!(reach(public), Reach::Public, "{public}");
            assert!(reach(public).admits(false), "{public}");
        }
    }
}
