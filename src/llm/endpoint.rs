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
}
