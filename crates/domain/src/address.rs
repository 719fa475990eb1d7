//! Which addresses Sidecar reaches over the network on its own: encrypted ones, or
//! plain ones to this computer. One rule for the update address and remote MCP servers,
//! whether typed in Settings or written in a file.

/// Why an address is not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddressProblem {
    /// Not an address at all.
    Unreadable,
    /// Plain `http://` to another computer: anyone on the way could read and change
    /// what passes (an update's manifest, an MCP server's tools and their answers).
    NotEncrypted,
}

/// The address as it will be used: `https://`, or `http://` to this computer only (a
/// release served from a local folder, a server on loopback, a test).
pub fn check_address(text: &str) -> Result<String, AddressProblem> {
    let text = text.trim();
    let url = url::Url::parse(text).map_err(|_| AddressProblem::Unreadable)?;
    match url.scheme() {
        "https" if url.host().is_some() => Ok(text.to_string()),
        "http" if on_this_computer(&url) => Ok(text.to_string()),
        "http" => Err(AddressProblem::NotEncrypted),
        _ => Err(AddressProblem::Unreadable),
    }
}

pub(crate) fn on_this_computer(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}
