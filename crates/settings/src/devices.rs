//! `[devices]`: the user's other devices attached to this Sidecar (issue 70). Nothing
//! listens beyond this computer until the user names where: a LAN address, or a
//! WireGuard or Tailscale one.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The port the link listens on when an address names none.
pub const DEFAULT_LINK_PORT: u16 = 47_200;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct DevicesSettings {
    /// Where other devices reach this Sidecar ("192.168.1.20", "100.101.102.103:47200");
    /// empty: off.
    pub listen: Vec<String>,
}

impl DevicesSettings {
    /// Each address with its port ("192.168.1.20" → "192.168.1.20:47200"); one that is
    /// no IP address is said as the error.
    pub fn addresses(&self) -> Result<Vec<std::net::SocketAddr>, NotAnAddress> {
        self.listen.iter().map(|a| address(a)).collect()
    }
}

/// Words in `[devices] listen` that are no IP address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not an IP address (for example 192.168.1.20 or 100.101.102.103:47200)")]
pub struct NotAnAddress(pub String);

/// `text` as a socket address, the link's port when none is said.
pub fn address(text: &str) -> Result<std::net::SocketAddr, NotAnAddress> {
    let text = text.trim();
    if let Ok(at) = text.parse::<std::net::SocketAddr>() {
        return Ok(at);
    }
    match text.trim_start_matches('[').trim_end_matches(']').parse::<std::net::IpAddr>() {
        Ok(ip) => Ok(std::net::SocketAddr::new(ip, DEFAULT_LINK_PORT)),
        Err(_) => Err(NotAnAddress(text.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_the_links_port_when_it_names_none() {
        assert_eq!(address("192.168.1.20").unwrap().to_string(), "192.168.1.20:47200");
        assert_eq!(address(" 100.64.0.3:9000 ").unwrap().to_string(), "100.64.0.3:9000");
        assert_eq!(address("fd7a:115c:a1e0::1").unwrap().to_string(), "[fd7a:115c:a1e0::1]:47200");
        assert!(address("my-laptop.local").unwrap_err().to_string().contains("not an IP address"));
    }
}
