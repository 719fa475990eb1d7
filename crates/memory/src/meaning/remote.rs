//! Any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, LM Studio, a
//! llama.cpp server with an embedding model). The HTTP client is passed in.

use serde::{Deserialize, Serialize};

use super::{normalize, EmbedError, EmbedFuture, Embedder, TextKind};
use crate::knowledge::meaning::Thresholds;

#[derive(Serialize)]
struct Request<'a> {
    model: &'a str,
    input: &'a [String],
    encoding_format: &'static str,
}

#[derive(Deserialize)]
struct Response {
    data: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    index: usize,
    embedding: Vec<f32>,
}

#[derive(Deserialize)]
struct ErrorBody {
    error: ErrorDetail,
}

#[derive(Deserialize)]
struct ErrorDetail {
    message: String,
}

pub(crate) struct RemoteEmbedder {
    client: reqwest::Client,
    /// Base URL ending in `/v1` (or the provider's equivalent).
    base_url: String,
    model: String,
    /// `url|model`: vectors of one server's model are not another's.
    identity: String,
    api_key: Option<String>,
}

impl RemoteEmbedder {
    pub(crate) fn new(client: reqwest::Client, base_url: &str, model: &str, api_key: Option<String>) -> Self {
        let base_url = base_url.trim_end_matches('/').to_string();
        // Vectors made with the task prompts are not those made without (stored before
        // Sidecar gave them): a different identity has everything embedded again.
        let prompted = if prompt(model, TextKind::Query).is_some() { "|prompted" } else { "" };
        Self { identity: format!("{base_url}|{model}{prompted}"), client, base_url, model: model.to_string(), api_key }
    }

    async fn call(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let url = format!("{}/embeddings", self.base_url);
        let mut request = self.client.post(&url).json(&Request { model: &self.model, input: texts, encoding_format: "float" });
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.map_err(|e| {
            if e.is_timeout() {
                return EmbedError::Slow(format!("the embeddings server at {url} did not answer in time"));
            }
            let what = if e.is_connect() { "nothing answers there" } else { "the request failed" };
            EmbedError::Unavailable(format!("cannot reach the embeddings server at {url}: {what}"))
        })?;
        let status = response.status();
        let body = response.bytes().await.map_err(|e| EmbedError::Failed(e.to_string()))?;
        if !status.is_success() {
            let detail = serde_json::from_slice::<ErrorBody>(&body).map(|b| b.error.message).unwrap_or_default();
            let error = format!("the embeddings server at {url} answered {status}{}{detail}", if detail.is_empty() { "" } else { ": " });
            return Err(match status.as_u16() {
                401 | 403 | 404 => EmbedError::Unavailable(error),
                _ => EmbedError::Failed(error),
            });
        }
        let mut parsed: Response = serde_json::from_slice(&body)
            .map_err(|e| EmbedError::Failed(format!("the embeddings server at {url} sent something that is not an embeddings answer: {e}")))?;
        if parsed.data.len() != texts.len() {
            return Err(EmbedError::Failed(format!("the embeddings server sent {} vectors for {} texts", parsed.data.len(), texts.len())));
        }
        parsed.data.sort_by_key(|item| item.index);
        let dim = parsed.data[0].embedding.len();
        if dim == 0 || parsed.data.iter().any(|item| item.embedding.len() != dim || item.embedding.iter().any(|x| !x.is_finite())) {
            return Err(EmbedError::Failed("the embeddings server sent vectors of different lengths or with invalid numbers".into()));
        }
        Ok(parsed
            .data
            .into_iter()
            .map(|mut item| {
                normalize(&mut item.embedding);
                item.embedding
            })
            .collect())
    }
}

/// The task prompt a model was trained to read before a text, for the models known to
/// need one: EmbeddingGemma's retrieval prompts (its model card; without them a query
/// and its answer land further apart). Other models are sent the text as it is.
fn prompt(model: &str, kind: TextKind) -> Option<&'static str> {
    if !model.to_lowercase().contains("embeddinggemma") {
        return None;
    }
    Some(match kind {
        TextKind::Query => "task: search result | query: ",
        TextKind::Passage => "title: none | text: ",
    })
}

impl Embedder for RemoteEmbedder {
    // The embedder's identity is the server and the model, not the model's name alone.
    #[allow(clippy::misnamed_getters)]
    fn model(&self) -> &str {
        &self.identity
    }

    /// EmbeddingGemma's when it is that model (given its prompts), e5-small's when it
    /// is that one; any other model's scale is unknown, and no decision rests on its
    /// cosines ([`Thresholds::UNMEASURED`]).
    fn thresholds(&self) -> Thresholds {
        let model = self.model.to_lowercase();
        if prompt(&self.model, TextKind::Query).is_some() {
            Thresholds::EMBEDDING_GEMMA
        } else if model.contains("e5-small") {
            Thresholds::E5_SMALL
        } else {
            Thresholds::UNMEASURED
        }
    }

    fn embed<'a>(&'a self, texts: &'a [String], kind: TextKind) -> EmbedFuture<'a> {
        Box::pin(async move {
            if texts.is_empty() {
                return Ok(Vec::new());
            }
            match prompt(&self.model, kind) {
                Some(prompt) => self.call(&texts.iter().map(|text| format!("{prompt}{text}")).collect::<Vec<_>>()).await,
                None => self.call(texts).await,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{prompt, TextKind};
    use crate::knowledge::meaning::Thresholds;
    use crate::meaning::Embedder;

    /// Issue 68: a cosine means something only on the scale it was measured on.
    #[test]
    fn only_a_measured_model_has_its_cosines_decide() {
        let endpoint = |model: &str| super::RemoteEmbedder::new(reqwest::Client::new(), "http://h/v1", model, None).thresholds();
        assert_eq!(endpoint("embeddinggemma:300m"), Thresholds::EMBEDDING_GEMMA);
        assert_eq!(endpoint("intfloat/multilingual-e5-small"), Thresholds::E5_SMALL);
        let unknown = endpoint("nomic-embed-text");
        assert_eq!(unknown, Thresholds::UNMEASURED);
        assert_eq!(unknown.tool_floor, None, "the words choose the tools");
        assert!(!unknown.confirmed("Me gusta el café", "Me encanta el café", 0.99), "the words tell facts apart");
    }

    #[test]
    fn embeddinggemma_reads_its_retrieval_prompts_and_other_models_the_text_alone() {
        let client = reqwest::Client::new();
        assert_eq!(super::RemoteEmbedder::new(client.clone(), "http://h/v1/", "embeddinggemma", None).identity, "http://h/v1|embeddinggemma|prompted");
        assert_eq!(super::RemoteEmbedder::new(client, "http://h/v1", "nomic-embed-text", None).identity, "http://h/v1|nomic-embed-text");
        assert_eq!(prompt("embeddinggemma-300m", TextKind::Query), Some("task: search result | query: "));
        assert_eq!(prompt("EmbeddingGemma:latest", TextKind::Passage), Some("title: none | text: "));
        assert_eq!(prompt("text-embedding-3-small", TextKind::Query), None);
    }
}
