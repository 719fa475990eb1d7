//! Model clients: the two wire formats (OpenAI-compatible and Anthropic Messages),
//! SSE, the router with retries and fallback, prices, and the offline local server.

pub mod anthropic;
pub mod demo;
pub mod discover;
pub mod endpoint;
pub mod lasting_spawn;
pub mod late;
pub mod local_server;
pub mod openai_compat;
pub mod presets;
pub mod pricing;
pub mod provider;
pub mod repetition;
pub mod retry;
pub mod router;
pub mod sampling;
pub mod sse;
pub mod vision;

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Who said a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, sqlx::Type)]
#[sqlx(type_name = "TEXT", rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    /// The result of a tool call, answering the assistant message that made it.
    Tool,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }
}

/// Token counts reported by the provider for one call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u32,
    pub output_tokens: u32,
    /// Input tokens served from the provider's prompt cache (billed lower).
    #[serde(default)]
    pub cached_tokens: u32,
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Self) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.cached_tokens += other.cached_tokens;
    }
}

/// A tool the model asked to run. `arguments` is the raw JSON text the model wrote:
/// it may be invalid, and that is reported back to the model, not thrown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: String,
}

/// A tool offered to the model: name, what it does, and a JSON schema of its input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: serde_json::Value,
}

/// One message as sent to a model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: Role,
    pub content: String,
    /// Set on assistant messages that call tools.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// Set on tool messages: the call this result answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// Set on tool messages whose tool failed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    /// Images that go with a user's message, for models that take them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ImagePart>,
}

/// An image in a message: its media type and its bytes in base64.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImagePart {
    pub media_type: String,
    pub data: String,
}

impl std::fmt::Debug for ImagePart {
    // Hand-written so a log line holds the size, not megabytes of base64.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ImagePart({}, {} base64 bytes)", self.media_type, self.data.len())
    }
}

impl ChatMessage {
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        Self { role, content: content.into(), tool_calls: Vec::new(), tool_call_id: None, is_error: false, images: Vec::new() }
    }
    pub fn system(content: impl Into<String>) -> Self {
        Self::new(Role::System, content)
    }
    pub fn user(content: impl Into<String>) -> Self {
        Self::new(Role::User, content)
    }
    pub fn assistant(content: impl Into<String>) -> Self {
        Self::new(Role::Assistant, content)
    }
    pub fn assistant_with_tools(content: impl Into<String>, tool_calls: Vec<ToolCall>) -> Self {
        Self { tool_calls, ..Self::new(Role::Assistant, content) }
    }
    pub fn tool_result(call_id: impl Into<String>, content: impl Into<String>, is_error: bool) -> Self {
        Self { tool_call_id: Some(call_id.into()), is_error, ..Self::new(Role::Tool, content) }
    }
}

/// What one model call is asked to do.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChatRequest {
    pub messages: Vec<ChatMessage>,
    pub tools: Vec<ToolSpec>,
    pub max_tokens: Option<u32>,
    /// `max_tokens` is the user's general reply length (`llm.max_tokens`), which a
    /// model's own reply length replaces; otherwise it is the caller's own cap.
    pub general_cap: bool,
}

/// Why the model stopped, normalised across wire formats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    /// It finished its answer.
    Stop,
    /// It hit the output length limit: the reply is cut.
    Length,
    /// It wants tools run.
    ToolUse,
    /// Something else the provider named (content filter, …).
    Other(String),
}

impl FinishReason {
    /// Maps OpenAI's and Anthropic's names.
    pub fn from_wire(reason: &str) -> Self {
        match reason {
            "stop" | "end_turn" | "stop_sequence" | "eos" => FinishReason::Stop,
            "length" | "max_tokens" | "model_length" => FinishReason::Length,
            "tool_calls" | "tool_use" | "function_call" => FinishReason::ToolUse,
            other => FinishReason::Other(other.to_string()),
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            FinishReason::Stop => "stop",
            FinishReason::Length => "length",
            FinishReason::ToolUse => "tool_use",
            FinishReason::Other(other) => other,
        }
    }
}

/// What a finished streaming call produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Completion {
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
    /// `None` when the provider did not say.
    pub finish_reason: Option<FinishReason>,
    pub usage: Option<Usage>,
}

