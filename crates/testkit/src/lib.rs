//! Sidecar's test helpers, shared by the crates' own tests and the assembly's `tests/it`.
//! A dev-dependency only: nothing a user runs links it.
//!
//! - [`ScriptedServer`] is an OpenAI-compatible model on loopback that answers each
//!   request with the next [`Reply`]: a stream, an error, a cut, a hang. It is written on
//!   raw TCP rather than a mock framework so it can misbehave precisely (end a chunked
//!   stream mid-reply, close early, never answer), and it records what it was asked.
//! - [`delta`], [`finish`], [`usage`], [`tool_call_events`], [`reply_events`] and
//!   [`anthropic_frame`] make the events a reply streams, as the real APIs write them.
//! - [`python`] finds the venv's Python that `make test` sets up, for the fixture servers
//!   written in Python.
//!
//! ```ignore
//! let server = ScriptedServer::start(vec![stream(reply_events(&["Hel", "lo"]))]).await;
//! // … point a client or a core at server.base_url …
//! assert_eq!(server.last_request()["stream"], true);
//! ```

mod events;
mod scripted;

pub use events::{anthropic_frame, delta, finish, reply_events, stream, tool_call_events, usage};
pub use scripted::{read_request, Recorded, Reply, ScriptedServer, PLANNING_STARTS};

/// The venv's Python, for the fixture servers written in Python: `SIDECAR_TEST_PYTHON`,
/// else the workspace's `.venv` that `make test` creates.
pub fn python() -> std::path::PathBuf {
    if let Some(p) = std::env::var_os("SIDECAR_TEST_PYTHON") {
        return p.into();
    }
    let default = workspace_root().join(".venv/bin/python");
    assert!(default.exists(), "the test venv is missing: run `make test` first, or set SIDECAR_TEST_PYTHON");
    default
}

/// The workspace's folder (this crate is `crates/testkit` in it).
pub fn workspace_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}
