//! One web search result, the same whatever the service.

use serde::{Deserialize, Serialize};

/// One search result, the same whatever the backend.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct SearchResult {
    pub title: String,
    pub url: String,
    pub snippet: String,
}