/// Why a model call failed. Messages are written for the person reading the error
/// banner: they say what happened and what to try.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LlmError {
    /// `detail` ends with what to do (check the network, or start the server).
    #[error("could not reach the model server at {url}: {detail}")]
    Unreachable {
        url: String,
        detail: String,
        /// The computer has no network (not: the server is down).
        offline: bool,
    },
    #[error(
        "the provider stopped answering: it did not {phase} within {} s. Try again, or pick a faster model in the model menu",
        after.as_secs_f64()
    )]
    Timeout { phase: TimeoutPhase, after: Duration },
    #[error("the model server answered HTTP {status}: {message}")]
    Http {
        status: u16,
        message: String,
        /// From a `Retry-After` header, when the server sent one.
        retry_after: Option<Duration>,
    },
    #[error("the reply stream broke off before it finished: {detail}. What arrived is kept; Retry (or ask again) to go on")]
    Interrupted { detail: String },
    #[error("the provider sent an empty reply: the answer came back with nothing in it. Try again; if it keeps happening, check the model name in Settings")]
    Empty,
    #[error("the model server sent something that is not a valid reply: {detail}")]
    Malformed { detail: String },
    #[error("the provider reported an error: {message}")]
    Provider { message: String, retryable: bool },
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
    /// The same error with every secret removed from the server-supplied text in it.
    pub fn scrubbed(self) -> Self {
        let clean = |text: String| crate::redact::scrub(&text).into_owned();
        match self {
            LlmError::Unreachable { url, detail, offline } => LlmError::Unreachable { url: clean(url), detail: clean(detail), offline },
            LlmError::Http { status, message, retry_after } => LlmError::Http { status, message: clean(message), retry_after },
            LlmError::Interrupted { detail } => LlmError::Interrupted { detail: clean(detail) },
            LlmError::Malformed { detail } => LlmError::Malformed { detail: clean(detail) },
            LlmError::Provider { message, retryable } => LlmError::Provider { message: clean(message), retryable },
            unchanged @ (LlmError::Timeout { .. } | LlmError::Empty) => unchanged,
        }
    }

    /// Whether to try the same provider again at once. A server that let a long
    /// timeout run out is not asked again: the user would sit through it twice; the
    /// next provider in the chain is tried instead.
    pub fn worth_retrying_here(&self) -> bool {
        self.is_retryable() && !matches!(self, LlmError::Timeout { phase: TimeoutPhase::Respond | TimeoutPhase::Stream, .. })
    }

    /// Whether asking again unchanged might succeed (rate limits, overload, network).
    pub fn is_retryable(&self) -> bool {
        match self {
            LlmError::Unreachable { .. } | LlmError::Timeout { .. } => true,
            LlmError::Interrupted { .. } | LlmError::Empty => true,
            LlmError::Http { status, .. } => *status == 429 || *status == 408 || *status >= 500,
            LlmError::Malformed { .. } => false,
            LlmError::Provider { retryable, .. } => *retryable,
        }
    }

    /// How long the server asked us to wait, if it said.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            LlmError::Http { retry_after, .. } => *retry_after,
            _ => None,
        }
    }
}

/// Parses a `Retry-After` header: delay-seconds, or an HTTP date.
pub(crate) fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<f64>() {
        return (seconds >= 0.0).then(|| Duration::from_secs_f64(seconds));
    }
    let when = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let delta = when.with_timezone(&chrono::Utc) - chrono::Utc::now();
    Some(delta.to_std().unwrap_or(Duration::ZERO))
}

/// The first `max` bytes of `text` (on a character boundary), with an ellipsis.
pub(crate) fn preview(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_takes_seconds_and_dates() {
        assert_eq!(parse_retry_after("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after(" 0.5 "), Some(Duration::from_millis(500)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon"), None);
    }

    #[test]
    fn finish_reasons_normalise() {
        assert_eq!(FinishReason::from_wire("end_turn"), FinishReason::Stop);
        assert_eq!(FinishReason::from_wire("max_tokens"), FinishReason::Length);
        assert_eq!(FinishReason::from_wire("tool_calls"), FinishReason::ToolUse);
        assert_eq!(FinishReason::from_wire("content_filter").as_str(), "content_filter");
    }
}
