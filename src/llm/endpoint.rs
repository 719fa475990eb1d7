//! What every wire client needs to reach one model: the injected HTTP client, the
//! base URL, the model name, the key, and the timeouts.

use super::sse::Timeouts;

#[derive(Clone)]
pub struct Endpoint {
    pub(crate) http: reqwest::Client,
    pub(crate) base_url: String,
    pub(crate) model: String,
    pub(crate) api_key: Option<String>,
    pub(crate) timeouts: Timeouts,
}

impl Endpoint {
    pub fn new(
        http: reqwest::Client,
        base_url: impl Into<String>,
        model: impl Into<String>,
        api_key: Option<String>,
        timeouts: Timeouts,
    ) -> Self {
        Self {
            http,
            base_url: base_url.into().trim_end_matches('/').to_string(),
            model: model.into(),
            api_key,
            timeouts,
        }
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    /// Whether the server answers at all: its model list, within `PROBE_TIMEOUT`. Any
    /// HTTP answer but a refused key counts; `Err` says what went wrong in a few words.
    pub async fn probe(&self) -> Result<(), String> {
        let mut request = self.http.get(format!("{}/models", self.base_url)).timeout(PROBE_TIMEOUT);
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key).header("x-api-key", key);
        }
        match request.send().await {
            Ok(response) if matches!(response.status().as_u16(), 401 | 403) => Err(format!("it refused the key: HTTP {}", response.status().as_u16())),
            Ok(_) => Ok(()),
            Err(e) if e.is_timeout() => Err(format!("no answer within {} s", PROBE_TIMEOUT.as_secs())),
            Err(e) if e.is_connect() => Err(format!("nothing is listening at {}", self.base_url)),
            Err(e) => Err(crate::redact::scrub(&e.to_string()).into_owned()),
        }
    }
}

impl Endpoint {
    /// The model ids the server offers (`GET /models`, the OpenAI list shape that
    /// Anthropic, Ollama, LM Studio and llama.cpp share), sorted.
    pub async fn list_models(&self) -> Result<Vec<String>, String> {
        let mut request = self.http.get(format!("{}/models", self.base_url)).timeout(PROBE_TIMEOUT).header("anthropic-version", "2023-06-01");
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key).header("x-api-key", key);
        }
        let response = request.send().await.map_err(|e| match e {
            e if e.is_timeout() => format!("no answer within {} s", PROBE_TIMEOUT.as_secs()),
            e if e.is_connect() => format!("nothing is listening at {}", self.base_url),
            e => crate::redact::scrub(&e.to_string()).into_owned(),
        })?;
        match response.status().as_u16() {
            401 | 403 => return Err(format!("it refused the key: HTTP {}", response.status().as_u16())),
            code if code >= 400 => return Err(format!("it answered HTTP {code} to the model list")),
            _ => {}
        }
        let body: ModelList = response.json().await.map_err(|e| format!("its model list could not be read: {e}"))?;
        let mut ids: Vec<String> = body.data.into_iter().map(|m| m.id).collect();
        ids.sort();
        ids.dedup();
        Ok(ids)
    }
}

#[derive(serde::Deserialize)]
struct ModelList {
    data: Vec<ModelEntry>,
}

#[derive(serde::Deserialize)]
struct ModelEntry {
    id: String,
}

/// Longest wait for a provider's check.
const PROBE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);
