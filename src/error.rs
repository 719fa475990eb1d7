//! The core's error: what went wrong, worded for the user, and whether Retry helps.

use crate::knowledge::store::KnowledgeError;
use crate::llm::router::RouteError;
use crate::settings::SettingsError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum CompanionError {
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the model is not available: {0}")]
    ModelUnavailable(String),
    #[error(transparent)]
    Route(#[from] RouteError),
    #[error("{0}")]
    TurnFailed(String),
    #[error("a reply is still being written; press Stop first")]
    Busy,
    #[error("the queued message was cancelled before its turn")]
    QueuedCancelled,
    #[error("there is no unanswered message to retry")]
    NothingToRetry,
    #[error("there is no reply to write again")]
    NothingToRegenerate,
    #[error("only your own messages in this conversation can be edited")]
    NotEditable,
    #[error("the message is empty")]
    EmptyMessage,
    #[error("{0}")]
    InvalidInput(String),
    /// Words that could not be read as a time; the text says what to say instead.
    #[error(transparent)]
    Date(#[from] crate::dates::DateError),
    #[error(transparent)]
    Knowledge(#[from] KnowledgeError),
}

impl CompanionError {
    pub fn is_retryable(&self) -> bool {
        match self {
            CompanionError::Route(e) => e.is_retryable(),
            CompanionError::ModelUnavailable(_) | CompanionError::TurnFailed(_) => true,
            _ => false,
        }
    }
}

/// An error and its causes in one line, each said once: a layer that already quotes
/// its cause (`database error: {0}`) is not followed by that cause again.
pub fn said_once(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        let said = next.to_string();
        if !text.contains(&said) {
            text = format!("{text}: {said}");
        }
        cause = next.source();
    }
    text
}

#[cfg(test)]
mod said_once_tests {
    #[test]
    fn a_cause_already_quoted_is_not_repeated() {
        let inner = std::io::Error::other("disk I/O error");
        let store = crate::store::StoreError::CreateDir { path: "/data".into(), source: inner };
        let error = super::CompanionError::Store(store);
        let once = super::said_once(&error);
        assert_eq!(once, "cannot create the data directory /data: disk I/O error");
        assert_eq!(once.matches("disk I/O error").count(), 1);
    }
}
