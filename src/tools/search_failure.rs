//! Why a web search failed: typed, so Settings' "Try it" can say it in the user's
//! language (`words::errors`), while the model reads the English words as a tool result.

/// One failed search on the service chosen in Settings.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchFailure {
    #[error("{service} could not be reached ({detail}): check the connection, or choose another service in Settings → Web search")]
    Unreachable { service: &'static str, detail: String },
    #[error("DuckDuckGo refused the search (it took Sidecar for a robot). Try again later, or choose SearXNG or Brave in Settings → Web search")]
    Refused,
    #[error("{service} answered HTTP {code}: try again later, or choose another service in Settings → Web search")]
    Status { service: &'static str, code: u16 },
    #[error("{service}'s answer was cut: {detail}")]
    Cut { service: &'static str, detail: String },
    #[error("{service} sent something that is not JSON: {detail}")]
    NotJson { service: &'static str, detail: String },
    #[error("SearXNG needs the address of an instance: set it in Settings → Web search")]
    NoAddress,
    #[error("Brave Search needs an API key: add it in Settings → Web search")]
    NoKey,
}

impl From<SearchFailure> for super::ToolError {
    fn from(failure: SearchFailure) -> Self {
        super::ToolError::Failed(failure.to_string())
    }
}
