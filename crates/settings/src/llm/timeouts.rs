//! How long a streaming model call may take at each step: a setting (`[llm]`), read by
//! the wire clients. In a file of its own so the settings can hold it without the clients.

use std::time::Duration;

/// Timeouts for one streaming call.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// Until the TCP connection is open (enforced by the injected client, see
    /// [`http_client`]; kept here to say so in the error).
    pub connect: Duration,
    /// Until the response headers arrive.
    pub respond: Duration,
    /// Between two body chunks.
    pub idle: Duration,
}
