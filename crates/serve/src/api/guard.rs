//! The door of the loopback endpoint, for the REST API and the MCP endpoint alike:
//! the request must be addressed to this computer by name (a web page that rebinds
//! its own domain to 127.0.0.1 sends its own Host), a browser's Origin must be this
//! computer too, and the client is known only by the bearer token it presents. The
//! name a client gives in an MCP handshake is a label, never who it is.

use http::{header, HeaderMap};

use super::error::ApiError;

/// The client a request's token belongs to, put in the request's extensions for the
/// MCP server to read (rmcp hands the request's parts to each call).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TokenHolder(pub String);

/// The names of this computer a request may be addressed to.
fn is_loopback_name(name: &str) -> bool {
    matches!(name.to_ascii_lowercase().as_str(), "127.0.0.1" | "localhost" | "::1")
}

/// The host of an authority (`name`, `name:port`, `[v6]`, `[v6]:port`), or `None` when
/// it is not one: a port must be digits, and nothing may follow a bracketed address
/// but its port. `[::1]evil.example` and `localhost:@evil.example` are not authorities.
pub(crate) fn authority_host(authority: &str) -> Option<&str> {
    let port_ok = |port: &str| !port.is_empty() && port.len() <= 5 && port.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = authority.strip_prefix('[') {
        let (name, after) = rest.split_once(']')?;
        return match after {
            "" => Some(name),
            _ => after.strip_prefix(':').filter(|p| port_ok(p)).map(|_| name),
        };
    }
    let (name, port) = match authority.split_once(':') {
        Some((name, port)) => (name, Some(port)),
        None => (authority, None),
    };
    if name.is_empty() || port.is_some_and(|p| !port_ok(p)) {
        return None;
    }
    Some(name)
}

/// Only requests addressed to this computer by name are answered.
pub(crate) fn check_host(headers: &HeaderMap) -> Result<(), ApiError> {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
    match authority_host(host) {
        Some(name) if is_loopback_name(name) => Ok(()),
        _ => Err(ApiError::ForeignHost(host.to_string())),
    }
}

/// A request from a browser names its page's origin: only pages of this computer may
/// call (programs send no Origin at all).
pub(crate) fn check_origin(headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else { return Ok(()) };
    let text = origin.to_str().unwrap_or_default();
    let authority = text.strip_prefix("http://").or_else(|| text.strip_prefix("https://"));
    match authority.and_then(authority_host) {
        Some(name) if is_loopback_name(name) => Ok(()),
        _ => Err(ApiError::ForeignOrigin(text.chars().take(200).collect())),
    }
}

/// The bearer token a request presents.
pub(crate) fn bearer(headers: &HeaderMap) -> Result<&str, ApiError> {
    let value = headers.get(header::AUTHORIZATION).and_then(|h| h.to_str().ok()).ok_or(ApiError::NoToken)?;
    let (scheme, token) = value.split_once(' ').ok_or(ApiError::NoToken)?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return Err(ApiError::NoToken);
    }
    Ok(token)
}

/// Host and Origin, then the token: the client it belongs to, or why not.
pub(crate) async fn admit(headers: &HeaderMap, tokens: &crate::connections::tokens::ApiTokens) -> Result<String, ApiError> {
    check_host(headers)?;
    check_origin(headers)?;
    let token = bearer(headers)?;
    tokens.owner(token).await.map_err(|e| ApiError::Failed(e.to_string()))?.ok_or(ApiError::BadToken)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(name: header::HeaderName, value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(name, value.parse().unwrap());
        headers
    }

    #[test]
    fn only_requests_named_for_this_computer_are_answered() {
        let host = |value: &str| check_host(&with(header::HOST, value));
        for good in ["127.0.0.1:47100", "localhost:47100", "LOCALHOST", "[::1]:47100", "[::1]", "127.0.0.1"] {
            assert!(host(good).is_ok(), "{good}");
        }
        for bad in [
            "evil.example:47100",
            "127.0.0.1.evil.example",
            "[::1]evil.example",
            "localhost:@evil.example",
            "localhost:",
            "localhost:80x",
            "[::1]:",
            ":80",
            "[::1]:80:81",
        ] {
            assert!(host(bad).is_err(), "{bad}");
        }
        assert!(check_host(&HeaderMap::new()).is_err());
    }

    #[test]
    fn only_pages_of_this_computer_may_call_and_programs_send_no_origin() {
        let origin = |value: &str| check_origin(&with(header::ORIGIN, value));
        assert!(check_origin(&HeaderMap::new()).is_ok());
        for good in ["http://localhost:5173", "http://127.0.0.1", "https://[::1]:8080"] {
            assert!(origin(good).is_ok(), "{good}");
        }
        for bad in ["https://evil.example", "null", "http://localhost.evil.example", "file://", "http://[::1]evil.example", "tauri://localhost"] {
            assert!(origin(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_token_comes_from_a_bearer_header_of_any_case() {
        assert_eq!(bearer(&with(header::AUTHORIZATION, "Bearer sk-sidecar-1")).unwrap(), "sk-sidecar-1");
        assert_eq!(bearer(&with(header::AUTHORIZATION, "BEARER  sk-sidecar-1 ")).unwrap(), "sk-sidecar-1");
        for bad in ["Basic abc", "Bearer", "Bearer   ", "sk-sidecar-1"] {
            assert_eq!(bearer(&with(header::AUTHORIZATION, bad)), Err(ApiError::NoToken), "{bad}");
        }
    }
}
