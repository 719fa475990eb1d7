//! What every wire client needs to reach one model: the injected HTTP client, the
//! base URL, the model name, the key, and the timeouts.

use super::sse::Timeouts;

/// Why a server's model list could not be had, for the header and Settings to say.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProbeProblem {
    #[error("it refused the API key; check it")]
    RefusedKey(u16),
    #[error("no answer within {0} s")]
    NoAnswer(u64),
    /// No network: not the server's fault.
    #[error("{0}")]
    Offline(String),
    #[error("nothing is listening at {0}")]
    NotListening(String),
    #[error("asked for its models, {}", crate::status_words::http_meaning(*.0, sidecar_domain::Lang::En))]
    Http(u16),
    #[error("its model list could not be read: {0}")]
    Unreadable(String),
    /// Anything else, as the HTTP library said it (secrets removed).
    #[error("{0}")]
    Other(String),
}

#[derive(Clone)]
pub struct Endpoint {
    pub(crate) http: reqwest::Client,
    pub(crate) base_url: String,
    pub(crate) model: String,
    pub(crate) api_key: Option<String>,
    pub(crate) timeouts: Timeouts,
    /// How this model samples; unset values are the server's own.
    pub(crate) sampling: super::sampling::Sampling,
    /// Scrubs the server's words before they reach the user or a log.
    pub(crate) redactor: sidecar_domain::Redactor,
    /// The server is Sidecar's own llama.cpp, which takes llama.cpp's own options.
    pub(crate) llama_cpp: bool,
}

impl Endpoint {
    pub fn new(http: reqwest::Client, base_url: impl Into<String>, model: impl Into<String>, api_key: Option<String>, timeouts: Timeouts) -> Self {
        Self {
            http,
            base_url: base_url.into().trim_end_matches('/').to_string(),
            model: model.into(),
            api_key,
            timeouts,
            sampling: super::sampling::Sampling::default(),
            redactor: sidecar_domain::Redactor::default(),
            llama_cpp: false,
        }
    }

    /// OpenAI's own API takes `prompt_cache_key`; other compatible servers may refuse
    /// a field they do not know, so it goes to OpenAI only.
    pub(crate) fn takes_prompt_cache_key(&self) -> bool {
        reqwest::Url::parse(&self.base_url).ok().and_then(|u| u.host_str().map(|h| h == "api.openai.com")).unwrap_or(false)
    }

    /// Marks the server as Sidecar's own llama.cpp.
    pub(crate) fn on_llama_cpp(self) -> Self {
        Self { llama_cpp: true, ..self }
    }

    pub(crate) fn with_sampling(self, sampling: super::sampling::Sampling) -> Self {
        Self { sampling, ..self }
    }

    /// Scrubs what this server says with `redactor` (the process's keys) rather than
    /// for key shapes only.
    pub(crate) fn redacting_with(self, redactor: sidecar_domain::Redactor) -> Self {
        Self { redactor, ..self }
    }

    pub(crate) fn model(&self) -> &str {
        &self.model
    }

    /// Whether the server answers at all: its model list, within `PROBE_TIMEOUT`. Any
    /// HTTP answer but a refused key counts; `Err` says what went wrong in a few words.
    pub(crate) async fn probe(&self) -> Result<(), ProbeProblem> {
        self.ask_models().await.map(drop)
    }

    /// The model ids the server offers (`GET /models`, the OpenAI list shape that
    /// Anthropic, Ollama, LM Studio and llama.cpp share), sorted.
    pub(crate) async fn list_models(&self) -> Result<Vec<String>, ProbeProblem> {
        let response = self.ask_models().await?;
        let code = response.status().as_u16();
        if code >= 400 {
            return Err(ProbeProblem::Http(code));
        }
        let body: ModelList = response.json().await.map_err(|e| ProbeProblem::Unreadable(e.to_string()))?;
        let mut ids: Vec<String> = body.data.into_iter().map(|m| m.id).collect();
        ids.sort();
        ids.dedup();
        Ok(ids)
    }

    /// `GET /models` with the key; a refused key or no answer is an `Err` in words.
    async fn ask_models(&self) -> Result<reqwest::Response, ProbeProblem> {
        let mut request = self.http.get(format!("{}/models", self.base_url)).timeout(PROBE_TIMEOUT).header("anthropic-version", "2023-06-01");
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key).header("x-api-key", key);
        }
        match request.send().await {
            Ok(response) if matches!(response.status().as_u16(), 401 | 403) => Err(ProbeProblem::RefusedKey(response.status().as_u16())),
            Ok(response) => Ok(response),
            Err(e) if e.is_timeout() => Err(ProbeProblem::NoAnswer(PROBE_TIMEOUT.as_secs())),
            Err(e) if e.is_connect() => Err(match crate::offline::ConnectFailure::read(&self.base_url, &e) {
                crate::offline::ConnectFailure::Offline(said) => ProbeProblem::Offline(said),
                crate::offline::ConnectFailure::Other(_) => ProbeProblem::NotListening(self.base_url.clone()),
            }),
            Err(e) => Err(ProbeProblem::Other(self.redactor.scrub(&e.to_string()).into_owned())),
        }
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

impl sidecar_domain::Worded for ProbeProblem {
    fn spanish(&self) -> String {
        match self {
            ProbeProblem::RefusedKey(_) => "rechazó la clave de API; revísala".into(),
            ProbeProblem::NoAnswer(secs) => format!("sin respuesta en {secs} s"),
            ProbeProblem::Offline(_) => "este ordenador parece no tener conexión".into(),
            ProbeProblem::NotListening(url) => format!("no hay nada escuchando en {url}"),
            ProbeProblem::Http(status) => format!("al pedirle sus modelos, {}", crate::status_words::http_meaning(*status, sidecar_domain::Lang::Es)),
            ProbeProblem::Unreadable(why) => format!("no se pudo leer su lista de modelos: {why}"),
            ProbeProblem::Other(why) => why.clone(),
        }
    }
}
