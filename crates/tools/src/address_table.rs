//! Which IP addresses a web page may make Sidecar connect to. Built from the IANA
//! IPv4 and IPv6 Special-Purpose Address Registries: every block that is not globally
//! reachable is refused, plus multicast and the reserved 240/4. Addresses that carry an
//! IPv4 address inside an IPv6 one (IPv4-mapped, NAT64, 6to4) are judged by the IPv4
//! address they lead to, so `::ffff:127.0.0.1` or `64:ff9b::a9fe:a9fe` are refused like
//! the addresses they wrap.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::LazyLock;

use ipnet::{Ipv4Net, Ipv6Net};

/// IPv4 blocks that are not globally reachable (RFC 6890 and its updates).
const V4_BLOCKS: &[&str] = &[
    "0.0.0.0/8",       // "this network"
    "10.0.0.0/8",      // private use
    "100.64.0.0/10",   // shared address space (carrier-grade NAT)
    "127.0.0.0/8",     // loopback
    "169.254.0.0/16",  // link local (cloud metadata lives here)
    "172.16.0.0/12",   // private use
    "192.0.0.0/24",    // IETF protocol assignments (DS-Lite, NAT64 discovery…)
    "192.0.2.0/24",    // documentation (TEST-NET-1)
    "192.88.99.0/24",  // deprecated 6to4 relay anycast
    "192.168.0.0/16",  // private use
    "198.18.0.0/15",   // benchmarking
    "198.51.100.0/24", // documentation (TEST-NET-2)
    "203.0.113.0/24",  // documentation (TEST-NET-3)
    "224.0.0.0/4",     // multicast
    "240.0.0.0/4",     // reserved, and the limited broadcast address
];

/// IPv6 blocks that are not globally reachable, or that wrap an address Sidecar
/// cannot judge.
const V6_BLOCKS: &[&str] = &[
    "::/96",          // unspecified, loopback, and deprecated IPv4-compatible ::a.b.c.d
    "64:ff9b:1::/48", // local-use IPv4/IPv6 translation
    "100::/64",       // discard-only
    "2001::/23",      // IETF protocol assignments, Teredo 2001::/32 among them
    "2001:db8::/32",  // documentation
    "3fff::/20",      // documentation
    "5f00::/16",      // segment routing (SRv6) SIDs
    "fc00::/7",       // unique local
    "fe80::/10",      // link local
    "fec0::/10",      // deprecated site local
    "ff00::/8",       // multicast
];

static V4: LazyLock<Vec<Ipv4Net>> = LazyLock::new(|| V4_BLOCKS.iter().map(|b| b.parse().expect("valid IPv4 block")).collect());
static V6: LazyLock<Vec<Ipv6Net>> = LazyLock::new(|| V6_BLOCKS.iter().map(|b| b.parse().expect("valid IPv6 block")).collect());

/// Whether a web page must not make Sidecar connect to `ip`.
pub(crate) fn is_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_internal_v4(v4),
        IpAddr::V6(v6) => match embedded_v4(v6) {
            Some(v4) => is_internal_v4(v4),
            None => V6.iter().any(|block| block.contains(&v6)),
        },
    }
}

fn is_internal_v4(ip: Ipv4Addr) -> bool {
    V4.iter().any(|block| block.contains(&ip))
}

/// The IPv4 address an IPv6 address leads to: IPv4-mapped `::ffff:a.b.c.d`, NAT64
/// `64:ff9b::a.b.c.d`, and 6to4 `2002:AABB:CCDD::/48`.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let low = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    if let Some(v4) = ip.to_ipv4_mapped() {
        return Some(v4);
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return Some(low);
    }
    if s[0] == 0x2002 {
        return Some(Ipv4Addr::new((s[1] >> 8) as u8, s[1] as u8, (s[2] >> 8) as u8, s[2] as u8));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::is_internal;

    #[test]
    fn special_purpose_addresses_are_refused() {
        for ip in [
            "127.0.0.1",
            "10.0.0.1",
            "172.16.5.4",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "192.0.0.1",
            "192.0.0.170",
            "192.0.2.10",
            "198.18.0.1",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.251",
            "240.0.0.1",
            "255.255.255.255",
            "192.88.99.1",
            "::",
            "::1",
            "fe80::1",
            "fd00::1",
            "fec0::1",
            "ff02::1",
            "2001:db8::1",
            "100::1",
            "3fff::1",
            "5f00::1",
            // IPv4 wrapped in IPv6.
            "::ffff:127.0.0.1",
            "::ffff:10.1.2.3",
            "::127.0.0.1",
            "::10.0.0.1",
            "::8.8.8.8",
            "64:ff9b::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::10.0.0.1",
            "64:ff9b:1::1",
            "2002:7f00:1::1",
            "2002:a9fe:a9fe::",
            "2002:c0a8:101::5",
            // Teredo (2001::/32) with a loopback server and any client.
            "2001:0:7f00:1::1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
        ] {
            assert!(is_internal(ip.parse().unwrap()), "{ip} must be refused");
        }
    }

    #[test]
    fn public_addresses_are_allowed() {
        for ip in [
            "93.184.216.34",
            "8.8.8.8",
            "1.1.1.1",
            "192.0.1.1",
            "2606:4700::1111",
            "2a00:1450:4007::200e",
            "64:ff9b::8.8.8.8",
            "2002:808:808::1",
            "::ffff:1.1.1.1",
        ] {
            assert!(!is_internal(ip.parse().unwrap()), "{ip} must be allowed");
        }
    }
}
