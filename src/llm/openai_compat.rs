//! OpenAI-compatible chat completions with SSE streaming.
//!
//! One wire format covers OpenAI, llama.cpp, Ollama, vLLM, LM Studio, DeepSeek, Groq,
//! OpenRouter and Moonshot. The field varies (usage in a last chunk with no choices,
//! or none at all; empty `finish_reason` strings; extra fields), so the chunk types
//! accept all of it.

use std::time::Duration;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use super::sse::SseDecoder;
use super::{ChatMessage, Completion, LlmError, TimeoutPhase, Usage};

/// Timeouts for one streaming call.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// Until the TCP connection is open (enforced by the injected client, see
    /// [`http_client`]; kept here to say so in the error).
    pub connect: Duration,
    /// Until the response headers arrive.
    pub respond: Duration,
    /// Between two body chunks.
    pub idle: Duration,
}

/// A client for one endpoint and model. The HTTP client is injected so tests and the
/// desktop shell share connection pools and timeouts as they see fit.
#[derive(Clone)]
pub struct OpenAiClient {
    http: reqwest::Client,
    base_url: String,
    model: String,
    api_key: Option<String>,
    timeouts: Timeouts,
}

#[derive(Serialize)]
struct ChatRequest<'a> {
    model: &'a str,
    messages: &'a [ChatMessage],
    stream: bool,
    stream_options: StreamOptions,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tokens: Option<u32>,
}

#[derive(Serialize)]
struct StreamOptions {
    include_usage: bool,
}

#[derive(Deserialize)]
struct Chunk {
    #[serde(default)]
    choices: Vec<ChunkChoice>,
    #[serde(default)]
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
struct ChunkChoice {
    #[serde(default)]
    delta: Option<Delta>,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct Delta {
    #[serde(default)]
    content: Option<String>,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: u32,
    #[serde(default)]
    completion_tokens: u32,
}

#[derive(Deserialize)]
struct ErrorBody {
    error: ErrorDetail,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ErrorDetail {
    Object { message: String },
    Text(String),
}

impl OpenAiClient {
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

    fn endpoint(&self) -> String {
        format!("{}/chat/completions", self.base_url)
    }

    /// Streams a reply, calling `on_delta` with each piece of text as it arrives.
    /// Dropping the future cancels the request (the connection is closed).
    pub async fn stream_chat(
        &self,
        messages: &[ChatMessage],
        max_tokens: Option<u32>,
        mut on_delta: impl FnMut(&str),
    ) -> Result<Completion, LlmError> {
        let url = self.endpoint();
        let body = ChatRequest {
            model: &self.model,
            messages,
            stream: true,
            stream_options: StreamOptions {
                include_usage: true,
            },
            max_tokens,
        };
        let mut request = self.http.post(&url).json(&body);
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key);
        }
        let response = tokio::time::timeout(self.timeouts.respond, request.send())
            .await
            .map_err(|_| LlmError::Timeout {
                phase: TimeoutPhase::Respond,
                after: self.timeouts.respond,
            })?
            .map_err(|e| send_error(&url, e, self.timeouts.connect))?;

        let status = response.status();
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            return Err(LlmError::Http {
                status: status.as_u16(),
                message: error_message(&text, status),
            });
        }

        let mut body = response.bytes_stream();
        let mut decoder = SseDecoder::new();
        let mut completion = Completion::default();
        let mut done = false;
        while !done {
            let next = tokio::time::timeout(self.timeouts.idle, body.next())
                .await
                .map_err(|_| LlmError::Timeout {
                    phase: TimeoutPhase::Stream,
                    after: self.timeouts.idle,
                })?;
            let payloads = match next {
                Some(Ok(bytes)) => decoder.push(&bytes),
                Some(Err(e)) => {
                    return Err(LlmError::Interrupted {
                        detail: e.to_string(),
                    })
                }
                None => {
                    done = true;
                    decoder.finish()
                }
            };
            for payload in payloads {
                if payload.trim() == "[DONE]" {
                    done = true;
                    break;
                }
                apply_chunk(&payload, &mut completion, &mut on_delta)?;
            }
        }
        if completion.finish_reason.is_none() && completion.usage.is_none() {
            // No [DONE], no finish reason, no usage: the connection dropped mid-reply.
            return Err(LlmError::Interrupted {
                detail: "the server closed the connection without finishing the reply".into(),
            });
        }
        Ok(completion)
    }
}

fn apply_chunk(
    payload: &str,
    completion: &mut Completion,
    on_delta: &mut impl FnMut(&str),
) -> Result<(), LlmError> {
    let chunk: Chunk = serde_json::from_str(payload).map_err(|e| LlmError::Malformed {
        detail: format!("{e} in stream chunk {}", preview(payload)),
    })?;
    for choice in chunk.choices {
        if let Some(text) = choice.delta.and_then(|d| d.content) {
            if !text.is_empty() {
                completion.text.push_str(&text);
                on_delta(&text);
            }
        }
        if let Some(reason) = choice.finish_reason.filter(|r| !r.is_empty()) {
            completion.finish_reason = Some(reason);
        }
    }
    if let Some(u) = chunk.usage {
        completion.usage = Some(Usage {
            input_tokens: u.prompt_tokens,
            output_tokens: u.completion_tokens,
        });
    }
    Ok(())
}

/// An HTTP client suited to streaming model calls: connect timeout only, because a
/// whole-request timeout would cut long replies; the stream has its own idle timeout.
pub fn http_client(timeouts: &Timeouts) -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(timeouts.connect)
        .build()
        .expect("a TLS backend is compiled in")
}

fn send_error(url: &str, e: reqwest::Error, connect: Duration) -> LlmError {
    if e.is_timeout() {
        return LlmError::Timeout {
            phase: TimeoutPhase::Connect,
            after: connect,
        };
    }
    // reqwest nests the interesting part (connection refused, DNS) in the source chain.
    let mut detail = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        detail = s.to_string();
        source = s.source();
    }
    LlmError::Unreachable {
        url: url.to_string(),
        detail,
    }
}

/// The provider's own error message when the body has one, else the body itself.
fn error_message(body: &str, status: reqwest::StatusCode) -> String {
    if let Ok(parsed) = serde_json::from_str::<ErrorBody>(body) {
        return match parsed.error {
            ErrorDetail::Object { message } | ErrorDetail::Text(message) => message,
        };
    }
    let body = body.trim();
    if body.is_empty() {
        status
            .canonical_reason()
            .unwrap_or("no details given")
            .to_string()
    } else {
        preview(body)
    }
}

fn preview(text: &str) -> String {
    const MAX: usize = 300;
    if text.len() <= MAX {
        return text.to_string();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}
