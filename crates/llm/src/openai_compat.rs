//! OpenAI-compatible chat completions with SSE streaming and native tool calls.
//!
//! One wire format covers OpenAI, llama.cpp, Ollama, vLLM, LM Studio, DeepSeek, Groq,
//! OpenRouter and Moonshot. The field varies (usage in a last chunk with no choices,
//! or none at all; empty `finish_reason` strings; tool-call pieces with or without an
//! index; extra fields), so the chunk types accept all of it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::endpoint::Endpoint;
use super::sse::{stream_events, HttpOptions};
use super::{preview, ChatMessage, ChatRequest, Completion, FinishReason, LlmError, Role, ToolCall, ToolSpec, Usage};

/// A client for one endpoint and model. The HTTP client is injected so tests and the
/// desktop shell share connection pools and timeouts as they see fit.
#[derive(Clone)]
pub struct OpenAiClient {
    endpoint: Endpoint,
}

#[derive(Serialize)]
struct WireRequest<'a> {
    model: &'a str,
    messages: Vec<WireMessage<'a>>,
    stream: bool,
    stream_options: StreamOptions,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    top_p: Option<f32>,
    /// llama.cpp's name; sent only when the user set it.
    #[serde(skip_serializing_if = "Option::is_none")]
    repeat_penalty: Option<f32>,
    /// llama.cpp: reuse the cached prompt prefix (sent to the local server only).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    cache_prompt: bool,
    /// OpenAI: requests with the same key are routed to the same prompt cache. Sidecar's
    /// system prompt is the prefix that repeats, so its hash is the key.
    #[serde(skip_serializing_if = "Option::is_none")]
    prompt_cache_key: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<WireTool<'a>>,
}

/// A key naming the prompt's fixed start (the system prompt), stable across turns and
/// runs: FNV-1a, since std's hasher is seeded per process.
fn prompt_cache_key(messages: &[ChatMessage]) -> Option<String> {
    let system = messages.first().filter(|m| m.role == Role::System)?;
    let hash = system.content.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    Some(format!("sidecar-{hash:016x}"))
}

#[derive(Serialize)]
struct StreamOptions {
    include_usage: bool,
}

#[derive(Serialize)]
struct WireMessage<'a> {
    role: &'static str,
    // Null (not "") on an assistant message that only calls tools: some servers
    // reject an empty string there. A list of parts when images go with the text.
    content: Option<WireContent<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_calls: Vec<WireToolCall<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_call_id: Option<&'a str>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum WireContent<'a> {
    Text(&'a str),
    Parts(Vec<serde_json::Value>),
}

#[derive(Serialize)]
struct WireToolCall<'a> {
    id: &'a str,
    r#type: &'static str,
    function: WireFunctionCall<'a>,
}

#[derive(Serialize)]
struct WireFunctionCall<'a> {
    name: &'a str,
    arguments: &'a str,
}

#[derive(Serialize)]
struct WireTool<'a> {
    r#type: &'static str,
    function: WireFunction<'a>,
}

#[derive(Serialize)]
struct WireFunction<'a> {
    name: &'a str,
    description: &'a str,
    parameters: &'a serde_json::Value,
}

#[derive(Deserialize)]
struct Chunk {
    #[serde(default)]
    choices: Vec<ChunkChoice>,
    #[serde(default)]
    usage: Option<WireUsage>,
    /// llama.cpp's own counts: `cache_n` prompt tokens came from its cache.
    #[serde(default)]
    timings: Option<Timings>,
    #[serde(default)]
    error: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct Timings {
    #[serde(default)]
    cache_n: Option<u32>,
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
    #[serde(default)]
    tool_calls: Option<Vec<ToolCallDelta>>,
}

#[derive(Deserialize)]
struct ToolCallDelta {
    #[serde(default)]
    index: Option<usize>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    function: Option<FunctionDelta>,
}

#[derive(Deserialize)]
struct FunctionDelta {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<String>,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: u32,
    #[serde(default)]
    completion_tokens: u32,
    #[serde(default)]
    prompt_tokens_details: Option<PromptDetails>,
}

#[derive(Deserialize)]
struct PromptDetails {
    #[serde(default)]
    cached_tokens: u32,
}

/// Tool calls being assembled from pieces, by index.
#[derive(Default)]
struct PartialCalls {
    calls: BTreeMap<usize, ToolCall>,
}

impl PartialCalls {
    fn apply(&mut self, position: usize, delta: ToolCallDelta) {
        let index = delta.index.unwrap_or(position);
        let call = self.calls.entry(index).or_insert_with(|| ToolCall { id: String::new(), name: String::new(), arguments: String::new() });
        if let Some(id) = delta.id.filter(|id| !id.is_empty()) {
            call.id = id;
        }
        if let Some(function) = delta.function {
            if let Some(name) = function.name {
                call.name.push_str(&name);
            }
            if let Some(arguments) = function.arguments {
                call.arguments.push_str(&arguments);
            }
        }
    }

