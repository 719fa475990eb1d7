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

/// Longest wait for a provider's check.
const PROBE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);
