//! Picks who answers: retries a provider with exponential backoff and jitter on
//! transient failures (honouring `Retry-After`), then falls back along the chain.
//!
//! Two promises to the user: a model they pinned for a conversation never silently
//! falls back, and a reply that already streamed text is never re-sent behind
//! their back (the failure is reported instead, with the text kept).

use std::time::Duration;

use super::provider::Provider;
pub use super::retry::RetryPolicy;
use super::{ChatRequest, Completion, LlmError};

/// Something the user may want to know while a turn waits.
#[derive(Debug, Clone, PartialEq)]
pub enum RouteNotice {
    Retrying { provider: String, attempt: u32, delay: Duration, reason: String },
    FallingBack { from: String, to: String, reason: String },
}

/// A completion and who produced it.
#[derive(Debug, Clone)]
pub struct Routed {
    pub completion: Completion,
    pub provider_id: String,
    pub model: String,
    /// The provider that should have answered, when a fallback did instead.
    pub fallback_from: Option<String>,
    /// Why it did not, when that is not a failure (a budget spent).
    pub fallback_reason: Option<String>,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum RouteError {
    #[error("no model is configured for this purpose; add a provider in Settings")]
    NoProviders,
    /// The budget holds the call back and nothing free can answer; `reason` says which
    /// limit and what to do.
    #[error("{reason}")]
    OverBudget { reason: String },
    /// Every provider failed; `error` is the last one's failure.
    #[error("{error}")]
    Failed {
        provider_id: String,
        error: LlmError,
        /// Text had already reached the user when it failed.
        streamed: bool,
    },
}

impl RouteError {
    pub fn is_retryable(&self) -> bool {
        match self {
            RouteError::NoProviders | RouteError::OverBudget { .. } => false,
            RouteError::Failed { error, .. } => error.is_retryable(),
        }
    }
}

/// Whether another provider might do better than this failure: transient trouble,
/// or a provider that is misconfigured (bad key, unknown model).
pub(crate) fn worth_falling_back(error: &LlmError) -> bool {
    error.is_retryable() || matches!(error, LlmError::Http { status: 401 | 403 | 404, .. })
}

/// Calls the chain in order. With `pinned`, only the first provider is tried.
pub async fn complete(
    chain: &[Provider],
    pinned: bool,
    policy: &RetryPolicy,
    request: &ChatRequest,
    mut on_delta: impl FnMut(&str),
    mut on_notice: impl FnMut(RouteNotice),
) -> Result<Routed, RouteError> {
    let chain = if pinned { &chain[..chain.len().min(1)] } else { chain };
    for (index, provider) in chain.iter().enumerate() {
        let mut attempt = 0;
        let error = loop {
            let mut streamed = false;
            let result = provider
                .stream_chat(request, |text| {
                    streamed = true;
                    on_delta(text)
                })
                .await;
            let error = match result {
                Ok(completion) => {
                    return Ok(Routed {
                        completion,
                        provider_id: provider.id.clone(),
                        model: provider.model().to_string(),
                        fallback_from: (index > 0).then(|| chain[0].id.clone()),
                        fallback_reason: None,
                    })
                }
                Err(error) => error.scrubbed(provider.redactor()),
            };
            tracing::warn!(provider = %provider.id, attempt, %error, streamed, "model call failed");
            if streamed {
                return Err(RouteError::Failed { provider_id: provider.id.clone(), error, streamed: true });
            }
            if !error.worth_retrying_here() || attempt >= policy.max_retries {
                break error;
            }
            let delay = policy.delay(attempt, error.retry_after(), fastrand::f64());
            if delay > policy.max_delay {
                // The server wants a longer pause than the user should sit through.
                break error;
            }
            attempt += 1;
            on_notice(RouteNotice::Retrying { provider: provider.id.clone(), attempt, delay, reason: error.to_string() });
            tokio::time::sleep(delay).await;
        };
        let next = chain.get(index + 1);
        match next {
            Some(next) if worth_falling_back(&error) => {
                on_notice(RouteNotice::FallingBack { from: provider.id.clone(), to: next.id.clone(), reason: error.to_string() })
            }
            _ => return Err(RouteError::Failed { provider_id: provider.id.clone(), error, streamed: false }),
        }
    }
    // Every provider either answered, failed for good, or handed over to the next;
    // reaching here means the chain was empty.
    Err(RouteError::NoProviders)
}

impl sidecar_domain::Worded for RouteError {
    fn spanish(&self) -> String {
        match self {
            RouteError::NoProviders => "no hay ningún modelo configurado para esto; añade un proveedor en Ajustes".into(),
            // Said in the user's language where it was made.
            RouteError::OverBudget { reason } => reason.clone(),
            RouteError::Failed { error, .. } => error.spanish(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_with_bounded_jitter_and_honours_retry_after() {
        let policy = RetryPolicy { max_retries: 3, base_delay: Duration::from_millis(100), max_delay: Duration::from_secs(5) };
        assert_eq!(policy.delay(0, None, 0.0), Duration::from_millis(100));
        assert_eq!(policy.delay(1, None, 0.0), Duration::from_millis(200));
        assert_eq!(policy.delay(2, None, 1.0), Duration::from_millis(500));
        assert_eq!(policy.delay(0, Some(Duration::from_secs(2)), 0.5), Duration::from_secs(2));
    }
}
