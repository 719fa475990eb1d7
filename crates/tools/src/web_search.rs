//! `web_search`: results (title, url, snippet) from the service chosen in Settings:
//! DuckDuckGo's results page (no key, the default), a SearXNG instance's JSON API, or
//! the Brave Search API.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use std::sync::Arc;

use super::duckduckgo::{self, Page};
use super::search_failure::SearchFailure;
pub use super::search_result::SearchResult;
use super::search_setup::SearchSetup;
use super::{parse_arguments, schema_of, untrusted, Tool, ToolError, ToolFuture};
use sidecar_domain::Secrets;
use sidecar_settings::SearchBackend;
use sidecar_settings::SettingsOwner;
use sidecar_settings::WebSearchSettings;

const BRAVE_DEFAULT_URL: &str = "https://api.search.brave.com";
const DUCKDUCKGO: &str = "DuckDuckGo";

#[derive(Clone)]
pub struct WebSearch {
    pub http: reqwest::Client,
    /// Read at each search: Settings can change it while Sidecar runs.
    pub setup: Arc<SearchSetup>,
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

impl Tool for WebSearch {
    fn name(&self) -> &'static str {
        "web_search"
    }

    fn description(&self) -> &'static str {
        "Search the web. Returns results with title, url and snippet; use read_url to read a page."
    }
    fn title(&self, lang: sidecar_domain::Lang) -> String {
        lang.pick("Search the web", "Buscar en la web").into()
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
    /// A search on `settings` alone, keys from the environment (tests, tools built by hand).
    pub fn new(http: reqwest::Client, settings: WebSearchSettings) -> Self {
        let mut held = sidecar_settings::Settings::default();
        held.tools.web_search = settings;
        let nowhere = Arc::new(SettingsOwner::new(held, None));
        Self { http, setup: Arc::new(SearchSetup::new(Arc::new(Secrets::new(false)), nowhere)) }
    }

    /// Runs the search on the chosen service.
    pub async fn search(&self, query: &str, count: usize) -> Result<Vec<SearchResult>, SearchFailure> {
        let settings = self.setup.settings();
        let mut results = match settings.backend() {
            SearchBackend::Duckduckgo => self.duckduckgo(&settings, query).await?,
            SearchBackend::Searxng => self.searxng(&settings, query).await?,
            SearchBackend::Brave => self.brave(&settings, query, count).await?,
        };
        results.truncate(count);
        Ok(results)
    }

    async fn duckduckgo(&self, settings: &WebSearchSettings, query: &str) -> Result<Vec<SearchResult>, SearchFailure> {
        let url = settings.url.as_deref().unwrap_or(duckduckgo::DUCKDUCKGO_URL);
        let response = self
            .http
            .post(url)
            .form(&[("q", query)])
            .timeout(std::time::Duration::from_secs(20))
            .send()
            .await
            .map_err(|e| SearchFailure::Unreachable { service: DUCKDUCKGO, detail: e.to_string() })?;
        let status = response.status();
        if status.as_u16() == 202 || status.as_u16() == 403 || status.as_u16() == 429 {
            return Err(SearchFailure::Refused);
        }
        if !status.is_success() {
            return Err(SearchFailure::Status { service: DUCKDUCKGO, code: status.as_u16() });
        }
        let html = response.text().await.map_err(|e| SearchFailure::Cut { service: DUCKDUCKGO, detail: e.to_string() })?;
        match duckduckgo::read(&html) {
            Page::Results(results) => Ok(results),
            Page::Refused => Err(SearchFailure::Refused),
        }
    }

    async fn searxng(&self, settings: &WebSearchSettings, query: &str) -> Result<Vec<SearchResult>, SearchFailure> {
        let base = settings.url.as_deref().ok_or(SearchFailure::NoAddress)?;
        let body: Value =
            fetch_json(self.http.get(format!("{}/search", base.trim_end_matches('/'))).query(&[("q", query), ("format", "json")]), "SearXNG").await?;
        Ok(results(&body["results"], "content"))
    }

    async fn brave(&self, settings: &WebSearchSettings, query: &str, count: usize) -> Result<Vec<SearchResult>, SearchFailure> {
        let key = self.setup.brave_key().ok_or(SearchFailure::NoKey)?;
        let base = settings.url.as_deref().unwrap_or(BRAVE_DEFAULT_URL).trim_end_matches('/');
        let body: Value = fetch_json(
            self.http
                .get(format!("{base}/res/v1/web/search"))
                .query(&[("q", query), ("count", &count.to_string())])
                .header("X-Subscription-Token", key)
                .header("Accept", "application/json"),
            "Brave Search",
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

/// GET returning JSON, with failures phrased for the model (for tools other than web
/// search: no advice about its settings).
pub(crate) async fn get_json(request: reqwest::RequestBuilder) -> Result<Value, ToolError> {
    fetch_json(request, "the service").await.map_err(|failure| {
        ToolError::Failed(match failure {
            SearchFailure::Unreachable { service, detail } => format!("{service} could not be reached: {detail}"),
            SearchFailure::Status { service, code } => format!("{service} answered HTTP {code}"),
            other => other.to_string(),
        })
    })
}

/// GET returning JSON from `service`.
async fn fetch_json(request: reqwest::RequestBuilder, service: &'static str) -> Result<Value, SearchFailure> {
    let response =
        request.timeout(std::time::Duration::from_secs(20)).send().await.map_err(|e| SearchFailure::Unreachable { service, detail: e.to_string() })?;
    let status = response.status();
    if !status.is_success() {
        return Err(SearchFailure::Status { service, code: status.as_u16() });
    }
    response.json().await.map_err(|e| SearchFailure::NotJson { service, detail: e.to_string() })
}
