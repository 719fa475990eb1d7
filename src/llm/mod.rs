//! Model clients: wire formats, SSE, and the offline local server.

pub mod local_server;
pub mod openai_compat;
pub mod sse;

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Token counts reported by the provider for one call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u32,
    pub output_tokens: u32,
}

/// One message as sent to a model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: String,
    pub content: String,
}

impl ChatMessage {
    pub fn new(role: impl Into<String>, content: impl Into<String>) -> Self {
        Self {
            role: role.into(),
            content: content.into(),
        }
    }
}

/// What a finished streaming call produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Completion {
    pub text: String,
    /// `stop`, `length`, …; `None` when the provider did not say.
    pub finish_reason: Option<String>,
    pub usage: Option<Usage>,
}

/// Why a model call failed. Messages are written for the person reading the error
/// banner: they say what happened and what to try.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("could not reach the model server at {url}: {detail}. Is it running, and is the address in Settings right?")]
    Unreachable { url: String, detail: String },
    #[error("the model server did not {phase} within {after:?}; it may be overloaded. Try again, or raise the timeout in settings.toml")]
    Timeout { phase: TimeoutPhase, after: Duration },
    #[error("the model server answered HTTP {status}: {message}")]
    Http { status: u16, message: String },
    #[error("the reply stream broke off before it finished: {detail}. What arrived is kept; press Retry to ask again")]
    Interrupted { detail: String },
    #[error("the model server sent something that is not a valid reply: {detail}")]
    Malformed { detail: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeoutPhase {
    Connect,
    Respond,
    Stream,
}

impl std::fmt::Display for TimeoutPhase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TimeoutPhase::Connect => "accept the connection",
            TimeoutPhase::Respond => "start answering",
            TimeoutPhase::Stream => "send more of the reply",
        })
    }
}

impl LlmError {
    /// Whether asking again unchanged might succeed (rate limits, overload, network).
    pub fn is_retryable(&self) -> bool {
        match self {
            LlmError::Unreachable { .. } | LlmError::Timeout { .. } => true,
            LlmError::Interrupted { .. } => true,
            LlmError::Http { status, .. } => *status == 429 || *status >= 500,
            LlmError::Malformed { .. } => false,
        }
    }
}
