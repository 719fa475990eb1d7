//! `web_search`: results (title, url, snippet) from a configurable backend: a SearXNG
//! instance's JSON API, or the Brave Search API.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{parse_arguments, schema_of, untrusted, Tool, ToolError, ToolFuture};
use crate::settings::{SearchBackend, WebSearchSettings};

const BRAVE_DEFAULT_URL: &str = "https://api.search.brave.com";

pub struct WebSearch {
    pub http: reqwest::Client,
    pub settings: WebSearchSettings,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// What to search for.
    query: String,
    /// How many results, 1 to 10 (default 5).
    #[serde(default)]
    count: Option<u8>,
}

/// One search result, the same whatever the backend.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchResult {
    pub title: String,
    pub url: String,
    pub snippet: String,
}

impl Tool for WebSearch {
    fn name(&self) -> &'static str {
        "web_search"
    }

    fn description(&self) -> &'static str {
        "Search the web. Returns results with title, url and snippet; use read_url to read a page."
    }

    fn parameters(&self) -> Value {
        schema_of::<Args>()
    }

    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: Args = parse_arguments(arguments)?;
            if args.query.trim().is_empty() {
                return Err(ToolError::InvalidArguments("query is empty".into()));
            }
            let count = args.count.unwrap_or(5).clamp(1, 10) as usize;
            let results = self.search(args.query.trim(), count).await?;
            let listed = serde_json::to_string_pretty(&results).expect("results serialize");
            Ok(untrusted("web search", &listed))
        })
    }
}

impl WebSearch {
    /// Runs the search on the configured backend.
    pub async fn search(&self, query: &str, count: usize) -> Result<Vec<SearchResult>, ToolError> {
        let mut results = match self.settings.backend {
            SearchBackend::Searxng => self.searxng(query).await?,
            SearchBackend::Brave => self.brave(query, count).await?,
        };
        results.truncate(count);
        Ok(results)
    }

    async fn searxng(&self, query: &str) -> Result<Vec<SearchResult>, ToolError> {
        let base = self.settings.url.as_deref().ok_or_else(|| {
            ToolError::Failed(
                "web search is not set up: add [tools.web_search] url = \"https://your-searxng\" (or backend = \"brave\") to settings.toml".into(),
            )
        })?;
        let body: Value = get_json(
            self.http.get(format!("{}/search", base.trim_end_matches('/'))).query(&[("q", query), ("format", "json")]),
        )
        .await?;
        Ok(results(&body["results"], "content"))
    }

    async fn brave(&self, query: &str, count: usize) -> Result<Vec<SearchResult>, ToolError> {
        let key = self
            .settings
            .api_key_env
            .as_deref()
            .and_then(|name| std::env::var(name).ok())
            .filter(|k| !k.is_empty())
            .ok_or_else(|| {
                ToolError::Failed("Brave search needs an API key: set [tools.web_search] api_key_env to the variable holding it".into())
            })?;
        crate::redact::register(&key);
        let base = self.settings.url.as_deref().unwrap_or(BRAVE_DEFAULT_URL).trim_end_matches('/');
        let body: Value = get_json(
            self.http
                .get(format!("{base}/res/v1/web/search"))
                .query(&[("q", query), ("count", &count.to_string())])
                .header("X-Subscription-Token", key)
                .header("Accept", "application/json"),
        )
        .await?;
        Ok(results(&body["web"]["results"], "description"))
    }
}

/// A backend's result list; the backends differ in what they call the snippet.
fn results(list: &Value, snippet_field: &str) -> Vec<SearchResult> {
    list.as_array()
        .into_iter()
        .flatten()
        .map(|r| SearchResult { title: text(&r["title"]), url: text(&r["url"]), snippet: text(&r[snippet_field]) })
        .filter(|r| !r.url.is_empty())
        .collect()
}

fn text(value: &Value) -> String {
    value.as_str().unwrap_or_default().trim().to_string()
}

/// GET returning JSON, with failures phrased for the model.
pub(crate) async fn get_json(request: reqwest::RequestBuilder) -> Result<Value, ToolError> {
    let response = request
        .timeout(std::time::Duration::from_secs(20))
        .send()
        .await
        .map_err(|e| ToolError::Failed(format!("the service could not be reached: {e}")))?;
    let status = response.status();
    if !status.is_success() {
        return Err(ToolError::Failed(format!("the service answered HTTP {}", status.as_u16())));
    }
    response
        .json()
        .await
        .map_err(|e| ToolError::Failed(format!("the service sent something that is not JSON: {e}")))
}
