//! Models: how Sidecar talks to them, which one answers, and what it costs.
//!
//! A [`Provider`] speaks one of the two wire formats ([`OpenAiClient`] for
//! OpenAI-compatible servers, [`AnthropicClient`] for Anthropic Messages), streamed over
//! SSE. [`Models`] picks a [`Chain`] of providers for each purpose; the router
//! ([`complete_routed`]) tries them in turn with retries, and falls back to the offline
//! model: llama.cpp's own server ([`LocalServer`]) running a model of the [`ModelHub`]
//! (downloaded by the [`Downloader`], read by [`read_gguf_info`]), or the demo model
//! ([`complete_demo`]). Every call is priced and counted against the [`Budget`].
//! Providers are added and tested through [`ProviderAdmin`]. [`tokens`] counts a text's
//! tokens; [`late`] is the block of the day, the time and the plan attached late in a
//! prompt, so the stable prefix before it stays cached.

mod anthropic;
mod budget;
mod chain;
mod demo;
mod discover;
mod endpoint;
pub(crate) mod lasting_spawn;
mod local_models;
mod local_server;
pub mod per_turn;

// The settings the clients read (crates/settings).
use sidecar_settings::llm::pricing;
use sidecar_settings::llm::retry;
use sidecar_settings::llm::sampling;
use sidecar_settings::llm::timeouts;
mod fallback;
mod model;
mod offline;
mod openai_compat;
mod outcomes;
mod presets;
mod provider;
mod provider_admin;
mod repetition;
mod sse;
mod status;
mod status_words;
pub mod tokens;
pub(crate) mod vision;
mod window;

// The face: what the crates above, the faces and the tests name.
pub use anthropic::{request_body as anthropic_request_body, AnthropicClient};
pub use budget::admin::{BudgetAdmin, BudgetError};
pub use budget::events::BudgetEvent;
pub use budget::limits::LimitsForm;
pub use budget::rows::BudgetStore;
pub use budget::tally::{Period as BudgetPeriod, Scope as BudgetScope};
pub use budget::usage::{Span as UsageSpan, UsageHistory};
pub use budget::words::{amount as budget_amount, notification_title as budget_notification_title};
pub use budget::{Budget, BudgetView, OverBudget};
pub use demo::{complete as complete_demo, demo_messages, DEMO_MAX_TOKENS};
pub use discover::{servers_among, FoundServer};
pub use endpoint::{Endpoint, ProbeProblem};
pub use fallback::{complete as complete_routed, RetryPolicy, RouteError, RouteNotice, Routed};
pub use local_models::catalogue::CATALOGUE;
pub use local_models::choice::LocalChoice;
pub use local_models::download::{Downloader, Progress as DownloadProgress, PullError, PullRequest, Verified};
pub use local_models::error::HubError;
pub use local_models::events::LocalModelEvent;
pub use local_models::gguf::{read_info as read_gguf_info, GgufError, GgufInfo};
pub use local_models::library::{LibraryError, ModelLibrary};
pub use local_models::machine::total_memory;
pub use local_models::tuning::{TuningInput, TuningView};
pub use local_models::{HubView, ModelHub, Switched};
pub use local_server::{listening_address, LocalServer, LocalServerError, LOCAL_MODEL_NAME};
pub use model::{is_demo_reply, Chain, Models, Room};
pub use offline::{offline_words, ConnectFailure};
pub use openai_compat::OpenAiClient;
pub use outcomes::{step_limit, turn_timed_out, window_too_small};
pub use presets::{preset, Preset, PRESETS};
pub use provider::Provider;
pub use provider_admin::{ConnectionTest, ProviderAdmin, ProviderInput, ProviderRefusal, ProviderView, SavedProvider};
pub use repetition::repeats_from;
pub use sse::{http_client, Timeouts};
pub use status::{ModelEvent, ModelStatus};

pub use sidecar_domain::ChatMessage;
pub use sidecar_domain::ChatRequest;
pub use sidecar_domain::Completion;
pub use sidecar_domain::FinishReason;
pub use sidecar_domain::ImagePart;
pub use sidecar_domain::Role;
pub use sidecar_domain::ToolCall;
pub use sidecar_domain::ToolSpec;
pub use sidecar_domain::Usage;

use std::time::Duration;

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
    #[error("{}", status_words::http_error(*status, message, sidecar_domain::Lang::En))]
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
    /// The same error with every secret `redactor` knows removed from the
    /// server-supplied text in it.
    pub fn scrubbed(self, redactor: &sidecar_domain::Redactor) -> Self {
        let clean = |text: String| redactor.scrub(&text).into_owned();
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
    pub(crate) fn worth_retrying_here(&self) -> bool {
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
    pub(crate) fn retry_after(&self) -> Option<Duration> {
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
pub fn preview(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

impl sidecar_domain::Worded for LlmError {
    fn spanish(&self) -> String {
        match self {
            LlmError::Unreachable { url, offline: true, .. } => {
                format!("no se pudo contactar con el servidor del modelo en {url}: este ordenador parece no tener conexión. Revisa la conexión de red")
            }
            LlmError::Unreachable { url, .. } => {
                format!("no se pudo contactar con el servidor del modelo en {url}: no responde. ¿Está en marcha, y es correcta la dirección en Ajustes?")
            }
            LlmError::Timeout { phase, after } => {
                let what = match phase {
                    TimeoutPhase::Connect => "aceptar la conexión",
                    TimeoutPhase::Respond => "empezar a responder",
                    TimeoutPhase::Stream => "enviar más de la respuesta",
                };
                format!(
                    "el proveedor dejó de responder: no llegó a {what} en {} s. Inténtalo de nuevo, o elige un modelo más rápido en el menú de modelos",
                    after.as_secs_f64()
                )
            }
            LlmError::Http { status, message, .. } => status_words::http_error(*status, message, sidecar_domain::Lang::Es),
            LlmError::Interrupted { detail } => {
                format!("la respuesta se cortó antes de terminar: {detail}. Lo que llegó se conserva; pulsa Reintentar (o vuelve a preguntar) para seguir")
            }
            LlmError::Empty => "el proveedor envió una respuesta vacía. Inténtalo de nuevo; si sigue pasando, revisa el nombre del modelo en Ajustes".into(),
            LlmError::Malformed { detail } => format!("el servidor del modelo envió algo que no es una respuesta válida: {detail}"),
            LlmError::Provider { message, .. } => format!("el proveedor informó de un error: {message}"),
        }
    }
}

/// The model could not be started or reached; the reason is the model layer's own.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the model is not available: {0}")]
pub struct ModelUnavailable(pub String);

/// Why a model call outside a turn ([`Models::call_once`]) gave no answer.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CallOnceError {
    /// The budget held every provider back.
    #[error("not made, {0}")]
    HeldBack(String),
    #[error("the model took longer than {0} s")]
    TimedOut(u64),
    #[error(transparent)]
    Unavailable(#[from] ModelUnavailable),
    #[error(transparent)]
    Failed(#[from] RouteError),
}

impl sidecar_domain::Worded for ModelUnavailable {
    fn spanish(&self) -> String {
        format!("el modelo no está disponible: {}", self.0)
    }
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