    fn finish(self) -> Vec<ToolCall> {
        self.calls
            .into_iter()
            .map(|(index, mut call)| {
                // Some servers omit ids; the loop needs one to pair the result.
                if call.id.is_empty() {
                    call.id = format!("call_{index}");
                }
                call
            })
            .collect()
    }
}

impl OpenAiClient {
    pub fn new(endpoint: Endpoint) -> Self {
        Self { endpoint }
    }

    pub(crate) fn model(&self) -> &str {
        self.endpoint.model()
    }

    /// What this server's words are scrubbed with.
    pub(crate) fn redactor(&self) -> &sidecar_domain::Redactor {
        &self.endpoint.redactor
    }

    pub(crate) fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// Streams a reply, calling `on_delta` with each piece of text as it arrives.
    /// Dropping the future cancels the request (the connection is closed).
    pub async fn stream_chat(&self, request: &ChatRequest, mut on_delta: impl FnMut(&str)) -> Result<Completion, LlmError> {
        let url = format!("{}/chat/completions", self.endpoint.base_url);
        let body = WireRequest {
            model: &self.endpoint.model,
            messages: request.messages.iter().map(wire_message).collect(),
            stream: true,
            stream_options: StreamOptions { include_usage: true },
            max_tokens: self.endpoint.sampling.reply_cap(request.max_tokens, request.general_cap),
            temperature: self.endpoint.sampling.temperature,
            top_p: self.endpoint.sampling.top_p,
            repeat_penalty: self.endpoint.sampling.repeat_penalty,
            cache_prompt: self.endpoint.llama_cpp,
            prompt_cache_key: self.endpoint.takes_prompt_cache_key().then(|| prompt_cache_key(&request.messages)).flatten(),
            tools: request.tools.iter().map(wire_tool).collect(),
        };
        let mut http = self.endpoint.http.post(&url).json(&body);
        if let Some(key) = &self.endpoint.api_key {
            http = http.bearer_auth(key);
        }
        let mut completion = Completion::default();
        let mut calls = PartialCalls::default();
        let mut done = false;
        stream_events(http, HttpOptions { url: &url, timeouts: self.endpoint.timeouts, error_message }, |payload| {
            if done {
                return Ok(());
            }
            if payload.trim() == "[DONE]" {
                done = true;
                return Ok(());
            }
            apply_chunk(payload, &mut completion, &mut calls, &mut on_delta)
        })
        .await?;
        completion.tool_calls = calls.finish();
        if !completion.tool_calls.is_empty() && completion.finish_reason != Some(FinishReason::Length) {
            // Some servers say "stop" even when the message is a tool call.
            completion.finish_reason = Some(FinishReason::ToolUse);
        }
        let nothing = completion.text.is_empty() && completion.tool_calls.is_empty();
        if nothing && completion.finish_reason.is_none() {
            // A 200 with an empty body (or only `[DONE]`): nothing to keep.
            return Err(LlmError::Empty);
        }
        if !done && completion.finish_reason.is_none() && completion.usage.is_none() {
            // No [DONE], no finish reason, no usage: the connection dropped mid-reply.
            return Err(LlmError::Interrupted { detail: "the server closed the connection without finishing the reply".into() });
        }
        Ok(completion)
    }
}

fn wire_message(message: &ChatMessage) -> WireMessage<'_> {
    let content = if message.role == Role::Assistant && message.content.is_empty() && !message.tool_calls.is_empty() {
        None
    } else if message.images.is_empty() {
        Some(WireContent::Text(message.content.as_str()))
    } else {
        let mut parts = vec![serde_json::json!({"type": "text", "text": message.content})];
        parts.extend(
            message
                .images
                .iter()
                .map(|image| serde_json::json!({"type": "image_url", "image_url": {"url": format!("data:{};base64,{}", image.media_type, image.data)}})),
        );
        Some(WireContent::Parts(parts))
    };
    WireMessage {
        role: message.role.as_str(),
        content,
        tool_calls: message
            .tool_calls
            .iter()
            .map(|call| WireToolCall { id: &call.id, r#type: "function", function: WireFunctionCall { name: &call.name, arguments: &call.arguments } })
            .collect(),
        tool_call_id: message.tool_call_id.as_deref(),
    }
}

fn wire_tool(tool: &ToolSpec) -> WireTool<'_> {
    WireTool { r#type: "function", function: WireFunction { name: &tool.name, description: &tool.description, parameters: &tool.parameters } }
}

fn apply_chunk(payload: &str, completion: &mut Completion, calls: &mut PartialCalls, on_delta: &mut impl FnMut(&str)) -> Result<(), LlmError> {
    let chunk: Chunk = serde_json::from_str(payload).map_err(|e| LlmError::Malformed { detail: format!("{e} in stream chunk {}", preview(payload, 300)) })?;
    if let Some(error) = chunk.error {
        // Some servers report failures inside the stream, after a 200.
        return Err(LlmError::Provider { message: provider_message(&error), retryable: true });
    }
    for choice in chunk.choices {
        if let Some(delta) = choice.delta {
            if let Some(text) = delta.content.filter(|t| !t.is_empty()) {
                completion.text.push_str(&text);
                on_delta(&text);
            }
            for (position, call) in delta.tool_calls.into_iter().flatten().enumerate() {
                calls.apply(position, call);
            }
        }
        if let Some(reason) = choice.finish_reason.filter(|r| !r.is_empty()) {
            completion.finish_reason = Some(FinishReason::from_wire(&reason));
        }
    }
    if let Some(u) = chunk.usage {
        completion.usage = Some(Usage {
            input_tokens: u.prompt_tokens,
            output_tokens: u.completion_tokens,
            cached_tokens: u.prompt_tokens_details.map(|d| d.cached_tokens).unwrap_or(0),
        });
    }
    // llama.cpp says what its cache held in `timings`, not in `usage`.
    if let (Some(usage), Some(cached)) = (completion.usage.as_mut(), chunk.timings.and_then(|t| t.cache_n)) {
        if usage.cached_tokens == 0 {
            usage.cached_tokens = cached.min(usage.input_tokens);
        }
    }
    Ok(())
}

fn provider_message(error: &serde_json::Value) -> String {
    error.get("message").and_then(|m| m.as_str()).map(str::to_string).unwrap_or_else(|| error.to_string())
}

/// The provider's own error message when the body has one, else the body itself.
fn error_message(body: &str) -> Option<String> {
    let parsed: serde_json::Value = serde_json::from_str(body).ok()?;
    match parsed.get("error")? {
        serde_json::Value::String(message) => Some(message.clone()),
        other => Some(provider_message(other)),
    }
}

#[cfg(test)]
mod cache_key_tests {
    use super::*;

    #[test]
    fn openai_gets_a_key_named_by_the_system_prompt_and_others_none() {
        let endpoint = |url: &str| {
            let second = std::time::Duration::from_secs(1);
            Endpoint::new(reqwest::Client::new(), url, "m", None, crate::sse::Timeouts { connect: second, respond: second, idle: second })
        };
        assert!(endpoint("https://api.openai.com/v1").takes_prompt_cache_key());
        assert!(!endpoint("https://api.deepseek.com/v1").takes_prompt_cache_key());
        assert!(!endpoint("http://127.0.0.1:8080/v1").takes_prompt_cache_key());
        let turn = |said: &str| vec![ChatMessage::system("You are Sidecar."), ChatMessage::user(said)];
        let key = prompt_cache_key(&turn("hi")).unwrap();
        assert_eq!(Some(key.clone()), prompt_cache_key(&turn("something else")), "the same prefix, the same key");
        assert!(key.starts_with("sidecar-") && key.len() == 24, "{key}");
        assert_ne!(Some(key), prompt_cache_key(&[ChatMessage::system("Another persona.")]));
        assert_eq!(prompt_cache_key(&[ChatMessage::user("no system prompt")]), None);
    }
}
